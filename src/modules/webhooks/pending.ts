// How many deliveries wait to be sent (state PENDING: due, scheduled for a retry, or held by a
// paused endpoint), for the `webhook_deliveries_pending` gauge. Counted on the (state,
// nextAttemptAt) index, so the cost follows the backlog, not the history of delivered rows.
import type { Gauge } from 'prom-client';
import { prisma } from '../../platform/db';
import { CHECK_TIMEOUT_MS, within } from '../../platform/deadline';
import { logger } from '../../platform/logger';

export function countPendingDeliveries(): Promise<number> {
  return prisma.webhookDelivery.count({ where: { state: 'PENDING' } });
}

/**
 * Sets the gauge to the count; when the database does not answer in time the gauge keeps its last
 * value and the scrape goes on (dependency_up already says the database is down).
 */
export async function setPendingDeliveries(
  gauge: Pick<Gauge, 'set'>,
  count: () => Promise<number> = countPendingDeliveries,
): Promise<void> {
  try {
    gauge.set(await within(CHECK_TIMEOUT_MS, count()));
  } catch (error) {
    logger.debug({ err: error }, 'pending webhook deliveries not counted');
  }
}
