// How many deliveries of a lane wait to be sent (state PENDING: due, scheduled for a retry, or
// held by a paused target), for the `webhook_deliveries_pending` and `postback_deliveries_pending`
// gauges. Counted on the (state, nextAttemptAt) index, so the cost follows the backlog, not the
// history of delivered rows.
import type { Gauge } from 'prom-client';
import { prisma } from '../platform/db';
import { CHECK_TIMEOUT_MS, within } from '../platform/deadline';
import { logger } from '../platform/logger';
import type { DeliveryLane } from './lane';

type TargetColumn = DeliveryLane<never>['targetColumn'];

function countPendingDeliveries(targetColumn: TargetColumn): Promise<number> {
  return prisma.webhookDelivery.count({
    where: { state: 'PENDING', [targetColumn]: { not: null } },
  });
}

/**
 * Sets the gauge to the count; when the database does not answer in time the gauge keeps its last
 * value and the scrape goes on (dependency_up already says the database is down).
 */
export async function setPendingDeliveries(
  gauge: Pick<Gauge, 'set'>,
  targetColumn: TargetColumn,
  count: (targetColumn: TargetColumn) => Promise<number> = countPendingDeliveries,
): Promise<void> {
  try {
    gauge.set(await within(CHECK_TIMEOUT_MS, count(targetColumn)));
  } catch (error) {
    logger.debug({ err: error }, 'pending deliveries not counted');
  }
}
