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
          AND o."orderedAt" >= months.period_start AND o."orderedAt" < months.period_start + ${month}
        -- The demo data's paid orders are its own payouts' already.
        WHERE NOT EXISTS (SELECT 1 FROM "PayoutItem" i WHERE i."heldOrderId" = o."id")),
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

/**
 * The big account's ledger beside its orders, paid through the same monthly payouts: per month, a
 * volume bonus per currency paid, pay per click for each day in EUR, and clawbacks of one in 200
 * of the month's paid orders (half their earnings). Each entry is an item of its month's payout,
 * whose amount and item counts grow by them, and PAID in the balance: rows consistent by
 * construction, written with the triggers off (no `earning.created` or `CLAWBACK` events: no
 * endpoint listens at scale).
 */
export function ledgerStep(anchor: Sql): Step {
  const affiliate = `${text(DEMO.users.affiliate)}::uuid`;
  const month = "INTERVAL '1 month'";
  return {
    name: 'ledger',
    tables: ['Earning', 'PayoutItem', 'EarningBalance'],
    units: PAYOUT_MONTHS,
    batchSize: 4,
    after: ['payouts'],
    triggersOff: { Earning: 'USER', Payout: 'USER', PayoutItem: 'USER' },
    sql: `WITH months AS (
        SELECT m, date_trunc('month', ${anchor} - INTERVAL '60 days') - m * ${month} AS period_start
        FROM generate_series($1::int, $2::int - 1) AS m),
      payouts AS MATERIALIZED (
        SELECT months.m, p."id", p."currency", p."periodStart", p."periodEnd"
        -- The payouts step's (the demo data's payouts of the same months are not).
        FROM months JOIN "Payout" p ON p."affiliateId" = ${affiliate}
          AND p."periodStart" = months.period_start
          AND p."id" = ${idOf('payout', `months.m || ':' || p."currency"`)}),
      entries AS MATERIALIZED (
        SELECT ${idOf('earning', `'bonus:' || m || ':' || "currency"`)} AS id, id AS payout_id,
          'BONUS'::"EarningKind" AS kind, "currency", 1000 AS amount,
          'Monthly volume bonus' AS reason, NULL::uuid AS order_id,
          "periodEnd" - INTERVAL '1 day' AS earned_at
        FROM payouts
        UNION ALL
        SELECT ${idOf('earning', `'cpc:' || day::date::text`)}, p.id, 'CPC', 'EUR',
          150 + (extract(day FROM day)::int % 7) * 10, 'Pay per click', NULL, day + INTERVAL '23 hours'
        FROM payouts p CROSS JOIN generate_series(p."periodStart", p."periodEnd" - INTERVAL '1 day',
          INTERVAL '1 day') AS day
        WHERE p."currency" = 'EUR'
        UNION ALL
        SELECT ${idOf('earning', `'clawback:' || i."orderId"::text`)}, p.id, 'CLAWBACK', p."currency",
          -(i."amountMinor" / 2), 'Returned after payment', i."orderId", p."periodEnd"
        FROM payouts p JOIN "PayoutItem" i ON i."payoutId" = p.id AND i."orderId" IS NOT NULL
        WHERE i."amountMinor" >= 2 AND hashtext(i."orderId"::text) % 200 = 0),
      new_entries AS (
        INSERT INTO "Earning" ("id", "affiliateId", "kind", "currency", "amountMinor", "reason",
          "orderId", "earnedAt", "createdAt", "updatedAt")
        SELECT id, ${affiliate}, kind, "currency", amount, reason, order_id, earned_at, earned_at,
          earned_at
        FROM entries
        RETURNING 1),
      new_items AS (
        INSERT INTO "PayoutItem" ("id", "payoutId", "earningId", "amountMinor", "orderedAt",
          "heldEarningId")
        SELECT ${idOf('payout-item', 'id::text')}, payout_id, id, amount, earned_at, id FROM entries
        RETURNING 1),
      new_balances AS (
        INSERT INTO "EarningBalance" ("earningId", "affiliateId", "currency", "state", "amountMinor")
        SELECT id, ${affiliate}, "currency", 'PAID', amount FROM entries
        RETURNING 1),
      payout_totals AS (
        UPDATE "Payout" p SET "amountMinor" = p."amountMinor" + added.minor,
          "itemsMinor" = p."itemsMinor" + added.minor, "itemCount" = p."itemCount" + added.items
        FROM (SELECT payout_id, sum(amount)::bigint AS minor, count(*)::int AS items
          FROM entries GROUP BY payout_id) AS added
        WHERE p."id" = added.payout_id),
      balance AS (
        INSERT INTO "AffiliateBalance" AS b ("affiliateId", "currency", "state", "orders", "entries",
          "earningsMinor")
        SELECT ${affiliate}, "currency", 'PAID', 0, count(*)::int, sum(amount)::bigint
        FROM entries GROUP BY "currency"
        ON CONFLICT ("affiliateId", "currency", "state") DO UPDATE
          SET "entries" = b."entries" + excluded."entries",
            "earningsMinor" = b."earningsMinor" + excluded."earningsMinor")
      -- (A statement's data-modifying WITH parts all run, read or not.)
      SELECT (SELECT count(*) FROM new_entries)::int AS "Earning",
        (SELECT count(*) FROM new_items)::int AS "PayoutItem",
        (SELECT count(*) FROM new_balances)::int AS "EarningBalance"`,
  };
}
