// Liveness and readiness. /healthz: the process answers. /readyz: the database answers `SELECT 1`
// and, when configured, Redis answers the breaker's probe (a write that expires, within
// REDIS_COMMAND_TIMEOUT_MS: PING answers where writes hang); otherwise 503 naming what is down, for
// an orchestrator's readiness probe or a load balancer with active checks (docs/operating.md says
// what nginx does).
import { prisma } from '../platform/db';
import { jsonResponse } from '../platform/errors';
import { logger } from '../platform/logger';
import { breakerOf, type RedisClient } from '../platform/redis';
import { CHECK_TIMEOUT_MS, within } from '../platform/deadline';
import type { RequestRecord } from '../requestRecord';

async function check(name: string, work: () => Promise<unknown>): Promise<string> {
  try {
    await within(CHECK_TIMEOUT_MS, work());
    return 'ok';
  } catch (error) {
    // The cause goes to the log; the probe's answer names no hosts or credentials.
    logger.warn({ check: name, err: error }, 'readiness check failed');
    return 'unreachable';
  }
}

/** Whether the database and, when configured, Redis answer: `ok` or `unreachable` each. */
export async function readiness(redis: RedisClient | null): Promise<Record<string, string>> {
  const checks: Record<string, string> = {
    database: await check('database', () => prisma.$queryRaw`SELECT 1`),
  };
  if (redis) checks.redis = await check('redis', () => breakerOf(redis).probe());
  return checks;
}

export const HEALTH_PATHS = ['/healthz', '/readyz'];

/** The answer to a probe, or null for other paths. */
export async function healthResponse(
  record: RequestRecord,
  redis: RedisClient | null,
): Promise<Response | null> {
  const { pathname } = record.url;
  const headers = record.answerHeaders;
  if (pathname === '/healthz') return jsonResponse({ status: 'ok' }, { headers });
  if (pathname !== '/readyz') return null;
  const checks = await readiness(redis);
  const ready = Object.values(checks).every((result) => result === 'ok');
  return jsonResponse(
    { status: ready ? 'ok' : 'unavailable', checks },
    { status: ready ? 200 : 503, headers },
  );
}
