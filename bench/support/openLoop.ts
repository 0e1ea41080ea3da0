// The open-loop probe: requests sent on a fixed schedule whatever the answers, each timed from the
// moment it was due. A closed loop (autocannon, even with a rate) waits for answers before sending
// more, so a server that stalls is sent less and its stall is timed once; here every request due
// during a stall waits it out and is timed with it, as a client's would be.
import http from 'node:http';
import { LatencyLog, quantile, type LoadRequest } from './load';

export interface ProbeSettings {
  ratePerS: number;
  durationS: number;
  /** An answer later than this counts as an error. */
  timeoutMs?: number;
}

export interface ProbeResult {
  sent: number;
  /** Answers with the expected status. */
  answered: number;
  /** Other statuses, connection errors and timeouts. */
  errors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends one request; resolves with its status, or null when it failed or timed out. */
function send(
  agent: http.Agent,
  url: URL,
  request: LoadRequest,
  timeoutMs: number,
): Promise<number | null> {
  return new Promise((resolve) => {
    const outgoing = http.request(
      url,
      { method: request.method, headers: request.headers, agent },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? null));
        response.once('error', () => resolve(null));
      },
    );
    outgoing.setTimeout(timeoutMs, () => outgoing.destroy());
    outgoing.once('error', () => resolve(null));
    outgoing.end(request.body);
  });
}

/** Sends `request` at a fixed rate for the duration and times each answer from its due time. */
export async function probeAtFixedRate(
  baseUrl: string,
  request: LoadRequest,
  { ratePerS, durationS, timeoutMs = 10_000 }: ProbeSettings,
  expectedStatus = 200,
): Promise<ProbeResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const url = new URL(request.path, baseUrl);
  const count = Math.round(ratePerS * durationS);
  const latencies = new LatencyLog();
  let errors = 0;
  const answers: Promise<void>[] = [];
  const startedAt = performance.now();
  for (let i = 0; i < count; i++) {
    const dueAt = startedAt + (i * 1000) / ratePerS;
    const wait = dueAt - performance.now();
    if (wait > 0) await sleep(wait);
    answers.push(
      send(agent, url, request, timeoutMs).then((status) => {
        if (status === expectedStatus) latencies.add(performance.now() - dueAt);
        else errors++;
      }),
    );
  }
  await Promise.all(answers);
  agent.destroy();
  const sorted = latencies.drain();
  return {
    sent: count,
    answered: sorted.length,
    errors,
    p50Ms: quantile(sorted, 0.5),
    p99Ms: quantile(sorted, 0.99),
    maxMs: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
  };
}
