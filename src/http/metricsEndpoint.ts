// GET /metrics: the registry of src/platform/metrics.ts in the Prometheus text format, with whether the
// database and Redis answer right now. With a token configured, only `Authorization: Bearer
// <token>` reads it; in production it is served only then (config.ts).
import { createHash, timingSafeEqual } from 'node:crypto';
import { Gauge } from 'prom-client';
import { errorResponse, UnauthorizedError } from '../platform/errors';
import { registry } from '../platform/metrics';
import type { RedisClient } from '../platform/redis';
import type { RequestRecord } from '../requestRecord';
import { readiness } from './health';
import { Response } from '../platform/fetchApi';

export const METRICS_PATH = '/metrics';

export interface MetricsSettings {
  metricsEnabled: boolean;
  /** When set, the bearer token /metrics requires. */
  metricsToken?: string;
}

const up = new Gauge({
  name: 'dependency_up',
  help: 'Whether a dependency answered its readiness check when /metrics was read (1) or not (0)',
  labelNames: ['dependency'] as const,
  registers: [registry],
});

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares digests, so the comparison takes as long whatever the presented token is. */
function presentsToken(request: Request, token: string): boolean {
  const presented = request.headers.get('authorization')?.match(/^Bearer (.+)$/i)?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

/** The answer to GET /metrics, or null for other paths (and when metrics are off). */
export async function metricsResponse(
  record: RequestRecord,
  settings: MetricsSettings,
  redis: RedisClient | null,
): Promise<Response | null> {
  if (record.url.pathname !== METRICS_PATH || !settings.metricsEnabled) return null;
  const { metricsToken } = settings;
  if (metricsToken !== undefined && !presentsToken(record.request, metricsToken)) {
    return errorResponse(
      new UnauthorizedError('GET /metrics needs Authorization: Bearer <METRICS_TOKEN>'),
      record.id,
      record.answerHeaders,
    );
  }
  for (const [dependency, state] of Object.entries(await readiness(redis))) {
    up.set({ dependency }, state === 'ok' ? 1 : 0);
  }
  return new Response(await registry.metrics(), {
    headers: {
      ...record.answerHeaders,
      'Content-Type': registry.contentType,
      'Cache-Control': 'no-store',
    },
  });
}
