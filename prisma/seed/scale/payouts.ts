// The big account's payouts at scale: one PAID payout per month and currency of its paid orders,
// over the two years of history (24 months, 48 payouts), each with an item per order (about 17,000 a month). The orders
// are PAID already, so the payouts are written as the back office's would end up, with the
// payouts' and items' own triggers off for the batch (the rows are consistent by construction:
// each amount is its items' sum, each order in one payout); the orders and the balance, which
// counts PAID orders whatever pays them, are untouched.
import { DEMO } from '../demo';
import type { Step } from './batches';
import { paidAtOf } from './orders';
import { idOf, text, type Sql } from './sql';

/**
 * Months of paid orders: the month holding the day 60 days back (orders are paid after 60 days;
 * its payout pays the ones older than that) and the 23 before it.
 */
const PAYOUT_MONTHS = 24;

export function payoutsStep(anchor: Sql): Step {
  const affiliate = `${text(DEMO.users.affiliate)}::uuid`;
  const month = "INTERVAL '1 month'";
  return {
    name: 'payouts',
    tables: ['Payout', 'PayoutItem'],
    units: PAYOUT_MONTHS,
    batchSize: 4,
    after: ['orders'],
    triggersOff: { Payout: 'USER', PayoutItem: 'USER' },
    sql: `WITH months AS (
        SELECT m, date_trunc('month', ${anchor} - INTERVAL '60 days') - m * ${month} AS period_start
        FROM generate_series($1::int, $2::int - 1) AS m),
      paid AS MATERIALIZED (
        SELECT months.m, months.period_start, o."id", o."currency", o."earningsMinor", o."orderedAt"
        FROM months
        JOIN "Order" o ON o."affiliateId" = ${affiliate} AND o."status" = 'PAID'
          AND o."orderedAt" >= months.period_start AND o."orderedAt" < months.period_start + ${month}),
      payouts AS MATERIALIZED (
        SELECT m, "currency", period_start, ${idOf('payout', `m || ':' || "currency"`)} AS id,
          sum("earningsMinor")::bigint AS amount, count(*)::int AS items
        FROM paid GROUP BY m, "currency", period_start),
      new_payouts AS (
        INSERT INTO "Payout" ("id", "affiliateId", "currency", "amountMinor", "status", "periodStart",
          "periodEnd", "scheduledAt", "paidAt", "method", "reference", "itemsMinor", "itemCount",
          "updatedAt")
        SELECT id, ${affiliate}, "currency", amount, 'PAID', period_start, period_start + ${month},
          paid_at - INTERVAL '5 days', paid_at,
          'BANK_TRANSFER', 'PO-' || to_char(period_start, 'YYYY-MM') || '-' || "currency", amount,
          items, paid_at
        FROM payouts CROSS JOIN LATERAL (SELECT ${paidAtOf(anchor, 'period_start')} AS paid_at) AS payday
        ON CONFLICT ("id") DO NOTHING
        RETURNING 1),
      new_items AS (
        INSERT INTO "PayoutItem" ("id", "payoutId", "orderId", "amountMinor", "orderedAt", "heldOrderId")
        SELECT ${idOf('payout-item', 'paid."id"::text')}, payouts.id, paid."id", paid."earningsMinor",
          paid."orderedAt", paid."id"
        FROM paid JOIN payouts USING (m, "currency")
        ON CONFLICT DO NOTHING
        RETURNING 1)
      SELECT (SELECT count(*) FROM new_payouts)::int AS "Payout",
        (SELECT count(*) FROM new_items)::int AS "PayoutItem"`,
  };
}
