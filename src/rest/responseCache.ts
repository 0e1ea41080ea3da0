// The response cache of the REST GET routes (RESPONSE_CACHE_TTL seconds, 0 = off): an answer's bytes
// and their ETag, kept for the TTL, so a hit runs no execution, reads nothing from the database and
// serializes nothing. The facade asks it behind everything that decides who may read: the edge's
// quota, the key check (a revoked or rotated-out key is refused before any lookup) and the strict
// query parsing. Entries are per key, its scopes and its affiliate account's state (an affiliate's
// answers never reach another key; a key whose scopes change or whose account closes starts
// afresh); partner keys with the same scopes share entries, as the catalog has no key context. An
// affiliate's own writes, over either transport, drop its entries before they are answered.
// Answers may otherwise be up to the TTL old (docs/decisions.md, "Performance").
import { createHash } from 'node:crypto';
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { VerifiedKey } from '../auth/verifyApiKey';
import { isMutation } from '../graphql/operationType';
import { logger } from '../platform/logger';
import { responseCacheLookups } from '../platform/metrics';
import { breakerOf, type RedisClient } from '../platform/redis';
import type { Context } from '../schema/context';

/** Entries one replica keeps in memory when there is no Redis; the oldest goes first. */
const MEMORY_ENTRIES = 10_000;

/** An answer as sent: its body, its media type and entity tag, and the headers that go with it. */
export interface CachedResponse {
  body: string;
  etag: string;
  headers: Record<string, string>;
}

/** Where entries live: per replica, or in the Redis the replicas share. */
interface ResponseStore {
  get(id: string): Promise<CachedResponse | null>;
  set(id: string, answer: CachedResponse, owner: string, ttlMs: number): Promise<void>;
  /** Drops every entry of the owner. */
  forget(owner: string): Promise<void>;
}

function memoryStore(maxEntries = MEMORY_ENTRIES): ResponseStore {
  const entries = new Map<string, { answer: CachedResponse; owner: string; expiresAt: number }>();
  return {
    async get(id) {
      const entry = entries.get(id);
      if (entry && entry.expiresAt > Date.now()) return entry.answer;
      entries.delete(id);
      return null;
    },
    async set(id, answer, owner, ttlMs) {
      entries.delete(id);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(id, { answer, owner, expiresAt: Date.now() + ttlMs });
    },
    async forget(owner) {
      for (const [id, entry] of entries) if (entry.owner === owner) entries.delete(id);
    },
  };
}

/**
 * Entries in Redis, each with the TTL, and per owner the set of its entries' names (expiring with
 * the newest of them), so every key this writes expires by itself: memory stays bounded by the
 * answers of one TTL. Redis unreachable, or not answering in time (the connection's breaker,
 * src/platform/redis.ts): every lookup is a miss and nothing is stored.
 */
function redisStore(redis: RedisClient): ResponseStore {
  const breaker = breakerOf(redis);
  const entryKey = (id: string) => `response-cache:entry:${id}`;
  const ownerKey = (owner: string) => `response-cache:owner:${owner}`;
  return {
    async get(id) {
      const stored = await breaker.run(() => redis.get(entryKey(id))).catch(() => null);
      return stored === null ? null : (JSON.parse(stored) as CachedResponse);
    },
    async set(id, answer, owner, ttlMs) {
      await breaker
        .run(() =>
          redis
            .multi()
            .set(entryKey(id), JSON.stringify(answer), 'PX', ttlMs)
            .sadd(ownerKey(owner), id)
            .pexpire(ownerKey(owner), ttlMs)
            .exec(),
        )
        .catch(() => undefined);
    },
    async forget(owner) {
      await breaker.run(async () => {
        const ids = await redis.smembers(ownerKey(owner));
        await redis.del(ownerKey(owner), ...ids.map(entryKey));
      });
    },
  };
}

/** Whose entries an answer belongs to: the writes that drop them are the affiliate's. */
function ownerOf(affiliateId: string | null): string {
  return affiliateId === null ? 'partner' : `affiliate:${affiliateId}`;
}

/**
 * Who may be given an entry: the key, its scopes and its affiliate account's state (a closed
 * account's key meets no entry, and is refused as it would be uncached), or any partner key with
 * the same scopes (a closed account's partner key does not verify at all).
 */
function sessionOf(key: VerifiedKey): string {
  const scopes = [...key.scopes].sort().join(' ');
  if (key.type === 'partner') return `partner ${scopes}`;
  return `key ${key.id} ${key.affiliateId === null ? 'closed' : 'open'} ${scopes}`;
}

/** What a cached answer stands for: the route, its variables as the facade parsed them, the form. */
export interface CacheQuestion {
  route: string;
  /** Built in the route's argument order, so equal requests give equal JSON. */
  variables: Record<string, unknown>;
  /** The negotiated form (`json` or `csv`). */
  form: string;
}

export interface ResponseCache {
  get(question: CacheQuestion, key: VerifiedKey): Promise<CachedResponse | null>;
  set(question: CacheQuestion, key: VerifiedKey, answer: CachedResponse): Promise<void>;
  /** The plugin by which an affiliate's successful mutations drop its entries. */
  plugin: Plugin<Context>;
}

/** An entry's name: the question and who asks, hashed. */
function entryName(question: CacheQuestion, key: VerifiedKey): string {
  return createHash('sha256')
    .update(
      `${question.route}\0${question.form}\0${JSON.stringify(question.variables)}\0${sessionOf(key)}`,
    )
    .digest('base64url');
}

/** The cache, or null when the TTL is 0. */
export function responseCache(ttlSeconds: number, redis: RedisClient | null): ResponseCache | null {
  if (ttlSeconds === 0) return null;
  const store = redis ? redisStore(redis) : memoryStore();
  const ttlMs = ttlSeconds * 1000;
  return {
    async get(question, key) {
      const answer = await store.get(entryName(question, key));
      responseCacheLookups.inc({ result: answer ? 'hit' : 'miss' });
      return answer;
    },
    set(question, key, answer) {
      return store.set(entryName(question, key), answer, ownerOf(key.affiliateId), ttlMs);
    },
    plugin: {
      onExecute({ args, executeFn, setExecuteFn }) {
        const context = args.contextValue as Context;
        if (context.affiliateId === null || !isMutation(args)) return;
        setExecuteFn(async (executionArgs) => {
          const result = (await executeFn(executionArgs)) as ExecutionResult;
          await store.forget(ownerOf(context.affiliateId)).catch((error: unknown) => {
            logger.warn({ err: error }, 'dropping cached answers after a write failed');
          });
          return result;
        });
      },
    },
  };
}
