// The Redis connection the limits share across replicas. Commands must fail fast when Redis is
// unreachable, so a request never waits on it: no offline queue, short connect and command timeouts.
import Redis from 'ioredis';
import { config } from './config';
import { logger } from './logger';

export type RedisClient = Redis;

export function createRedisClient(url: string, keyPrefix = config.redisKeyPrefix): RedisClient {
  const client = new Redis(url, {
    keyPrefix,
    enableOfflineQueue: false,
    connectTimeout: 1_000,
    commandTimeout: 500,
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
export function redisAddress(url: string): string {
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
