// Key and webhook management per dashboard user: each mutation declared with `managementLimit`
// (src/schema/fieldPolicy.ts) at most MANAGEMENT_LIMIT calls a minute. @envelop/rate-limiter decides
// per field, from the `rateLimit` directive the field policy writes into the field's extensions;
// its calls are counted by the shared counters of the quota (src/limits/counters.ts), so every
// replica sees one count per user and mutation.
import { useRateLimiter, type RateLimiterPluginOptions } from '@envelop/rate-limiter';
import type { Plugin } from 'graphql-yoga';
import { TooManyRequestsError } from '../platform/errors';
import type { Counters } from '../limits/counters';
import type { Context } from '../schema/context';
import { MANAGEMENT_LIMIT } from '../schema/fieldPolicy';
import { isMutation } from './operationType';

type Store = NonNullable<RateLimiterPluginOptions['store']>;

/**
 * The limiter's store over the shared counters. The limiter asks for a caller's calls in the
 * window, decides, then writes them back: a read and a write that replicas would race. Here the
 * read is the count itself (one atomic hit), answered as that many calls before this one, and the
 * write has nothing left to do.
 */
function countingStore(counters: Counters, windowMs: number): Store {
  return {
    async getForIdentity({ contextIdentity, fieldIdentity }) {
      const hit = await counters.hit(`rl:management:${contextIdentity}:${fieldIdentity}`, windowMs);
      const earlier = hit.blocked ? 0 : hit.window.count - 1;
      return Array.from({ length: earlier }, () => Date.now());
    },
    setForIdentity() {},
  };
}

export function useManagementLimit(counters: Counters): Plugin<Context> {
  const limiter = useRateLimiter({
    // Unauthenticated calls share one bucket; scope-auth refuses them anyway.
    identifyFn: (context) => (context as Context).dashboardUserId ?? 'anonymous',
    store: countingStore(counters, MANAGEMENT_LIMIT.windowSeconds * 1000),
    transformError: () =>
      new TooManyRequestsError(
        MANAGEMENT_LIMIT.windowSeconds,
        `At most ${MANAGEMENT_LIMIT.max} calls of each dashboard management mutation a minute: retry later`,
      ),
  });
  // The limiter walks the whole document with type information on every execution; only a
  // mutation can hold a limited field, so queries (every REST read) skip the walk.
  const limitMutation = limiter.onExecute!;
  return {
    ...limiter,
    onExecute: (payload) =>
      isMutation(payload.args) ? limitMutation(payload as never) : undefined,
  } as Plugin<Context>;
}
