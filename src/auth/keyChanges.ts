// The keys this replica remembers (src/auth/keyCache.ts), and how rotations and revocations reach
// every replica: the replica that changes a key forgets it and publishes its id on Redis; every
// replica subscribed forgets it on receipt. A replica that is not subscribed (Redis down,
// reconnecting) trusts what it remembers for 1 s only, and forgets everything once it listens
// again, since it may have missed announcements meanwhile.
import type { RedisClient } from '../limits/redis';
import { logger } from '../logger';
import { KeyCache } from './keyCache';
import type { StoredKeyRow } from './verifyApiKey';

const CHANNEL = 'api-key-changes';

interface Channel {
  publisher: RedisClient;
  isListening: boolean;
}

const channels = new Set<Channel>();

/** Without Redis there is one replica, and it hears its own changes. */
function hearsChanges(): boolean {
  for (const channel of channels) if (!channel.isListening) return false;
  return true;
}

export const rememberedKeys = new KeyCache<StoredKeyRow>({ maxEntries: 10_000, hearsChanges });

/** How soon a lost subscription is retried while Redis itself answers. */
const RESUBSCRIBE_AFTER_MS = 1_000;

/** Subscribes to other replicas' key changes over `redis` (for as long as the client lives). */
export function hearKeyChangesOver(redis: RedisClient): void {
  const channel: Channel = { publisher: redis, isListening: false };
  // It never reconnects by itself: the client it listens for drives that (its 'ready'), so the
  // subscriber neither outlives it nor keeps a process alive with retries of its own.
  const subscriber = redis.duplicate({
    lazyConnect: true,
    autoResubscribe: false,
    retryStrategy: () => null,
  });
  const listen = () => {
    if (subscriber.status !== 'wait' && subscriber.status !== 'end') return;
    subscriber
      .connect()
      .then(() => subscriber.subscribe(CHANNEL))
      .then(
        () => {
          // Announcements made while not listening are lost: forget what they could have changed.
          rememberedKeys.forgetAll();
          channel.isListening = true;
        },
        () => subscriber.disconnect(),
      );
  };
  subscriber.on('error', () => {});
  subscriber.on('connect', () => subscriber.stream?.unref?.());
  subscriber.on('close', () => (channel.isListening = false));
  subscriber.on('end', () => {
    if (redis.status === 'ready') setTimeout(listen, RESUBSCRIBE_AFTER_MS).unref();
  });
  subscriber.on('message', (_channel: string, keyId: string) => rememberedKeys.forgetKey(keyId));
  redis.on('ready', listen);
  redis.on('end', () => {
    channels.delete(channel);
    subscriber.disconnect();
  });
  if (redis.status === 'ready') listen();
  channels.add(channel);
}

/** Called once a rotation or revocation is committed. */
export function announceKeyChange(keyId: string): void {
  rememberedKeys.forgetKey(keyId);
  for (const { publisher } of channels) {
    publisher.publish(CHANNEL, keyId).catch((error: unknown) => {
      // Other replicas are most likely not subscribed either (Redis down): they trust for 1 s.
      logger.warn({ keyId, err: error }, 'key change not announced to other replicas');
    });
  }
}
