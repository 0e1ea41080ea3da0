// What verification records about a key, after the fact and never on the request's path:
// - its last use (`lastUsedAt`, `lastUsedIp`), kept current to the minute without a write per
//   request: each replica tries at most once a minute per key (an in-process throttle), and the
//   write itself is a conditional UPDATE on the database clock, so however many replicas try,
//   at most one write per key per minute lands;
// - a USED_AFTER_REVOCATION audit event when a revoked key is presented with its correct secret,
//   throttled the same way (one per key per minute) so that nobody can flood the audit table.
// Both are fire-and-forget: a failure is logged (key id only) and never fails the request.
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { prisma } from '../platform/db';
import { logger } from '../platform/logger';

/** At most one usage write (and one revoked-use event) per key per this interval. */
export const USAGE_INTERVAL_MS = 60_000;

/** Remembers when each key last acted, so a replica acts at most once per interval per key. */
export class PerKeyThrottle {
  private readonly lastActed = new Map<string, number>();
  private lastPruned = 0;

  constructor(
    private readonly intervalMs: number,
    /** Above this many remembered keys, entries older than the interval are dropped. */
    private readonly pruneAbove = 10_000,
  ) {}

  /** True when `key` may act now; records that it did. */
  tryAcquire(key: string, nowMs = Date.now()): boolean {
    const last = this.lastActed.get(key);
    if (last !== undefined && nowMs - last < this.intervalMs) return false;
    if (this.lastActed.size >= this.pruneAbove) this.prune(nowMs);
    this.lastActed.set(key, nowMs);
    return true;
  }

  /** Forgets `key`, so that an action that failed is tried again at the next use. */
  release(key: string): void {
    this.lastActed.delete(key);
  }

  get size(): number {
    return this.lastActed.size;
  }

  // At most once per interval, so a burst of fresh keys does not prune on every call.
  private prune(nowMs: number): void {
    if (nowMs - this.lastPruned < this.intervalMs) return;
    this.lastPruned = nowMs;
    for (const [key, at] of this.lastActed) {
      if (nowMs - at >= this.intervalMs) this.lastActed.delete(key);
    }
  }
}

/** An address worth storing: an IP literal, else null ("unknown", or anything odd a proxy sent). */
export function storableIp(clientIp: string | null | undefined): string | null {
  return clientIp && isIP(clientIp) ? clientIp : null;
}

// The database clock decides, so replicas with drifting clocks still agree on "a minute ago".
// Columns are `timestamp(3)` in UTC (Prisma's convention), hence `AT TIME ZONE 'UTC'`.

/** Records a use if none was recorded in the last minute; true when this call wrote. */
export async function markKeyUsed(keyId: string, clientIp: string | null): Promise<boolean> {
  const written = await prisma.$executeRaw`
    UPDATE "ApiKey"
    SET "lastUsedAt" = now() AT TIME ZONE 'UTC', "lastUsedIp" = ${storableIp(clientIp)}
    WHERE "id" = ${keyId}::uuid
      AND ("lastUsedAt" IS NULL
        OR "lastUsedAt" < (now() AT TIME ZONE 'UTC') - interval '60 seconds')`;
  return written === 1;
}

/**
 * Records a USED_AFTER_REVOCATION event unless one was recorded in the last minute; one statement,
 * so that of concurrent attempts on any replicas exactly one claims the minute. True when written.
 */
export async function recordRevokedKeyUse(
  keyId: string,
  clientIp: string | null,
): Promise<boolean> {
  const written = await prisma.$executeRaw`
    WITH claimed AS (
      UPDATE "ApiKey" SET "lastRevokedUseAt" = now() AT TIME ZONE 'UTC'
      WHERE "id" = ${keyId}::uuid
        AND "revokedAt" IS NOT NULL
        AND ("lastRevokedUseAt" IS NULL
          OR "lastRevokedUseAt" < (now() AT TIME ZONE 'UTC') - interval '60 seconds')
      RETURNING "id"
    )
    INSERT INTO "ApiKeyEvent" ("id", "keyId", "kind", "actorUserId", "ip", "createdAt")
    SELECT ${randomUUID()}::uuid, "id", 'USED_AFTER_REVOCATION'::"ApiKeyEventKind", NULL,
      ${storableIp(clientIp)}, now() AT TIME ZONE 'UTC'
    FROM claimed`;
  return written === 1;
}

/** An app's record of key uses: throttled per key, written in the background. */
export class KeyUsage {
  private readonly usageThrottle = new PerKeyThrottle(USAGE_INTERVAL_MS);
  private readonly revokedUseThrottle = new PerKeyThrottle(USAGE_INTERVAL_MS);
  private readonly pending = new Set<Promise<unknown>>();

  /** After a successful verification: keeps `lastUsedAt`/`lastUsedIp` current, in the background. */
  noteUse(keyId: string, clientIp: string | null): void {
    this.inBackground(
      this.usageThrottle,
      keyId,
      () => markKeyUsed(keyId, clientIp),
      'could not record the last use of an API key',
    );
  }

  /** After a revoked key was presented with its correct secret: an audit event, in the background. */
  noteRevokedUse(keyId: string, clientIp: string | null): void {
    this.inBackground(
      this.revokedUseThrottle,
      keyId,
      () => recordRevokedKeyUse(keyId, clientIp),
      'could not record the use of a revoked API key',
    );
  }

  /** Resolves once every background write started so far has finished (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  private inBackground(
    throttle: PerKeyThrottle,
    keyId: string,
    write: () => Promise<unknown>,
    failure: string,
  ): void {
    if (!throttle.tryAcquire(keyId)) return;
    const running = write()
      .catch((error: unknown) => {
        throttle.release(keyId);
        logger.warn({ err: error, keyId }, failure);
      })
      .finally(() => this.pending.delete(running));
    this.pending.add(running);
  }
}
