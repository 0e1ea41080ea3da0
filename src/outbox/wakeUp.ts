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

/**
 * One app's hearing of the announcements: `listen` starts it and returns how to stop, and each
 * dispatcher the app starts is woken on every announcement of this schema while it is heard.
 */
export class DueDeliveries {
  private readonly wakers = new Set<() => void>();

  listen(): () => void {
    return listenToDatabase(CHANNEL, {
      onMessage: (schema) => {
        if (schema === config.databaseSchema) for (const wake of this.wakers) wake();
      },
      // Polling covers what is announced while not listening.
      onListening: () => {},
    });
  }

  /** Calls `wake` on every announcement heard, until the returned function is called. */
  onDue(wake: () => void): () => void {
    this.wakers.add(wake);
    return () => this.wakers.delete(wake);
  }
}
