// One load run with autocannon, in this process. Latencies are taken from autocannon's per-response
// event (sub-millisecond, every status) rather than its histogram, which keeps whole milliseconds
// and only 2xx answers: a 0.3 ms target and a 302 route need both.
import autocannon from 'autocannon';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadSpec {
  /** Cycled through by every connection, in order. */
  requests: LoadRequest[];
  /** Statuses that count as answers; any other is an error. */
  expected: number[];
}

export interface LoadSettings {
  connections: number;
  /** Seconds; ignored when `requestsPerConnection` is set. */
  durationS: number;
  /** Stops each connection after this many answers, so nothing is in flight at the end. */
  requestsPerConnection?: number;
}

export interface LoadResult {
  responses: number;
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  statusCounts: Record<number, number>;
  /** Connection errors and timeouts, as autocannon counts them. */
  transportErrors: number;
  unexpectedStatuses: number;
  errors: number;
  elapsedS: number;
}

/** The value at quantile q of ascending samples (nearest rank). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

/** A growable list of latencies that sorts without boxing. */
export class LatencyLog {
  private values = new Float64Array(1 << 14);
  private size = 0;

  add(ms: number): void {
    if (this.size === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.size++] = ms;
  }

  get count(): number {
    return this.size;
  }

  /** Sorted copy of what was logged; the log is emptied. */
  drain(): Float64Array {
    const sorted = this.values.slice(0, this.size).sort();
    this.size = 0;
    return sorted;
  }
}

/** autocannon's options for a spec; the soak drives autocannon itself with these. */
export function autocannonOptions(baseUrl: string, spec: LoadSpec, settings: LoadSettings) {
  return {
    url: baseUrl,
    connections: settings.connections,
    // With a request count, the duration is only a safety net.
    duration: settings.requestsPerConnection ? 600 : settings.durationS,
    ...(settings.requestsPerConnection
      ? { maxConnectionRequests: settings.requestsPerConnection }
      : {}),
    timeout: 10,
    requests: spec.requests.map(({ method, path, headers, body }) => ({
      method,
      path,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body }),
    })),
  };
}

/** Loads `baseUrl` with the spec's requests and measures every answer. */
export async function runLoad(
  baseUrl: string,
  spec: LoadSpec,
  settings: LoadSettings,
): Promise<LoadResult> {
  const latencies = new LatencyLog();
  const statusCounts: Record<number, number> = {};
  const instance = autocannon(autocannonOptions(baseUrl, spec, settings));
  let started = performance.now();
  instance.on('start', () => {
    started = performance.now();
  });
  instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
    latencies.add(responseTimeMs);
  });
  const result = await instance;
  const elapsedS = (performance.now() - started) / 1000;
  const sorted = latencies.drain();
  const unexpectedStatuses = Object.entries(statusCounts)
    .filter(([status]) => !spec.expected.includes(Number(status)))
    .reduce((sum, [, count]) => sum + count, 0);
  const transportErrors = result.errors;
  return {
    responses: sorted.length,
    requestsPerSecond: sorted.length / elapsedS,
    p50Ms: quantile(sorted, 0.5),
    p90Ms: quantile(sorted, 0.9),
    p99Ms: quantile(sorted, 0.99),
    maxMs: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
    statusCounts,
    transportErrors,
    unexpectedStatuses,
    // autocannon counts timeouts among its errors.
    errors: transportErrors + unexpectedStatuses,
    elapsedS,
  };
}
