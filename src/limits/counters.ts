// Fixed-window counters, the one mechanism behind every limit (src/limits/requestQuota.ts): a window
// starts at its first hit and lasts `windowMs`. With Redis, a hit is one atomic script in one round
// trip (replicas share one count, and a burst cannot slip between a read and a write); it can be
// guarded by another counter (a client out of failed authentications), read in the same script.
// When Redis fails, each replica counts in its own memory until Redis answers again, and says so
// once per outage; a Redis that does not answer in time is not asked again until the breaker of its
// connection has seen it answer (src/platform/redis.ts), so no request waits on it.
import { logger } from '../platform/logger';
import {
  breakerOf,
  RedisNotAnswering,
  type RedisBreaker,
  type RedisClient,
} from '../platform/redis';

/** A counter's window: hits so far, and the time until it resets. */
export interface Window {
  count: number;
  msLeft: number;
}

/** Another counter that, once at `max` within its window, stops the hit (nothing is counted). */
export interface Guard {
  key: string;
  max: number;
}

export type Hit = { blocked: false; window: Window } | { blocked: true; guard: Window };

const EMPTY: Window = { count: 0, msLeft: 0 };

// KEYS[1]: the counter hit; KEYS[2]: the guard ('' when none). ARGV[1]: the window in ms; ARGV[2]:
// the guard's max (0 when none). Answers {1, count, msLeft} when counted, {0, guard count, msLeft}
// when the guard stopped it.
const HIT_SCRIPT = `
local guardMax = tonumber(ARGV[2])
if guardMax > 0 then
  local guarded = tonumber(redis.call('GET', KEYS[2]) or '0')
  if guarded >= guardMax then
    local left = redis.call('PTTL', KEYS[2])
    if left > 0 then return {0, guarded, left} end
  end
end
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {1, count, left}
`;

// KEYS[1]: the counter. Answers {count, msLeft}; {0, 0} when it has no window.
const READ_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local left = redis.call('PTTL', KEYS[1])
if left < 0 then return {0, 0} end
return {count, left}
`;

type ScriptedRedis = RedisClient & {
  counterHit(hit: string, guard: string, windowMs: number, guardMax: number): Promise<number[]>;
  counterRead(key: string): Promise<number[]>;
};

function scripted(redis: RedisClient): ScriptedRedis {
  const client = redis as ScriptedRedis;
  if (typeof client.counterHit !== 'function') {
    client.defineCommand('counterHit', { numberOfKeys: 2, lua: HIT_SCRIPT });
    client.defineCommand('counterRead', { numberOfKeys: 1, lua: READ_SCRIPT });
  }
  return client;
}

/** The counters of one replica's memory; expired windows are dropped as they are met or swept. */
class MemoryCounters {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private nextSweep = 0;

  hit(key: string, windowMs: number, guard: Guard | undefined, now = Date.now()): Hit {
    this.sweep(now);
    if (guard) {
      const guarded = this.read(guard.key, now);
      if (guarded.count >= guard.max && guarded.msLeft > 0)
        return { blocked: true, guard: guarded };
    }
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { blocked: false, window: { count: window.count, msLeft: window.resetAt - now } };
  }

  read(key: string, now = Date.now()): Window {
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) return EMPTY;
    return { count: window.count, msLeft: window.resetAt - now };
  }

  /** At most once a second, every window that has ended goes: memory follows the active clients. */
  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + 1_000;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

export class Counters {
  private readonly shared: { redis: ScriptedRedis; breaker: RedisBreaker } | null;
  private readonly local = new MemoryCounters();
  private inOutage = false;

  constructor(redis: RedisClient | null) {
    this.shared = redis && { redis: scripted(redis), breaker: breakerOf(redis) };
  }

  /** Counts one hit of `key`, unless `guard` is at its max. */
  async hit(key: string, windowMs: number, guard?: Guard): Promise<Hit> {
    const answer = await this.inRedis((redis) =>
      redis.counterHit(key, guard?.key ?? '', windowMs, guard?.max ?? 0),
    );
    if (!answer) return this.local.hit(key, windowMs, guard);
    const [counted, count, msLeft] = answer as [number, number, number];
    return counted
      ? { blocked: false, window: { count, msLeft } }
      : { blocked: true, guard: { count, msLeft } };
  }

  /** The window of `key` without counting. */
  async read(key: string): Promise<Window> {
    const answer = await this.inRedis((redis) => redis.counterRead(key));
    if (!answer) return this.local.read(key);
    const [count, msLeft] = answer as [number, number];
    return { count, msLeft };
  }

  /** Redis's answer; null while Redis is unreachable (the memory counters answer instead). */
  private async inRedis(
    run: (redis: ScriptedRedis) => Promise<number[]>,
  ): Promise<number[] | null> {
    if (!this.shared) return null;
    const { redis, breaker } = this.shared;
    try {
      const answer = await breaker.run(() => run(redis));
      if (this.inOutage) {
        this.inOutage = false;
        logger.info('Redis is back: limits are shared again');
      }
      return answer;
    } catch (error) {
      // A Redis not answering in time: its breaker says so, and when it answers again.
      if (!this.inOutage && !(error instanceof RedisNotAnswering)) {
        this.inOutage = true;
        logger.warn(
          // Disconnected, the client has said why (src/platform/redis.ts); ioredis's error adds nothing.
          redis.status === 'ready' ? { err: error } : {},
          'Redis unreachable: limiting per replica in memory until it returns',
        );
      }
      return null;
    }
  }
}
