// The request quota (docs/decisions.md, "Limits"): N requests per window per (API key, client IP),
// counted once per HTTP request before any GraphQL parsing or database work beyond the key check.
// With Redis, each request is one atomic INCR-with-expiry script in Redis (rate-limiter-flexible),
// so replicas share one count and a burst cannot slip through a read-then-write gap; the window is
// fixed and starts at the first request. When Redis fails, each replica limits in its own memory
// until Redis answers again, and says so once per outage.
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { logger } from '../logger';
import { addressBucket } from './addressBucket';
import type { RedisClient } from '../redis';

export interface Policy {
  /** Named in the IETF RateLimit fields. */
  name: string;
  max: number;
  windowSeconds: number;
}

export interface Decision {
  allowed: boolean;
  policy: Policy;
  remaining: number;
  msBeforeReset: number;
}

/** A fixed-window counter in Redis with a per-replica memory fallback. */
class FixedWindowLimiter {
  private readonly shared: RateLimiterRedis | null;
  private readonly local: RateLimiterMemory;
  private inOutage = false;

  constructor(
    readonly policy: Policy,
    redis: RedisClient | null,
  ) {
    const options = {
      keyPrefix: `rl:${policy.name}`,
      points: policy.max,
      duration: policy.windowSeconds,
    };
    this.shared = redis ? new RateLimiterRedis({ ...options, storeClient: redis }) : null;
    this.local = new RateLimiterMemory(options);
  }

  /** Counts one hit for `key`. */
  async consume(key: string): Promise<Decision> {
    return this.inStore((limiter) => limiter.consume(key));
  }

  /** Takes back one hit counted for `key` (a request refused for another reason). */
  async refund(key: string): Promise<void> {
    await this.inStore((limiter) => limiter.reward(key, 1));
  }

  /** Reads the count for `key` without counting. */
  async peek(key: string): Promise<Decision> {
    return this.inStore(async (limiter) => {
      const res = await limiter.get(key);
      // Nothing counted yet: a fresh window.
      return res ?? new RateLimiterRes(this.policy.max, 0, 0);
    });
  }

  /** Runs `run` on the shared store (Redis), or on this replica's memory while Redis is unreachable. */
  private async inStore(
    run: (limiter: RateLimiterRedis | RateLimiterMemory) => Promise<RateLimiterRes>,
  ): Promise<Decision> {
    if (this.shared) {
      try {
        const decision = await this.decide(() => run(this.shared!));
        if (this.inOutage) {
          this.inOutage = false;
          logger.info({ limiter: this.policy.name }, 'Redis is back: limits are shared again');
        }
        return decision;
      } catch (error) {
        if (!this.inOutage) {
          this.inOutage = true;
          logger.warn(
            { limiter: this.policy.name, err: error },
            'Redis unreachable: limiting per replica in memory until it returns',
          );
        }
      }
    }
    return this.decide(() => run(this.local));
  }

  /** A RateLimiterRes rejection is a refusal; any other rejection is a store failure. */
  private async decide(attempt: () => Promise<RateLimiterRes>): Promise<Decision> {
    try {
      const res = await attempt();
      return this.decision(true, res);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return this.decision(false, rejection);
      throw rejection;
    }
  }

  private decision(allowed: boolean, res: RateLimiterRes): Decision {
    return {
      allowed: allowed && res.consumedPoints <= this.policy.max,
      policy: this.policy,
      remaining: Math.max(0, res.remainingPoints),
      msBeforeReset: Math.max(0, res.msBeforeNext),
    };
  }
}

export interface QuotaSettings {
  max: number;
  windowSeconds: number;
  failedAuthMax: number;
  failedAuthWindowSeconds: number;
}

/**
 * What a request presents to the quota, told by the auth layer: its API key (how far it can be
 * trusted before a lookup, and the lookup itself) and its dashboard token.
 */
export interface PresentedCredentials {
  key: {
    /** Shape and checksum hold; a malformed key can never verify. */
    wellFormed: boolean;
    /** Verified a moment ago: checking it needs no database lookup. */
    remembered: boolean;
    /** The verified key's id, or null. */
    verify(): Promise<string | null>;
  } | null;
  /** Whether the dashboard token verifies; null when none is presented. */
  token: { verify(): Promise<boolean> } | null;
}

export type Admission =
  /** No API key presented: nothing to count (public routes, dashboard JWT, 401 by the surface). */
  | { kind: 'unkeyed' }
  /** A key that does not verify, within the per-IP allowance for failures. */
  | { kind: 'failed-auth' }
  | { kind: 'counted'; decision: Decision };

export class RequestQuota {
  readonly requests: FixedWindowLimiter;
  readonly failedAuth: FixedWindowLimiter;
  /** Malformed keys can never verify, so they are counted without Redis (or the database). */
  readonly malformedKeys: FixedWindowLimiter;

  constructor(settings: QuotaSettings, redis: RedisClient | null) {
    this.requests = new FixedWindowLimiter(
      { name: 'requests', max: settings.max, windowSeconds: settings.windowSeconds },
      redis,
    );
    this.failedAuth = new FixedWindowLimiter(
      {
        name: 'failed-auth',
        max: settings.failedAuthMax,
        windowSeconds: settings.failedAuthWindowSeconds,
      },
      redis,
    );
    this.malformedKeys = new FixedWindowLimiter(
      {
        name: 'failed-auth',
        max: settings.failedAuthMax,
        windowSeconds: settings.failedAuthWindowSeconds,
      },
      null,
    );
  }

  /**
   * Counts the request. An IP that used up its failed authentications is refused, and a valid key
   * from that IP waits too, so guessing keys gets no answers. A key that must be looked up in the
   * database is looked up only once the IP is known not to be exhausted; a key remembered from a
   * moment ago costs no lookup, so its IP's failures are read in the same Redis round trip that
   * counts the request (the hot path: one round trip instead of two), and the count is given back
   * if the IP turns out to be exhausted.
   */
  async admit(credentials: PresentedCredentials, clientIp: string): Promise<Admission> {
    const client = addressBucket(clientIp);
    const { key } = credentials;
    if (key === null) return this.admitDashboardToken(credentials.token, client);
    if (!key.wellFormed) return this.failure(this.malformedKeys, client);
    const exhaustedByMalformed = await exhaustedFor(this.malformedKeys, client);
    if (exhaustedByMalformed) return refused(exhaustedByMalformed);
    const exhaustedByFailures = exhaustedFor(this.failedAuth, client);
    if (!key.remembered) {
      const exhausted = await exhaustedByFailures;
      if (exhausted) return refused(exhausted);
    }
    const keyId = await key.verify();
    if (keyId === null) return this.failure(this.failedAuth, client);
    const quotaKey = `${keyId}:${client}`;
    const [exhausted, decision] = await Promise.all([
      exhaustedByFailures,
      this.requests.consume(quotaKey),
    ]);
    if (exhausted) {
      await this.requests.refund(quotaKey);
      return refused(exhausted);
    }
    return { kind: 'counted', decision };
  }

  /**
   * Dashboard requests are not counted against a key's quota, but a token that fails verification
   * counts against the client IP like a bad key: guessing or replaying tokens is throttled too.
   */
  private async admitDashboardToken(
    token: PresentedCredentials['token'],
    client: string,
  ): Promise<Admission> {
    if (token === null) return { kind: 'unkeyed' };
    const exhausted = await exhaustedFor(this.failedAuth, client);
    if (exhausted) return refused(exhausted);
    return (await token.verify()) ? { kind: 'unkeyed' } : this.failure(this.failedAuth, client);
  }

  private async failure(limiter: FixedWindowLimiter, client: string): Promise<Admission> {
    const failure = await limiter.consume(client);
    return failure.allowed ? { kind: 'failed-auth' } : { kind: 'counted', decision: failure };
  }
}

function refused(exhausted: Decision): Admission {
  return { kind: 'counted', decision: { ...exhausted, allowed: false } };
}

/** The limiter's decision when the client has no attempts left in this window, else null. */
async function exhaustedFor(limiter: FixedWindowLimiter, key: string): Promise<Decision | null> {
  const decision = await limiter.peek(key);
  return decision.remaining === 0 && decision.msBeforeReset > 0 ? decision : null;
}

/** The quota fields every counted response carries. */
export function rateLimitHeaders(decision: Decision, now = Date.now()): Record<string, string> {
  const { policy, remaining, msBeforeReset } = decision;
  const secondsToReset = Math.ceil(msBeforeReset / 1000);
  return {
    'X-RateLimit-Limit': String(policy.max),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(Math.ceil((now + msBeforeReset) / 1000)),
    // draft-ietf-httpapi-ratelimit-headers: structured fields naming the policy.
    'RateLimit-Policy': `"${policy.name}";q=${policy.max};w=${policy.windowSeconds}`,
    RateLimit: `"${policy.name}";r=${remaining};t=${secondsToReset}`,
  };
}

/** Seconds to wait before the window resets, within 1..window. */
export function retryAfterSeconds(decision: Decision): number {
  const seconds = Math.ceil(decision.msBeforeReset / 1000);
  return Math.min(decision.policy.windowSeconds, Math.max(1, seconds));
}
