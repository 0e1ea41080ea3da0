// Orders at scale, with their items, in one statement per batch: the order's value and earnings
// are the sums of its items. The demo affiliate's 500,000 and the small affiliates' 1,500,000
// spread over each account's percentage-paying brands (a few brands bring most orders) and over
// the last two years (more of them recent). Statuses follow age, as in the demo data. Most
// orders through a link carry the sub-IDs its click was tagged with (sub1 a source, sub2 a
// placement), as the brands report them back. Each order has lived its lifecycle by the anchor
// day: some amounts were corrected in the first days, the decision came (a rejection within the
// lock period, an approval after 20 days), orders past the brands' 30-day lock period are locked,
// and paid ones were paid 30 days after their month. Those times are functions of the order date
// (lifecycleOf), so the order-events step writes the same history. Some orders carry a coupon
// code, as a brand reports it: a fifth of those without a link the affiliate's PersonalCoupon code
// of the brand (attributed by code alone), and a twentieth of those through a link that code or a
// GenericCoupon code of the brand (attributed by both). The lifecycle and attribution triggers are
// off for the batch: the statement writes what they would (original amounts, lock date; the
// campaign and attribution) as of then, where the attribution trigger would look each link and
// code up in tables whose indexes wait for the end of the load.
import {
  affiliateIdOf,
  channelCountOf,
  channelIdOf,
  orderAccountOf,
  percentageRelationOf,
  relationBrandOf,
  relationCountOf,
  SIZES,
} from './plan';
import { brandIdOf } from './brands';
import { campaignIdOf } from './campaigns';
import { relationCommissionValueOf } from './affiliates';
import {
  effectivePriceOf,
  productIdOf,
  productNameOf,
  productOrdinalOf,
  productSkuOf,
} from './products';
import type { Step } from './batches';
import { brandPageUrlCodeDigest } from './shortUrls';
import {
  BATCH_ORDINALS,
  chance,
  daysBefore,
  fraction,
  idOf,
  itemOf,
  pick,
  urlCodeOf,
  type Sql,
} from './sql';
import { SUB1_SOURCES, SUB2_PLACEMENTS } from './vocabulary';

const HISTORY_DAYS = 730;

/** The brands' lock period (the default of Organization.orderLockDays; the scale brands keep it). */
const LOCK_DAYS = 30;

/** Amounts as first recorded of an order whose amounts were corrected down since (by a quarter). */
export function originalAmountOf(amount: Sql): Sql {
  return `round((${amount}) * 1.25)::int`;
}

/**
 * When an order's lifecycle steps happened, from its order date and status (a LATERAL's
 * columns): adjusted_at (if its amounts were corrected), decided_at (approval or rejection),
 * locks_at and locked_at, paid_at (its payout's day, payouts.ts), updated_at (the last of them).
 */
export function lifecycleOf(anchor: Sql, orderedAt: Sql, status: Sql, adjusted: Sql): Sql {
  const ageDays = `least(extract(epoch FROM ${anchor} - ${orderedAt}) / 86400, ${LOCK_DAYS})`;
  return `SELECT *, greatest(${orderedAt}, adjusted_at, decided_at, locked_at, paid_at) AS updated_at
    FROM (SELECT
      CASE WHEN ${adjusted} THEN ${orderedAt} + ${ageDays} * 0.1 * INTERVAL '1 day' END AS adjusted_at,
      CASE ${status} WHEN 'PENDING' THEN NULL
        WHEN 'REJECTED' THEN ${orderedAt} + ${ageDays} * 0.6 * INTERVAL '1 day'
        ELSE ${orderedAt} + INTERVAL '20 days' END AS decided_at,
      ${orderedAt} + INTERVAL '${LOCK_DAYS} days' AS locks_at,
      CASE WHEN ${orderedAt} + INTERVAL '${LOCK_DAYS} days' <= ${anchor}
        THEN ${orderedAt} + INTERVAL '${LOCK_DAYS} days' END AS locked_at,
      CASE WHEN ${status} = 'PAID' THEN ${paidAtOf(anchor, `date_trunc('month', ${orderedAt})`)} END AS paid_at
    ) AS times`;
}

/** The day a month's payout was paid: 30 days after the month (every order in it locked). */
export function paidAtOf(anchor: Sql, monthStart: Sql): Sql {
  return `least(${monthStart} + INTERVAL '1 month' + INTERVAL '${LOCK_DAYS} days', ${anchor})`;
}

function statusOf(o: Sql, age: Sql): Sql {
  return `(CASE WHEN ${chance(o, 'order:rejected', 8)} THEN 'REJECTED' WHEN ${age} < 20 THEN 'PENDING'
    WHEN ${age} < 60 THEN 'APPROVED' ELSE 'PAID' END)::"OrderStatus"`;
}

/** One row per order of the batch, with what its items need. */
function ordersOf(anchor: Sql): Sql {
  return `SELECT o, a, b, rate, item_count, age, status, ordered_at, adjusted, lifecycle.*,
      ${affiliateIdOf('a')} AS affiliate_id
    FROM ${BATCH_ORDINALS} AS o
    CROSS JOIN LATERAL (SELECT ${orderAccountOf('o', fraction('o', 'order:account'))} AS a) AS account
    CROSS JOIN LATERAL (SELECT floor(${relationCountOf('a')}
      * power(${fraction('o', 'order:relation')}, 2))::int AS any_relation) AS popular
    CROSS JOIN LATERAL (SELECT ${percentageRelationOf('a', 'any_relation')} AS r) AS relation
    CROSS JOIN LATERAL (SELECT ${relationBrandOf('a', 'r')} AS b,
      ${relationCommissionValueOf('a', 'r', relationBrandOf('a', 'r'))} AS rate,
      1 + ${pick('o', 'order:items', 3)} AS item_count,
      ${HISTORY_DAYS} * power(${fraction('o', 'order:age')}, 1.25) AS age) AS traits
    CROSS JOIN LATERAL (SELECT ${statusOf('o', 'age')} AS status,
      ${daysBefore(anchor, 'age')} AS ordered_at) AS state
    -- 4 % of the orders not rejected had their amounts corrected.
    CROSS JOIN LATERAL (SELECT status <> 'REJECTED' AND ${chance('o', 'order:adjusted', 4)} AS adjusted) AS correction
    CROSS JOIN LATERAL (${lifecycleOf(anchor, 'ordered_at', 'status', 'adjusted')}) AS lifecycle`;
}

/** The brand's campaigns, each by its primary key. */
const BRAND_CAMPAIGNS = `generate_series(0, ${SIZES.campaignsPerBrand - 1}) AS k
  JOIN "Campaign" campaign ON campaign."id" = ${campaignIdOf('b', 'k')}`;

/**
 * The code an order carries and the campaign it came through (a LATERAL's columns code,
 * campaign_id): the affiliate's PersonalCoupon code of the brand, its first; or the brand's first
 * GenericCoupon code, whose campaign is chosen as the attribution trigger would among the brand's
 * campaigns with that code (the one running when the order was placed, else the latest).
 */
function couponOf(orderedAt: Sql, linked: Sql, o: Sql): Sql {
  const personal = `(${linked} IS NULL AND ${chance(o, 'order:personal-code', 20)}
    OR ${linked} IS NOT NULL AND ${chance(o, 'order:personal-code', 5)})`;
  const generic = `(${linked} IS NOT NULL AND ${chance(o, 'order:generic-code', 5)})`;
  return `SELECT code."code", code."campaignId" AS campaign_id FROM ${BRAND_CAMPAIGNS}
      JOIN "PersonalCouponCode" code ON code."campaignId" = campaign."id"
        AND code."affiliateId" = affiliate_id
      WHERE ${personal} AND campaign."type" = 'PersonalCoupon'
    UNION ALL
    SELECT first."code", chosen."id" FROM (SELECT campaign."code" FROM ${BRAND_CAMPAIGNS}
        WHERE NOT ${personal} AND ${generic} AND campaign."type" = 'GenericCoupon'
        ORDER BY k LIMIT 1) AS first
      CROSS JOIN LATERAL (SELECT campaign."id" FROM ${BRAND_CAMPAIGNS}
        WHERE campaign."type" = 'GenericCoupon' AND campaign."code" = first."code"
        ORDER BY ${orderedAt} BETWEEN campaign."startAt" AND campaign."endAt" DESC,
          campaign."startAt" DESC, campaign."id" LIMIT 1) AS chosen
    LIMIT 1`;
}

/** The items of the batch's orders: products of the order's brand at their effective price. */
const ITEMS = `SELECT o, q, p, quantity, unit_price, quantity * unit_price AS total, rate,
    round(quantity * unit_price * rate / 10000.0)::int AS commission, b, k
  FROM orders
  CROSS JOIN LATERAL generate_series(0, item_count - 1) AS q
  CROSS JOIN LATERAL (SELECT ${pick('o * 3 + q', 'item:product', SIZES.productsPerBrand)} AS k,
    1 + ${pick('o * 3 + q', 'item:quantity', 3)} AS quantity) AS line
  CROSS JOIN LATERAL (SELECT ${productOrdinalOf('b', 'k')} AS p) AS product
  CROSS JOIN LATERAL (SELECT ${effectivePriceOf('p')} AS unit_price) AS price`;

export function ordersStep(anchor: Sql): Step {
  return {
    name: 'orders',
    tables: ['Order', 'OrderItem'],
    units: SIZES.orders,
    batchSize: 50_000,
    after: ['brands', 'affiliates', 'channels', 'personal coupon codes'],
    // The events are the order-events step's; the rollups' statement triggers stay on.
    triggersOff: {
      Order: [
        'Order_05_attribution',
        'Order_30_updated_at',
        'Order_20_lifecycle_insert',
        'Order_events_created',
      ],
    },
    sql: `WITH orders AS MATERIALIZED (${ordersOf(anchor)}),
      items AS MATERIALIZED (${ITEMS}),
      new_items AS (
        INSERT INTO "OrderItem" ("id", "orderId", "productId", "sku", "name", "quantity",
          "unitPriceMinor", "totalMinor", "commissionRateBps", "commissionValueMinor", "position")
        SELECT ${idOf('order-item', `o || ':' || q`)}, ${idOf('order', 'o')}, ${productIdOf('p')},
          ${productSkuOf('b', 'k')}, ${productNameOf('b', 'k')}, quantity, unit_price, total, rate,
          commission, q
        FROM items
        ON CONFLICT ("id") DO NOTHING
        RETURNING 1),
      new_orders AS (
        INSERT INTO "Order" ("id", "orderNumber", "affiliateId", "organizationId", "status",
          "currency", "transactionValueMinor", "commissionRateBps", "earningsMinor", "shortUrlCode",
          "channelId", "orderedAt", "sub1", "sub2", "statusReason", "originalTransactionValueMinor",
          "originalEarningsMinor", "locksAt", "lockedAt", "updatedAt", "couponCode", "campaignId",
          "attribution")
        SELECT ${idOf('order', 'o')},
          'ORD-' || extract(year FROM ordered_at)::int || '-' || lpad((o + 1)::text, 8, '0'),
          affiliate_id, ${brandIdOf('b')}, status,
          CASE WHEN ${chance('o', 'order:usd', 17)} THEN 'USD' ELSE 'EUR' END,
          totals.value, rate, totals.earnings, ${urlCodeOf('link_digest')},
          CASE WHEN o % 3 = 0 THEN ${channelIdOf('a', pick('o', 'order:channel', channelCountOf('a')))} END,
          ordered_at,
          -- Sub-IDs: 60 % of the orders through a link name a source, 30 % a placement.
          CASE WHEN link_digest IS NOT NULL AND ${chance('o', 'order:sub1', 60)}
            THEN ${itemOf(SUB1_SOURCES, pick('o', 'order:sub1-value', SUB1_SOURCES.length))} END,
          CASE WHEN link_digest IS NOT NULL AND ${chance('o', 'order:sub2', 30)}
            THEN ${itemOf(SUB2_PLACEMENTS, pick('o', 'order:sub2-value', SUB2_PLACEMENTS.length))} END,
          -- A rejection carries its reason (the database requires one).
          CASE WHEN status = 'REJECTED' THEN (CASE ${pick('o', 'order:reason', 3)}
            WHEN 0 THEN 'RETURNED' WHEN 1 THEN 'CANCELLED' ELSE 'FRAUD' END)::"OrderStatusReason"
            WHEN adjusted THEN 'AMOUNT_CORRECTED' END,
          CASE WHEN adjusted THEN ${originalAmountOf('totals.value')} ELSE totals.value END,
          CASE WHEN adjusted THEN ${originalAmountOf('totals.earnings')} ELSE totals.earnings END,
          locks_at, locked_at, updated_at, coupon."code", coupon.campaign_id,
          -- A brand-page link has no campaign; the code is the affiliate's or the brand's.
          (CASE WHEN link_digest IS NOT NULL AND coupon."code" IS NOT NULL THEN 'LINK_AND_COUPON'
            WHEN link_digest IS NOT NULL THEN 'LINK' WHEN coupon."code" IS NOT NULL THEN 'COUPON'
            END)::"OrderAttribution"
        FROM orders
        JOIN (SELECT o, sum(total)::int AS value, sum(commission)::int AS earnings
          FROM items GROUP BY o) AS totals USING (o)
        -- Half the orders came through the affiliate's brand-page link.
        CROSS JOIN LATERAL (SELECT CASE WHEN o % 2 = 1
          THEN ${brandPageUrlCodeDigest('affiliate_id', 'b')} END AS link_digest) AS link
        LEFT JOIN LATERAL (${couponOf('ordered_at', 'link_digest', 'o')}) AS coupon ON true
        ON CONFLICT ("id") DO NOTHING
        RETURNING 1)
      SELECT (SELECT count(*) FROM new_orders)::int AS "Order",
        (SELECT count(*) FROM new_items)::int AS "OrderItem"`,
  };
}
