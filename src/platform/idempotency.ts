// Idempotency keys: a client that retries a request with the same `Idempotency-Key` gets the first
// answer again instead of a second execution. Same key and same request within 24 h: the recorded
// answer (status and body); same key, different request: 409. The record is inserted before the
// request runs, under a unique (scope, key), so of concurrent duplicates exactly one executes; the
// others wait for its answer (bounded) and replay it. Transport-neutral: the REST facade uses it
// for POST routes; a GraphQL mutation can use it with the same `runIdempotently`.
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { prisma } from './db';
import { logger } from './logger';
import { Prisma } from '../generated/prisma/client';
import { BadRequestError, ConflictError } from './errors';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Answer header of a replayed answer (as Stripe and others name it). */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

export interface IdempotencyOptions {
  /** How long a key is remembered. Default 24 h. */
  ttlMs: number;
  /** How long a duplicate waits for the first request's answer before a 409. Default 10 s. */
  waitMs: number;
  /** Pause between looks at a pending record. Default 25 ms. */
  pollMs: number;
  /**
   * A pending record older than this belongs to a request that died (crash, abandoned past the
   * 60 s deadline) and may be taken over. Default 2 min.
   */
  staleAfterMs: number;
}

const DEFAULT_IDEMPOTENCY_OPTIONS: IdempotencyOptions = {
  ttlMs: 24 * 60 * 60 * 1000,
  waitMs: 10_000,
  pollMs: 25,
  staleAfterMs: 2 * 60 * 1000,
};

export interface IdempotentRequest {
  /** Whose keys these are (e.g. one API key's): keys of different scopes never meet. */
  scope: string;
  key: string;
  /** What the request asks (route, arguments); a reused key must ask the same. JSON-serialisable. */
  fingerprint: unknown;
}

export interface RecordedAnswer {
  status: number;
  body: unknown;
}

export const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/** The header's key: 1 to 255 visible ASCII characters (a UUID fits), else 400. */
export function parseIdempotencyKey(header: string): string {
  if (!KEY_FORMAT.test(header)) {
    throw new BadRequestError(
      `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 visible ASCII characters (a UUID, for example)`,
    );
  }
  return header;
}

/** JSON with object keys sorted at every depth, so equal requests hash equally. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) =>
            a < b ? -1 : a > b ? 1 : 0,
          ),
        )
      : inner,
  );
}

export function requestHashOf(fingerprint: unknown): string {
  return createHash('sha256').update(canonicalJson(fingerprint)).digest('hex');
}

/**
 * Runs `execute` once per (scope, key) and request: the first call executes and records its
 * answer; later calls with the same request replay it (`replayed: true`). A 5xx answer or a thrown
 * error is not recorded, so a retry executes again.
 */
export async function runIdempotently(
  request: IdempotentRequest,
  execute: () => Promise<RecordedAnswer>,
  options: Partial<IdempotencyOptions> = {},
): Promise<{ answer: RecordedAnswer; replayed: boolean }> {
  const { ttlMs, waitMs, pollMs, staleAfterMs } = { ...DEFAULT_IDEMPOTENCY_OPTIONS, ...options };
  const { scope, key } = request;
  const requestHash = requestHashOf(request.fingerprint);
  const waitUntil = Date.now() + waitMs;

  // Expired keys are free again; clearing expired records also keeps the table bounded. Every
  // scope's, not only this one's: a remembered answer may hold an issued secret (sealed, see
  // src/modules/secrets/issuance.ts) that must not outlive its 24 h (index on createdAt).
  await prisma.idempotencyRecord.deleteMany({
    where: { createdAt: { lt: new Date(Date.now() - ttlMs) } },
  });
  for (;;) {
    const id = randomUUID();
    // ON CONFLICT DO NOTHING on (scope, key): of concurrent requests, one inserts and executes.
    const { count } = await prisma.idempotencyRecord.createMany({
      data: [{ id, scope, key, requestHash, createdAt: new Date() }],
      skipDuplicates: true,
    });
    if (count === 1) return { answer: await executeAndRecord(id, execute), replayed: false };

    const record = await prisma.idempotencyRecord.findUnique({
      where: { scope_key: { scope, key } },
    });
    if (!record) continue; // the first request failed and let go of the key: claim it again
    if (record.requestHash !== requestHash) {
      throw new ConflictError(
        `${IDEMPOTENCY_KEY_HEADER} ${key} was already used for a different request`,
      );
    }
    if (record.completedAt && record.status !== null) {
      return { answer: { status: record.status, body: record.body }, replayed: true };
    }
    if (Date.now() - record.createdAt.getTime() > staleAfterMs) {
      await prisma.idempotencyRecord.deleteMany({ where: { id: record.id, completedAt: null } });
      continue;
    }
    if (Date.now() >= waitUntil) {
      throw new ConflictError(
        `A request with ${IDEMPOTENCY_KEY_HEADER} ${key} is still in progress; retry later`,
      );
    }
    await sleep(pollMs);
  }
}

async function executeAndRecord(
  id: string,
  execute: () => Promise<RecordedAnswer>,
): Promise<RecordedAnswer> {
  // A failed release leaves a pending record, which goes stale: the original error matters more.
  const release = () =>
    prisma.idempotencyRecord
      .deleteMany({ where: { id, completedAt: null } })
      .catch(() => undefined);
  let answer: RecordedAnswer;
  try {
    answer = await execute();
  } catch (error) {
    await release();
    throw error;
  }
  if (answer.status >= 500) {
    await release();
    return answer;
  }
  try {
    // updateMany: a record taken over as stale meanwhile is simply not updated.
    await prisma.idempotencyRecord.updateMany({
      where: { id },
      data: {
        status: answer.status,
        body: answer.body === null ? Prisma.JsonNull : (answer.body as Prisma.InputJsonValue),
        completedAt: new Date(),
      },
    });
  } catch (error) {
    // An answer the database cannot store (jsonb refuses a lone UTF-16 surrogate that a 400
    // message echoes) is still this request's answer; the key is let go as after a failure.
    logger.warn({ err: error }, 'an idempotent answer could not be recorded; its key is released');
    await release();
  }
  return answer;
}
