// The commission lifecycle as the API reads it: when an order is locked and final, the affiliate's
// `finalThrough` watermark, and the lock pass. The database keeps the rules (migration
// order_lifecycle, docs/order-lifecycle.md); this file only reads them and runs the pass.
import type { OrderStatus } from '../../generated/prisma/client';
import { config } from '../../platform/config';
import { prisma } from '../../platform/db';
import { logger } from '../../platform/logger';
import type { Worker } from '../feature';

/**
 * How long a writer's transaction may run and still record an order: an order recorded by a
 * transaction that started before a reader's `finalThrough` locks no earlier than that start, so
 * the watermark stays this far behind the clock when no order of the affiliate is still open.
 */
export const FINAL_THROUGH_MARGIN_MS = 15 * 60 * 1000;

export interface LockDates {
  locksAt: Date;
  lockedAt: Date | null;
}

/** When the order locked: marked by the lock pass, or its lock date once past. */
export function lockedAtOf(order: LockDates, now: Date): Date | null {
  return order.lockedAt ?? (order.locksAt <= now ? order.locksAt : null);
}

/**
 * Whether the order will never change again: locked, and not awaiting its payout (a locked
 * APPROVED order still moves to PAID).
 */
export function isFinal(order: LockDates & { status: OrderStatus }, now: Date): boolean {
  return lockedAtOf(order, now) !== null && order.status !== 'APPROVED';
}

/**
 * The affiliate's watermark: no order whose lock date (`locksAt`) is before it will change again,
 * and every order recorded from now on locks after it. It is the earliest lock date among the
 * orders that may still change (not marked locked, or approved and unpaid), or the clock less the
 * margin when there are none. Two index lookups: each ordered as its index is, since the unlocked
 * orders are the newest and a scan of the lock dates from the oldest would pass every locked one.
 */
export async function finalThroughOf(affiliateId: string): Promise<Date> {
  const [row] = await prisma.$queryRaw<{ finalThrough: Date }[]>`
    SELECT least(
      (SELECT "locksAt" FROM "Order"
       WHERE "affiliateId" = ${affiliateId}::uuid AND "lockedAt" IS NULL
       ORDER BY "lockedAt", "locksAt" LIMIT 1),
      (SELECT "locksAt" FROM "Order"
       WHERE "affiliateId" = ${affiliateId}::uuid AND "status" = 'APPROVED'
       ORDER BY "status", "locksAt" LIMIT 1),
      (now() AT TIME ZONE 'UTC') - make_interval(secs => ${FINAL_THROUGH_MARGIN_MS / 1000})
    ) AS "finalThrough"`;
  return row!.finalThrough;
}

/** Orders marked per statement: a backlog is worked off without one long transaction. */
const LOCK_BATCH = 1_000;

/** Marks every order whose lock date has passed as locked (LOCKED events); answers how many. */
export async function lockDueOrders(): Promise<number> {
  let locked = 0;
  for (;;) {
    const [row] = await prisma.$queryRaw<{ count: number }[]>`
      SELECT "lock_due_orders"(${LOCK_BATCH}::integer) AS "count"`;
    locked += row!.count;
    if (row!.count < LOCK_BATCH) return locked;
  }
}

/** Runs the lock pass when it starts, then every ORDER_LOCK_INTERVAL_S. */
export const orderLockWorker: Worker = {
  name: 'order lock pass',
  start() {
    const pass = () =>
      lockDueOrders().catch((error: unknown) => {
        logger.warn({ err: error }, 'the order lock pass failed');
        return 0;
      });
    let running = pass();
    const timer = setInterval(() => {
      running = running.then(pass);
    }, config.orderLockIntervalS * 1000);
    timer.unref();
    return {
      async stop() {
        clearInterval(timer);
        await running;
      },
    };
  },
};
