// The Redis connection the limits and the answer cache share across replicas. A request must never
// wait on Redis: unreachable, commands fail at once (no offline queue, a short connect timeout);
// connected but not answering (hung, paused, a peer gone without a reset), the circuit breaker
// below sends the service to its in-memory fallback after one command's timeout and probes Redis in
// the background until it answers again.
import Redis from 'ioredis';
import { config } from './config';
import { raceDeadline } from './deadline';
import { logger } from './logger';

export type RedisClient = Redis;

/** A command not answered within this long counts Redis as not answering (the breaker opens). */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

export function createRedisClient(url: string, keyPrefix = config.redisKeyPrefix): RedisClient {
  const client = new Redis(url, {
    keyPrefix,
    enableOfflineQueue: false,
    connectTimeout: 1_000,
    // A backstop behind the breaker's own timeout, which decides (and ends the ready check's wait).
    commandTimeout: 2 * REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    // Keep trying to come back, at most every 2 s, so the limits recover by themselves.
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  reportConnection(client, url);
  // The connection alone must not keep a process alive (scripts, test workers); the HTTP server does.
  client.on('connect', () => client.stream?.unref?.());
  return client;
}

/** Where Redis is, for logs: scheme, host and port, never the credentials of the URL. */
function redisAddress(url: string): string {
  try {
    const { protocol, host } = new URL(url);
    return `${protocol}//${host}`;
  } catch {
    return 'REDIS_URL (not a URL)';
  }
}

/**
 * Says in words, once per change, whether Redis answers: unreachable at start, lost, back. Without
 * it, an outage shows only as ioredis's "Stream isn't writeable" on the commands that fail.
 */
function reportConnection(client: RedisClient, url: string): void {
  const redis = redisAddress(url);
  let state: 'connecting' | 'ready' | 'unreachable' = 'connecting';
  client.on('error', (error: Error) => {
    if (state === 'unreachable') return;
    logger.warn(
      { redis, reason: error.message },
      state === 'connecting'
        ? 'Redis is unreachable: the service answers, limiting per replica in memory, and connects when Redis answers'
        : 'Redis connection lost: limiting per replica in memory until it answers again',
    );
    state = 'unreachable';
  });
  client.on('ready', () => {
    logger.info({ redis }, state === 'connecting' ? 'Redis connected' : 'Redis answers again');
    state = 'ready';
  });
}

/** Redis is not asked: it did not answer in time, and the breaker has not seen it answer since. */
export class RedisNotAnswering extends Error {}

/** While the breaker is open, how often the background probe asks Redis. */
const PROBE_INTERVAL_MS = 1_000;
/**
 * Failed probes in a row after which a connection that still looks open is made anew: a peer that
 * vanished without resetting it (a host gone, a failover behind the same name) would otherwise
 * hold it until TCP gives up, many minutes later.
 */
const PROBES_BEFORE_RECONNECT = 3;
/** The key the probe writes (with the client's prefix), expiring by itself. */
const PROBE_KEY = 'health:probe';

/**
 * The circuit breaker of one Redis connection. Closed, every command runs with a deadline of
 * REDIS_COMMAND_TIMEOUT_MS; one that passes it opens the breaker. Open, commands are refused at
 * once (callers fall back to memory) and a probe asks Redis every second, in the background, with
 * the real thing the service needs of it: a write that expires (PING answers while writes hang
 * under CLIENT PAUSE WRITE, and a replica demoted by a failover answers reads but refuses writes).
 * The first answer closes the breaker. Errors Redis answers quickly (disconnected, refused) open
 * nothing: they cost no wait, and the connection's own reconnection handles them.
 */
export class RedisBreaker {
  private openedAt: number | null = null;
  private probeTimer: NodeJS.Timeout | null = null;
  private failedProbes = 0;

  constructor(private readonly redis: RedisClient) {}

  get isOpen(): boolean {
    return this.openedAt !== null;
  }

  /** `command`'s answer; RedisNotAnswering while open, or when it passes the deadline. */
  async run<T>(command: (redis: RedisClient) => Promise<T>): Promise<T> {
    if (this.isOpen) throw new RedisNotAnswering('Redis is not answering');
    return this.withinDeadline(command);
  }

  /** Runs the probe's write now: resolves when Redis answers it (closing the breaker), else throws. */
  async probe(): Promise<void> {
    await this.withinDeadline((redis) => redis.set(PROBE_KEY, String(Date.now()), 'PX', 60_000));
    this.close();
  }

  private async withinDeadline<T>(command: (redis: RedisClient) => Promise<T>): Promise<T> {
    const outcome = await raceDeadline(REDIS_COMMAND_TIMEOUT_MS, command(this.redis));
    if (outcome.kind === 'done') return outcome.value;
    this.open();
    throw new RedisNotAnswering(`Redis did not answer within ${REDIS_COMMAND_TIMEOUT_MS} ms`);
  }

  private open(): void {
    if (this.isOpen) return;
    this.openedAt = Date.now();
    this.failedProbes = 0;
    logger.warn(
      { timeoutMs: REDIS_COMMAND_TIMEOUT_MS },
      'Redis did not answer in time: limiting per replica in memory, without the answer cache, and probing it every second until it answers',
    );
    this.probeTimer = setInterval(() => this.probeInBackground(), PROBE_INTERVAL_MS);
    this.probeTimer.unref();
  }

  private close(): void {
    if (!this.isOpen) return;
    logger.info(
      { notAnsweringMs: Date.now() - this.openedAt! },
      'Redis answers in time again: limits and the answer cache are shared again',
    );
    this.openedAt = null;
    clearInterval(this.probeTimer!);
    this.probeTimer = null;
  }

  private probeInBackground(): void {
    this.probe().catch(() => {
      this.failedProbes += 1;
      if (this.failedProbes % PROBES_BEFORE_RECONNECT === 0 && this.redis.status === 'ready') {
        this.redis.disconnect(true);
      }
    });
  }
}

const breakers = new WeakMap<RedisClient, RedisBreaker>();

/** The breaker of a connection: one per client, shared by everything that uses it. */
export function breakerOf(redis: RedisClient): RedisBreaker {
  let breaker = breakers.get(redis);
  if (!breaker) {
    breaker = new RedisBreaker(redis);
    breakers.set(redis, breaker);
  }
  return breaker;
}
