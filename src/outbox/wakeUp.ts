// Dispatchers are woken at commit on the channel `webhook_deliveries` (payload: the schema): by the
// database's outbox triggers (`record_*_webhook*` and `record_postback_deliveries` in
// prisma/rules.sql), and by the mutations that make a delivery due.
import { config } from '../platform/config';
import { listenToDatabase, prisma } from '../platform/db';

const CHANNEL = 'webhook_deliveries';

/** Wakes every dispatcher of this schema when the caller's transaction commits. */
export function announceDueDeliveries(client: Pick<typeof prisma, '$queryRaw'>) {
  return client.$queryRaw`SELECT pg_notify(${CHANNEL}, ${config.databaseSchema})::text AS "announced"`;
}

const wakers = new Set<() => void>();
let isListening = false;

/** Calls `wake` on every announcement of this schema, until the returned function is called. */
export function onDueDeliveries(wake: () => void): () => void {
  wakers.add(wake);
  // One LISTEN per process, for as long as it lives.
  if (!isListening) {
    isListening = true;
    listenToDatabase(CHANNEL, {
      onMessage: (schema) => {
        if (schema === config.databaseSchema) for (const waker of wakers) waker();
      },
      // Polling covers what is announced while not listening.
      onListening: () => {},
    });
  }
  return () => wakers.delete(wake);
}
