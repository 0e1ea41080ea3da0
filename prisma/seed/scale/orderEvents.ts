// The scale orders' history as order events: what the lifecycle triggers would have written had
// the orders been recorded and changed on the days orders.ts gives them. Created (pending, at its
// first amounts), adjusted, approved or rejected, locked, then status changed to PAID and paid.
// Numbered per affiliate in time order after the events the affiliate has (the demo orders'), so
// the feed reads the history first. Batches are ranges of accounts; the events' own triggers (the
// outbox, the order's source) are off: the history is not news to any endpoint, and the statement
// copies the source.
import type { Step } from './batches';
import { lifecycleOf } from './orders';
import { affiliateIdOf, SIZES } from './plan';
import { idOf, type Sql } from './sql';

/** Each event an order may have had, in the order it happened (a tie on time keeps this order). */
const EVENTS = `(VALUES
    (1, 'CREATED', 'PENDING', NULL, NULL, o."originalTransactionValueMinor", o."originalEarningsMinor",
      NULL::int, NULL::int, o."orderedAt"),
    (2, 'ADJUSTED', 'PENDING', NULL, o."statusReason", o."transactionValueMinor", o."earningsMinor",
      o."originalTransactionValueMinor", o."originalEarningsMinor", adjusted_at),
    (3, 'STATUS_CHANGED', decided, 'PENDING', o."statusReason", o."transactionValueMinor",
      o."earningsMinor", NULL, NULL, decided_at),
    (4, 'LOCKED', decided, NULL, NULL, o."transactionValueMinor", o."earningsMinor", NULL, NULL, locked_at),
    (5, 'STATUS_CHANGED', 'PAID', 'APPROVED', o."statusReason", o."transactionValueMinor",
      o."earningsMinor", NULL, NULL, paid_at),
    (6, 'PAID', 'PAID', 'APPROVED', NULL, o."transactionValueMinor", o."earningsMinor", NULL, NULL, paid_at)
  ) AS e(step, type, status, previous_status, reason, value, earnings, previous_value,
    previous_earnings, occurred_at)`;

export function orderEventsStep(anchor: Sql): Step {
  return {
    name: 'order events',
    tables: ['OrderEvent', 'OrderEventCounter'],
    units: SIZES.accounts,
    batchSize: 100,
    after: ['orders'],
    triggersOff: { OrderEvent: 'USER' },
    sql: `WITH happened AS MATERIALIZED (
        SELECT o."affiliateId", o."id" AS order_id, o."currency", o."locksAt", o."couponCode",
          o."campaignId", o."attribution", e.*
        FROM generate_series($1::int, $2::int - 1) AS a
        JOIN "Order" o ON o."affiliateId" = ${affiliateIdOf('a')}
        CROSS JOIN LATERAL (${lifecycleOf(
          anchor,
          'o."orderedAt"',
          'o."status"',
          '(o."transactionValueMinor", o."earningsMinor") <> (o."originalTransactionValueMinor", o."originalEarningsMinor")',
        )}) AS lifecycle
        CROSS JOIN LATERAL (SELECT CASE WHEN o."status" = 'REJECTED' THEN 'REJECTED'
          ELSE 'APPROVED' END AS decided) AS decision
        CROSS JOIN LATERAL ${EVENTS}
        WHERE e.occurred_at IS NOT NULL
          -- The demo orders have their events already.
          AND NOT EXISTS (SELECT 1 FROM "OrderEvent" seen WHERE seen."orderId" = o."id")),
      numbered AS MATERIALIZED (
        SELECT happened.*, coalesce(counter."last", 0)
          + row_number() OVER (PARTITION BY happened."affiliateId"
                               ORDER BY occurred_at, order_id, step) AS number
        FROM happened
        LEFT JOIN "OrderEventCounter" counter USING ("affiliateId")),
      new_events AS (
        INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status",
          "previousStatus", "reason", "currency", "transactionValueMinor", "earningsMinor",
          "previousTransactionValueMinor", "previousEarningsMinor", "locksAt", "occurredAt",
          "couponCode", "campaignId", "attribution")
        SELECT ${idOf('order-event', `order_id || ':' || step`)}, "affiliateId", number, order_id,
          type::"OrderEventType", status::"OrderStatus", previous_status::"OrderStatus",
          reason, "currency", value, earnings, previous_value, previous_earnings, "locksAt",
          occurred_at, "couponCode", "campaignId", "attribution"
        FROM numbered
        RETURNING 1),
      counters AS (
        INSERT INTO "OrderEventCounter" ("affiliateId", "last")
        SELECT "affiliateId", max(number) FROM numbered GROUP BY "affiliateId"
        ON CONFLICT ("affiliateId") DO UPDATE SET "last" = EXCLUDED."last"
        RETURNING 1)
      SELECT (SELECT count(*) FROM new_events)::int AS "OrderEvent",
        (SELECT count(*) FROM counters)::int AS "OrderEventCounter"`,
  };
}
