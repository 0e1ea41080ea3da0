// The request quota (docs/decisions.md, "Limits"): every request that reaches the service's work
// (all but the probes, /metrics, the redirect and preflights) is counted once, before any GraphQL
// parsing or database work beyond the key check, against its caller's budget:
//   - a verified API key, per client address (`requests`), whatever is sent beside it;
//   - a verified dashboard user, per user (`dashboard`);
//   - no credential at all, per client address (`anonymous`).
// A request with both a key and a token is counted in both budgets: neither credential lifts the
// other's quota.
// A key or token that fails verification counts against its client address instead
// (`failed-auth`), and an address out of failures is refused whatever it presents, so guessing
// keys gets no answers. Every decision is answered in the same headers. Counted in Redis when
// there is one (src/limits/counters.ts: one round trip per request), shared by the replicas.
import { addressBucket } from './addressBucket';
import type { Counters, Window } from './counters';

export interface Policy {
  /** Named in the IETF RateLimit fields. */
  name: 'requests' | 'dashboard' | 'anonymous' | 'failed-auth';
  max: number;
  windowSeconds: number;
}

export interface Decision {
  allowed: boolean;
  policy: Policy;
  remaining: number;
  msBeforeReset: number;
}

/** Failed authentications allowed per client address and window: keys are not to be guessed. */
export const FAILED_AUTH_LIMIT = { max: 30, windowSeconds: 60 } as const;

export interface QuotaSettings {
  /** Requests per window of each caller: a key per client address, a dashboard user, an address. */
  max: number;
  windowSeconds: number;
  failedAuthMax: number;
  failedAuthWindowSeconds: number;
}

/**
 * What a request presents to the quota, told by the edge: its API key (how far it can be trusted
 * before a lookup, and the lookup itself) and its dashboard token.
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
  /** The dashboard user the token verifies as, or null; null when no token is presented. */
  token: { verify(): Promise<string | null> } | null;
}

function decisionOf(policy: Policy, window: Window, counted = true): Decision {
  return {
    allowed: counted && window.count <= policy.max,
    policy,
    remaining: Math.max(0, policy.max - window.count),
    msBeforeReset: Math.max(0, window.msLeft),
  };
}

/**
 * Of two decisions on one request, the one to answer: a refusal (the later reset when both
 * refuse, so that Retry-After holds for both), else the fewer remaining (`first` on a tie).
 */
function tighter(first: Decision, second: Decision): Decision {
  if (first.allowed !== second.allowed) return first.allowed ? second : first;
  if (!first.allowed) return second.msBeforeReset > first.msBeforeReset ? second : first;
  return second.remaining < first.remaining ? second : first;
}

const isExhausted = (policy: Policy, window: Window) =>
  window.count >= policy.max && window.msLeft > 0;

export class RequestQuota {
  private readonly policies: Record<'requests' | 'dashboard' | 'anonymous', Policy>;
  private readonly failedAuth: Policy;

  constructor(
    settings: QuotaSettings,
    private readonly counters: Counters,
  ) {
    const budget = { max: settings.max, windowSeconds: settings.windowSeconds };
    this.policies = {
      requests: { name: 'requests', ...budget },
      dashboard: { name: 'dashboard', ...budget },
      anonymous: { name: 'anonymous', ...budget },
    };
    this.failedAuth = {
      name: 'failed-auth',
      max: settings.failedAuthMax,
      windowSeconds: settings.failedAuthWindowSeconds,
    };
  }

  /**
   * Counts the request against its caller's budget. A malformed key is a failure at once, without
   * a lookup. Credentials that must be looked up are looked up only once their address is known
   * not to be out of failures; a key remembered from a moment ago costs no lookup, so the request
   * is counted and its address's failures read in one round trip. A dashboard token is verified
   * whatever else is sent, and so is a key beside it, so that neither escapes the failure count;
   * with both valid, the request is counted in the key's budget and in the user's (in parallel),
   * and answered as the tighter of the two.
   */
  async admit(credentials: PresentedCredentials, clientIp: string): Promise<Decision> {
    const client = addressBucket(clientIp);
    const { key, token } = credentials;
    if (!key && !token) return this.count(this.policies.anonymous, client);
    if (key && !key.wellFormed) return this.failure(client);
    if (token || !key!.remembered) {
      const refusal = await this.outOfFailures(client);
      if (refusal) return refusal;
    }
    if (token) {
      const userId = await token.verify();
      const keyId = userId !== null && key ? await key.verify() : null;
      if (userId === null || (key && keyId === null)) return this.failure(client);
      const forUser = this.count(this.policies.dashboard, userId, client);
      if (keyId === null) return forUser;
      const forKey = this.count(this.policies.requests, `${keyId}:${client}`, client);
      return tighter(await forKey, await forUser);
    }
    const keyId = await key!.verify();
    if (keyId === null) return this.failure(client);
    return this.count(this.policies.requests, `${keyId}:${client}`, client);
  }

  private failuresKey(client: string): string {
    return `rl:${this.failedAuth.name}:${client}`;
  }

  /** The refusal of an address out of failed authentications, else null. */
  private async outOfFailures(client: string): Promise<Decision | null> {
    const failures = await this.counters.read(this.failuresKey(client));
    return isExhausted(this.failedAuth, failures)
      ? decisionOf(this.failedAuth, failures, false)
      : null;
  }

  /** One more failed authentication of the address. */
  private async failure(client: string): Promise<Decision> {
    const windowMs = this.failedAuth.windowSeconds * 1000;
    const hit = await this.counters.hit(this.failuresKey(client), windowMs);
    return decisionOf(this.failedAuth, hit.blocked ? hit.guard : hit.window);
  }

  /** One more request of the caller, unless its address is out of failures (then not counted). */
  private async count(policy: Policy, caller: string, client?: string): Promise<Decision> {
    const guard = client && { key: this.failuresKey(client), max: this.failedAuth.max };
    const hit = await this.counters.hit(
      `rl:${policy.name}:${caller}`,
      policy.windowSeconds * 1000,
      guard || undefined,
    );
    return hit.blocked
      ? decisionOf(this.failedAuth, hit.guard, false)
      : decisionOf(policy, hit.window);
  }
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
