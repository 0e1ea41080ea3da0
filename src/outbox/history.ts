// How long the outbox keeps what it no longer needs: events older than HISTORY_DAYS whose every
// delivery was delivered (or that had none) are deleted with their deliveries and attempts. An
// event still pending or failed for an endpoint stays, so it can be retried or redelivered.
import { prisma } from '../platform/db';

/** Days of delivery history kept (webhookDeliveries shows them). */
export const HISTORY_DAYS = 30;
const DELETE_BATCH = 1_000;

/** Deletes finished events older than HISTORY_DAYS before `now`; answers how many. */
export async function pruneWebhookHistory(now: Date): Promise<number> {
  const before = new Date(now.getTime() - HISTORY_DAYS * 86_400_000);
  let deleted = 0;
  for (;;) {
    // In batches: a replica catching up on a large backlog holds no lock for long.
    const count = await prisma.$executeRaw`
      DELETE FROM "WebhookEvent" WHERE "id" IN (
        SELECT event."id" FROM "WebhookEvent" event
        WHERE event."occurredAt" < ${before}
          AND NOT EXISTS (
            SELECT 1 FROM "WebhookDelivery" delivery
            WHERE delivery."eventId" = event."id" AND delivery."state" <> 'DELIVERED'
          )
        LIMIT ${DELETE_BATCH}
      )`;
    deleted += count;
    if (count < DELETE_BATCH) return deleted;
  }
}
