// The response cache of the REST GET routes (RESPONSE_CACHE_TTL seconds, 0 = off):
// @envelop/response-cache around the execution, so a hit costs no resolver and no database read.
// It sits behind everything that decides who may read: the edge's quota, the facade's key check
// (a revoked or rotated-out key is refused before any lookup) and the strict query parsing.
// Entries are per key and its scopes (an affiliate's answers never reach another key; a key whose
// scopes change starts afresh); partner keys with the same scopes share entries, as the catalog has
// no key context. An affiliate's own writes drop its entries before they are answered. Answers may
// otherwise be up to the TTL old (docs/decisions.md, "Performance").
import { createHash } from 'node:crypto';
import {
  useResponseCache,
  type BuildResponseCacheKeyFunction,
  type Cache,
} from '@envelop/response-cache';
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { logger } from '../logger';
import { responseCacheLookups } from '../metrics';
import { isMutation } from './operationType';
import type { RedisClient } from '../redis';
import type { Context } from '../schema/context';

/** Entries one replica keeps in memory when there is no Redis; the oldest goes first. */
export const MEMORY_ENTRIES = 10_000;

/** Where entries live: per replica, or in the Redis the replicas share. */
export interface AnswerStore {
  get(id: string): Promise<ExecutionResult | null>;
  set(id: string, answer: ExecutionResult, owner: string, ttlMs: number): Promise<void>;
  /** Drops every entry of the owner. */
  forget(owner: string): Promise<void>;
}

export function memoryAnswers(maxEntries = MEMORY_ENTRIES): AnswerStore {
  const entries = new Map<string, { answer: ExecutionResult; owner: string; expiresAt: number }>();
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
 * answers of one TTL. Redis unreachable: every lookup is a miss.
 */
export function redisAnswers(redis: RedisClient): AnswerStore {
  const entryKey = (id: string) => `response-cache:entry:${id}`;
  const ownerKey = (owner: string) => `response-cache:owner:${owner}`;
  return {
    async get(id) {
      const stored = await redis.get(entryKey(id)).catch(() => null);
      return stored === null ? null : (JSON.parse(stored) as ExecutionResult);
    },
    async set(id, answer, owner, ttlMs) {
      await redis
        .multi()
        .set(entryKey(id), JSON.stringify(answer), 'PX', ttlMs)
        .sadd(ownerKey(owner), id)
        .pexpire(ownerKey(owner), ttlMs)
        .exec()
        .catch(() => undefined);
    },
    async forget(owner) {
      const ids = await redis.smembers(ownerKey(owner));
      await redis.del(ownerKey(owner), ...ids.map(entryKey));
    },
  };
}

/** Whose entries an answer belongs to: the writes that drop them are the affiliate's. */
function ownerOf(context: Context): string {
  return context.affiliateId === null ? 'partner' : `affiliate:${context.affiliateId}`;
}

/** Who may be given an entry: the key and its scopes, or any partner key with the same scopes. */
function sessionOf(context: Context): string {
  const key = context.apiKey!;
  const scopes = [...key.scopes].sort().join(' ');
  return key.type === 'partner' ? `partner ${scopes}` : `key ${key.id} ${scopes}`;
}

/** A REST GET (or HEAD), admitted by the facade: the only executions the cache answers. */
function isCachedRead(context: Context): boolean {
  return context.rest?.method === 'GET' && context.apiKey !== null;
}

/**
 * An entry's name: the route's operation, its variables (the facade builds them in the route's
 * argument order, so equal requests give equal JSON) and the session. Hashed synchronously: the
 * default goes through WebCrypto's promise on every lookup.
 */
const entryName: BuildResponseCacheKeyFunction = ({ documentString, variableValues, sessionId }) =>
  createHash('sha256')
    .update(`${documentString}\0${JSON.stringify(variableValues ?? {})}\0${sessionId ?? ''}`)
    .digest('base64url');

/** The store as @envelop/response-cache sees it for one execution: entries tagged by their owner. */
function viewFor(store: AnswerStore, context: Context): Cache {
  return {
    async get(id) {
      const answer = await store.get(id);
      responseCacheLookups.inc({ result: answer ? 'hit' : 'miss' });
      return answer;
    },
    set: (id, answer, _entities, ttlMs) => store.set(id, answer, ownerOf(context), ttlMs),
    // Entries are dropped by owner, on writes (below), never by entity.
    invalidate: () => undefined,
  };
}

/** After an affiliate's successful mutation (any transport), its entries are dropped. */
function useWritesForgetAnswers(store: AnswerStore): Plugin<Context> {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const context = args.contextValue as Context;
      if (context.affiliateId === null) return;
      if (!isMutation(args)) return;
      setExecuteFn(async (executionArgs) => {
        const result = (await executeFn(executionArgs)) as ExecutionResult;
        await store.forget(ownerOf(context)).catch((error: unknown) => {
          logger.warn({ err: error }, 'dropping cached answers after a write failed');
        });
        return result;
      });
    },
  };
}

export function responseCache(ttlSeconds: number, redis: RedisClient | null): Plugin<Context>[] {
  if (ttlSeconds === 0) return [];
  const store = redis ? redisAnswers(redis) : memoryAnswers();
  return [
    useResponseCache<Context>({
      ttl: ttlSeconds * 1000,
      session: sessionOf,
      buildResponseCacheKey: entryName,
      enabled: isCachedRead,
      cache: (context) => viewFor(store, context as Context),
      // Entries are dropped by owner (above): no entity ids to collect, no mutation to watch.
      idFields: [],
      invalidateViaMutation: false,
      // Errors are answered afresh every time (the default also writes a console warning).
      shouldCacheResult: ({ result }) => !result.errors,
    }) as Plugin<Context>,
    useWritesForgetAnswers(store),
  ];
}
