// The Redis connection the limits share across replicas. Commands must fail fast when Redis is
// unreachable, so a request never waits on it: no offline queue, short connect and command timeouts.
import Redis from 'ioredis';
import { config } from './config';

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
  // Connection errors are reported by the users of the client (once per outage), not per retry.
  client.on('error', () => {});
  // The connection alone must not keep a process alive (scripts, test workers); the HTTP server does.
  client.on('connect', () => client.stream?.unref?.());
  return client;
}
