// The performance report's rows, read from the hourly rollups the database keeps (migration
// performance_rollups): clicks from LinkClickHour / AffiliateClickHour (written with the links'
// counters; a link's hours keep its campaign and that campaign's coupon code), orders from
// OrderLinkHour / OrderAffiliateHour (kept by triggers on "Order", by link, coupon code and the
// campaign the orders came through). By sub-ID or coupon code, the rows with a value are read by
// it (the sub-ID rollups of migration sub_ids, the link hours with a code) and those without are
// the difference. By day by another order date than `orderedAt` (`dateType`), the affiliate's
// orders come from OrderAffiliateDateHour (kept by the same triggers); by that date and another
// grouping, or by sub-ID within a campaign, the orders are read from "Order" as rows of the same
// shape, each order its own row. The ledger's entries (bonuses, pay per click, credits, debits,
// clawbacks) are read from "Earning" by `earnedAt`, beside the orders. One statement answers a
// page of rows and their total; no click is read, nor, by day or by `orderedAt`, any order but by
// sub-ID within a campaign.
import { prisma } from '../../platform/db';
import { BadRequestError } from '../../platform/errors';
import { Prisma } from '../../generated/prisma/client';
import { SUB_ID_NAMES, type SubIdName } from '../links/subIds';
import { ORDER_DATES, type OrderDateName } from '../orders/dates';
import type { Page } from '../../schema/pagination';
import { periodDays, type ReportPeriod } from './range';

export const REPORT_GROUPS = [
  'day',
  'brand',
  'campaign',
  'link',
  'coupon',
  ...SUB_ID_NAMES,
] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

/** Which sub-ID a grouping is by (1 for sub1 ... 5 for sub5); null for the other groupings. */
export function subIdSlotOf(group: ReportGroup): number | null {
  const index = SUB_ID_NAMES.indexOf(group as SubIdName);
  return index < 0 ? null : index + 1;
}

export interface ReportQuery {
  affiliateId: string;
  groupBy: ReportGroup;
  /** The order date the period reads: the rollups' for `ordered`, the orders' own otherwise. */
  dateType: OrderDateName;
  period: ReportPeriod;
  timezone: string;
  organizationId?: string | null;
  campaignId?: string | null;
}

/** A row as the statement answers it: money in minor units, keys as text ('' for none). */
interface ReportRecord {
  total: number;
  key: string | null;
  currency: string | null;
  clicks: number;
  repeats: number;
  bots: number;
  orders: number;
  transactionValueMinor: number;
  pendingMinor: number;
  approvedMinor: number;
  paidMinor: number;
  rejectedMinor: number;
  ledgerMinor: number;
  name: string | null;
}

export interface PerformanceRecord {
  date: string | null;
  organizationId: string | null;
  organizationName: string | null;
  campaignId: string | null;
  campaignName: string | null;
  urlCode: string | null;
  couponCode: string | null;
  subId: string | null;
  currency: string | null;
  clicks: number;
  repeatClicks: number;
  botClicks: number;
  orders: number;
  transactionValueMinor: number;
  earningsByStatusMinor: { PENDING: number; APPROVED: number; PAID: number; REJECTED: number };
  ledgerMinor: number;
}

const utc = (time: Date) => Prisma.sql`(${time.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;

/**
 * The local day of an hour: the day holding most of it (its middle), which for a zone with a
 * whole-hour offset is exactly the day it lies in (docs/decisions.md, "Reports").
 */
const localDay = (hour: Prisma.Sql, timezone: string) =>
  Prisma.sql`((${hour} + interval '30 minutes') AT TIME ZONE 'UTC' AT TIME ZONE ${timezone})::date`;

/**
 * Grouping by the key itself, named by its place in the select list (a copy of the day's
 * expression would hold the zone as a second parameter, which PostgreSQL does not match).
 */
const BY_KEY = Prisma.raw('1');

/**
 * The key of the rows of no campaign, the nil uuid (campaign ids are random): a full join matches no
 * null key to another.
 */
const NO_CAMPAIGN = Prisma.raw(`'00000000-0000-0000-0000-000000000000'::uuid`);

/**
 * A row's key: its local day (a date); the brand's or the campaign's uuid (NO_CAMPAIGN for none),
 * compared and ordered as stored and made text for the page's rows alone (casting every group's
 * uuid to text, and joining and ordering the text, cost about 8 % of a month by brand or campaign);
 * or the link code or sub-ID value ('' for none) as text in the "C" collation, which compares
 * bytes (the keys are ids, codes and tags, not words to sort). And what the rows are grouped by.
 */
function keyOf(
  query: ReportQuery,
  columns: {
    hour: Prisma.Sql;
    brand: Prisma.Sql;
    campaign: Prisma.Sql;
    link: Prisma.Sql;
    coupon: Prisma.Sql;
    subId: Prisma.Sql;
  },
): { key: Prisma.Sql; group: Prisma.Sql } {
  switch (query.groupBy) {
    case 'day':
      return { key: localDay(columns.hour, query.timezone), group: BY_KEY };
    case 'brand':
      return { key: columns.brand, group: columns.brand };
    case 'campaign':
      return {
        key: Prisma.sql`coalesce(${columns.campaign}, ${NO_CAMPAIGN})`,
        group: columns.campaign,
      };
    case 'link':
      return { key: Prisma.sql`${columns.link} COLLATE "C"`, group: BY_KEY };
    case 'coupon':
      return { key: Prisma.sql`${columns.coupon} COLLATE "C"`, group: BY_KEY };
    default:
      return { key: Prisma.sql`${columns.subId} COLLATE "C"`, group: BY_KEY };
  }
}

/**
 * A page row's key as text: a uuid's text sorts as the uuid does (its bytes in order, as hex
 * digits), so the page's order is the report's; no campaign is ''.
 */
function keyText(group: ReportGroup): Prisma.Sql {
  return group === 'campaign'
    ? Prisma.sql`coalesce(nullif(page.key, ${NO_CAMPAIGN})::text, '')`
    : Prisma.sql`page.key::text`;
}

/**
 * Whether a grouping splits the hours by a value they may lack (a sub-ID, a coupon code): the rows
 * with a value are read by it, and those without are all hours less them.
 */
const splitsByValue = (group: ReportGroup) => group === 'coupon' || subIdSlotOf(group) !== null;

/**
 * Whether the report may read the affiliate-wide hours (by day, sub-ID or coupon code, no brand or
 * campaign filter); any other reads each link's hours.
 */
export const readsAffiliateHours = (
  query: Pick<ReportQuery, 'groupBy' | 'organizationId' | 'campaignId'>,
) =>
  (query.groupBy === 'day' || splitsByValue(query.groupBy)) &&
  !query.organizationId &&
  !query.campaignId;

/**
 * A report's work per day of its period, in operation-cost units (src/schema/complexity.ts): the
 * scale data's big account (bench/reportTiming.ts) answers a year by day from its own hours in
 * ~25 ms, a month by sub1 or coupon code from its own hours and the hours with a value in 10-50
 * ms, a month by link from each link's hours in 60-140 ms, and a month by another order date than
 * `ordered` (but by day) from its orders in ~120 ms (and by sub-ID within one campaign from that
 * campaign's orders); the weights keep that order. A year by link (8,784) fits one operation at
 * its largest page and full width; three do not fit one operation; a year by another order date
 * (27,375) does not: on GraphQL it is asked by quarters (REST routes are bounded by their page
 * rules instead).
 */
export const REPORT_DAY_COST = {
  affiliateHours: 1,
  affiliateSplitHours: 5,
  linkHours: 24,
  orders: 75,
};

/** What a report costs beyond its rows: the days of its period times what each day reads. */
export function reportWork(
  query: Pick<ReportQuery, 'groupBy' | 'organizationId' | 'campaignId'> & {
    dateType?: OrderDateName | null;
    startAt?: Date | null;
    endAt?: Date | null;
  },
  now = new Date(),
): number {
  const perDay =
    orderSourceOf(query) === 'orders'
      ? REPORT_DAY_COST.orders
      : !readsAffiliateHours(query)
        ? REPORT_DAY_COST.linkHours
        : splitsByValue(query.groupBy)
          ? REPORT_DAY_COST.affiliateSplitHours
          : REPORT_DAY_COST.affiliateHours;
  return periodDays(query.startAt, query.endAt, now) * perDay;
}

/**
 * Where a rollup's rows find their campaign: their own "campaignId", or their link's (the rollup's
 * link column and the link's column it names).
 */
type CampaignOfRows = 'own' | { rollup: Prisma.Sql; shortUrl: Prisma.Sql };

/** The rollup rows of the period, the affiliate and the filters (of one sub-ID, given `slot`). */
function rollupRows(
  query: ReportQuery,
  table: Prisma.Sql,
  campaign: CampaignOfRows,
  slot: number | null = null,
): Prisma.Sql {
  const { affiliateId, period, organizationId, campaignId } = query;
  return Prisma.sql`SELECT * FROM ${table} r
    WHERE r."affiliateId" = ${affiliateId}::uuid
      ${slot === null ? Prisma.empty : Prisma.sql`AND r."slot" = ${slot}::smallint`}
      AND r."hour" >= ${utc(period.from)} AND r."hour" < ${utc(period.to)}
      ${organizationId ? Prisma.sql`AND r."organizationId" = ${organizationId}::uuid` : Prisma.empty}
      ${
        !campaignId
          ? Prisma.empty
          : campaign === 'own'
            ? Prisma.sql`AND r."campaignId" = ${campaignId}::uuid`
            : Prisma.sql`AND r.${campaign.rollup} IN (SELECT link.${campaign.shortUrl} FROM "ShortUrl" link
              WHERE link."affiliateId" = ${affiliateId}::uuid AND link."campaignId" = ${campaignId}::uuid)`
      }`;
}

/** Which of a rollup's tables the report reads. */
const sideOf = (query: ReportQuery) => (readsAffiliateHours(query) ? 'affiliate' : 'link');

/** A rollup per link and affiliate-wide, and its rollup by sub-ID value likewise. */
interface ReportRollups {
  all: Record<'link' | 'affiliate', Prisma.Sql>;
  /**
   * The rollup by sub-ID value; for rows that carry their sub-IDs (the orders themselves), the
   * rows with one sub-ID's value as "subId" instead.
   */
  tagged: Record<'link' | 'affiliate', Prisma.Sql> | ((slot: number) => Prisma.Sql);
  /** Where the rows by sub-ID value find their campaign (the others keep their own). */
  taggedCampaign: CampaignOfRows;
  /**
   * The link rollup's rows with a coupon code, the code as "value"; null where the rows are the
   * orders themselves, read whole.
   */
  coded: Prisma.Sql | null;
  /** Columns kept apart (besides the value). */
  keys: readonly string[];
  /** Columns summed. */
  sums: readonly string[];
}

const ORDER_ROLLUPS: ReportRollups = {
  all: { link: Prisma.sql`"OrderLinkHour"`, affiliate: Prisma.sql`"OrderAffiliateHour"` },
  tagged: {
    link: Prisma.sql`"OrderLinkSubIdHour"`,
    affiliate: Prisma.sql`"OrderAffiliateSubIdHour"`,
  },
  // Not read within a campaign (orderSourceOf): an order by code may not have its link's.
  taggedCampaign: { rollup: Prisma.sql`"linkCode"`, shortUrl: Prisma.sql`"urlCode"` },
  coded: Prisma.sql`(SELECT *, "couponCode" AS "value" FROM "OrderLinkHour"
    WHERE "couponCode" <> '')`,
  keys: ['currency', 'status'],
  sums: ['orders', 'transactionValueMinor', 'earningsMinor'],
};

/**
 * Where the report's orders come from: by their order date, their hourly rollups, but by sub-ID
 * within a campaign, where the sub-ID rollups know an order's link and not its code, so not its
 * campaign; by day by another order date affiliate-wide, the affiliate's hours of that date
 * (OrderAffiliateDateHour); otherwise the orders themselves.
 */
function orderSourceOf(query: {
  groupBy: ReportGroup;
  dateType?: OrderDateName | null;
  organizationId?: string | null;
  campaignId?: string | null;
}): 'hours' | 'dateHours' | 'orders' {
  const dateType = query.dateType ?? 'ordered';
  if (dateType === 'ordered') {
    return query.campaignId && subIdSlotOf(query.groupBy) !== null ? 'orders' : 'hours';
  }
  return query.groupBy === 'day' && readsAffiliateHours(query) ? 'dateHours' : 'orders';
}

/**
 * An order's value of one sub-ID as the rollups count it: '' for none, a value that is no sub-ID
 * as "(other values)".
 */
function subIdColumn(slot: number): Prisma.Sql {
  const value = Prisma.raw(`o."sub${slot}"`);
  return Prisma.sql`CASE WHEN ${value} IS NULL THEN '' WHEN "is_sub_id"(${value}) THEN ${value}
    ELSE "sub_id_other_values"() END`;
}

/**
 * The affiliate's orders whose `dateType` date lies in the period, one row each in the shape of
 * the order rollups (hour, link, currency, status, sums); with `slot`, that sub-ID's value as
 * "subId".
 */
function ordersAsRollup(query: ReportQuery, slot: number | null = null): Prisma.Sql {
  const date = Prisma.raw(`o."${ORDER_DATES[query.dateType]}"`);
  return Prisma.sql`(SELECT o."affiliateId", o."organizationId",
      coalesce(o."shortUrlCode", '') AS "linkCode", date_trunc('hour', ${date}) AS "hour",
      o."currency", o."status", 1 AS "orders", o."transactionValueMinor", o."earningsMinor",
      coalesce(o."couponCode", '') AS "couponCode", o."campaignId"
      ${slot === null ? Prisma.empty : Prisma.sql`, ${subIdColumn(slot)} AS "subId"`}
    FROM "Order" o
    WHERE o."affiliateId" = ${query.affiliateId}::uuid
      AND ${date} >= ${utc(query.period.from)} AND ${date} < ${utc(query.period.to)})`;
}

/**
 * The report's orders: their hourly rollups (by order date, or affiliate-wide by another date), or
 * the orders themselves, which are split by a sub-ID's value in one pass.
 */
function orderRollupsOf(query: ReportQuery): ReportRollups {
  const source = orderSourceOf(query);
  if (source === 'hours') return ORDER_ROLLUPS;
  if (source === 'dateHours') {
    const hours = Prisma.sql`(SELECT * FROM "OrderAffiliateDateHour"
      WHERE "dateType" = ${query.dateType})`;
    return { ...ORDER_ROLLUPS, all: { link: hours, affiliate: hours } };
  }
  const all = ordersAsRollup(query);
  return {
    ...ORDER_ROLLUPS,
    all: { link: all, affiliate: all },
    tagged: (slot) => ordersAsRollup(query, slot),
    taggedCampaign: 'own',
    coded: null,
  };
}

const CLICK_ROLLUPS: ReportRollups = {
  all: { link: Prisma.sql`"LinkClickHour"`, affiliate: Prisma.sql`"AffiliateClickHour"` },
  tagged: {
    link: Prisma.sql`"LinkSubIdClickHour"`,
    affiliate: Prisma.sql`"AffiliateSubIdClickHour"`,
  },
  taggedCampaign: { rollup: Prisma.sql`"linkId"`, shortUrl: Prisma.sql`"id"` },
  coded: Prisma.sql`(SELECT *, "couponCode" AS "value" FROM "LinkClickHour"
    WHERE "couponCode" <> '')`,
  keys: [],
  sums: ['clicks', 'repeats', 'bots'],
};

// Column lists of a rollup, from its known column names (never input).
const keysOf = (rollups: ReportRollups) =>
  Prisma.raw(rollups.keys.map((column) => `, "${column}"`).join(''));
const sumsOf = (rollups: ReportRollups, format: (column: string) => string) =>
  Prisma.raw(rollups.sums.map((column) => `, ${format(column)}`).join(''));
const summed = (column: string) => `sum("${column}"::float8) AS "${column}"`;

/**
 * The rows by a value (as `name`): those with a value from the rows by value (`valued`), and those
 * without ('') as all rows less them.
 */
function splitByValue(
  query: ReportQuery,
  rollups: ReportRollups,
  valued: Prisma.Sql,
  name: 'subId' | 'couponCode',
): Prisma.Sql {
  const all = rollupRows(query, rollups.all[sideOf(query)], 'own');
  const keys = keysOf(rollups);
  return Prisma.sql`WITH valued AS (
      SELECT "value" ${keys} ${sumsOf(rollups, summed)}
      FROM (${valued}) AS hours GROUP BY "value" ${keys}
    )
    SELECT "value" AS ${Prisma.raw(`"${name}"`)} ${keys} ${sumsOf(rollups, (c) => `"${c}"`)}
    FROM valued
    UNION ALL
    SELECT '' ${keys} ${sumsOf(rollups, (c) => `"${c}"::float8`)} FROM (${all}) AS hours
    UNION ALL
    SELECT '' ${keys} ${sumsOf(rollups, (c) => `-"${c}"`)} FROM valued`;
}

/** The rows a report groups: split by a sub-ID or coupon code, or the hours. */
function sourceOf(query: ReportQuery, rollups: ReportRollups): Prisma.Sql {
  const slot = subIdSlotOf(query.groupBy);
  if (query.groupBy === 'coupon' && rollups.coded) {
    return splitByValue(query, rollups, rollupRows(query, rollups.coded, 'own'), 'couponCode');
  }
  if (slot === null) return rollupRows(query, rollups.all[sideOf(query)], 'own');
  const { tagged } = rollups;
  if (typeof tagged === 'function') return rollupRows(query, tagged(slot), rollups.taggedCampaign);
  const valued = rollupRows(query, tagged[sideOf(query)], rollups.taggedCampaign, slot);
  return splitByValue(query, rollups, valued, 'subId');
}

function orderRows(query: ReportQuery): Prisma.Sql {
  const source = sourceOf(query, orderRollupsOf(query));
  const key = keyOf(query, {
    hour: Prisma.sql`o."hour"`,
    brand: Prisma.sql`o."organizationId"`,
    campaign: Prisma.sql`o."campaignId"`,
    link: Prisma.sql`o."linkCode"`,
    coupon: Prisma.sql`o."couponCode"`,
    subId: Prisma.sql`o."subId"`,
  });
  const earnings = (status: string) =>
    Prisma.sql`coalesce(sum(o."earningsMinor"::float8) FILTER (WHERE o."status" = ${status}::"OrderStatus"), 0)`;
  return Prisma.sql`
    SELECT ${key.key} AS key, o."currency"::text AS currency, sum(o."orders")::int AS orders,
      sum(o."transactionValueMinor"::float8) AS "transactionValueMinor",
      ${earnings('PENDING')} AS "pendingMinor", ${earnings('APPROVED')} AS "approvedMinor",
      ${earnings('PAID')} AS "paidMinor", ${earnings('REJECTED')} AS "rejectedMinor"
    FROM (${source}) AS o
    GROUP BY ${key.group}, 2
    -- Rows whose orders were all deleted or moved away add up to nothing.
    HAVING sum(o."orders") <> 0 OR sum(o."transactionValueMinor"::float8) <> 0
      OR sum(o."earningsMinor"::float8) <> 0`;
}

/**
 * The ledger's entries earned in the period, by key and currency: by day their local day, by brand
 * and campaign their own (by brand, only entries of a brand), and by link or sub-ID the row of
 * none (''): an entry has no link or click.
 */
function entryRows(query: ReportQuery): Prisma.Sql {
  const { affiliateId, period, organizationId, campaignId } = query;
  const key = keyOf(query, {
    hour: Prisma.sql`date_trunc('hour', e."earnedAt")`,
    brand: Prisma.sql`e."organizationId"`,
    campaign: Prisma.sql`e."campaignId"`,
    link: Prisma.sql`''`,
    coupon: Prisma.sql`''`,
    subId: Prisma.sql`''`,
  });
  return Prisma.sql`
    SELECT ${key.key} AS key, e."currency"::text AS currency,
      sum(e."amountMinor"::float8) AS "ledgerMinor"
    FROM "Earning" e
    WHERE e."affiliateId" = ${affiliateId}::uuid
      AND e."earnedAt" >= ${utc(period.from)} AND e."earnedAt" < ${utc(period.to)}
      ${query.groupBy === 'brand' ? Prisma.sql`AND e."organizationId" IS NOT NULL` : Prisma.empty}
      ${organizationId ? Prisma.sql`AND e."organizationId" = ${organizationId}::uuid` : Prisma.empty}
      ${campaignId ? Prisma.sql`AND e."campaignId" = ${campaignId}::uuid` : Prisma.empty}
    GROUP BY ${key.group}, 2`;
}

function clickRows(query: ReportQuery): Prisma.Sql {
  const source = sourceOf(query, CLICK_ROLLUPS);
  const key = keyOf(query, {
    hour: Prisma.sql`c."hour"`,
    brand: Prisma.sql`c."organizationId"`,
    campaign: Prisma.sql`c."campaignId"`,
    link: Prisma.sql`c."urlCode"`,
    coupon: Prisma.sql`c."couponCode"`,
    subId: Prisma.sql`c."subId"`,
  });
  return Prisma.sql`
    SELECT ${key.key} AS key, sum(c."clicks")::int AS clicks, sum(c."repeats")::int AS repeats,
      sum(c."bots")::int AS bots
    FROM (${source}) AS c
    GROUP BY ${key.group}
    ${
      // No row for "no sub-ID" or "no code" when every click had one.
      !splitsByValue(query.groupBy)
        ? Prisma.empty
        : Prisma.sql`HAVING sum(c."clicks") <> 0 OR sum(c."repeats") <> 0 OR sum(c."bots") <> 0`
    }`;
}

/** Every local day of the period, so a chart has no gaps. */
function days(query: ReportQuery): Prisma.Sql {
  const first = localDay(utc(query.period.from), query.timezone);
  const last = localDay(utc(query.period.lastHour), query.timezone);
  return Prisma.sql`SELECT day::date AS key FROM generate_series(${first}, ${last}, interval '1 day') AS day`;
}

/**
 * The report's rows: each key's currencies (of its orders and entries) with the key's clicks.
 * Days: every day of the period; other keys: those with orders, entries or clicks (hash full
 * joins).
 */
function reportRows(query: ReportQuery): Prisma.Sql {
  const columns = Prisma.sql`key, money_rows.currency,
    coalesce(click_rows.clicks, 0) AS clicks, coalesce(click_rows.repeats, 0) AS repeats,
    coalesce(click_rows.bots, 0) AS bots, coalesce(money_rows.orders, 0) AS orders,
    coalesce(money_rows."transactionValueMinor", 0) AS "transactionValueMinor",
    coalesce(money_rows."pendingMinor", 0) AS "pendingMinor",
    coalesce(money_rows."approvedMinor", 0) AS "approvedMinor",
    coalesce(money_rows."paidMinor", 0) AS "paidMinor",
    coalesce(money_rows."rejectedMinor", 0) AS "rejectedMinor",
    coalesce(money_rows."ledgerMinor", 0) AS "ledgerMinor"`;
  const money = Prisma.sql`(SELECT * FROM order_rows FULL JOIN entry_rows USING (key, currency))
    AS money_rows`;
  if (query.groupBy === 'day') {
    return Prisma.sql`SELECT ${columns} FROM (${days(query)}) AS days
      LEFT JOIN ${money} USING (key) LEFT JOIN click_rows USING (key)`;
  }
  return Prisma.sql`SELECT ${columns} FROM ${money} FULL JOIN click_rows USING (key)`;
}

/** Days in order; other groups busiest first (clicks, then orders), then by key. */
function rowOrder(group: ReportGroup): Prisma.Sql {
  return group === 'day'
    ? Prisma.sql`key, currency NULLS FIRST`
    : Prisma.sql`clicks DESC, orders DESC, key, currency NULLS FIRST`;
}

/** The name of a page row's brand or campaign. */
function nameOf(group: ReportGroup): { select: Prisma.Sql; join: Prisma.Sql } {
  if (group === 'brand') {
    return {
      select: Prisma.sql`brand."name"`,
      join: Prisma.sql`LEFT JOIN "Organization" brand ON brand."id" = page.key`,
    };
  }
  if (group === 'campaign') {
    return {
      select: Prisma.sql`campaign."name"`,
      join: Prisma.sql`LEFT JOIN "Campaign" campaign ON campaign."id" = page.key`,
    };
  }
  return { select: Prisma.sql`NULL::text`, join: Prisma.empty };
}

export function reportStatement(query: ReportQuery, page: Page): Prisma.Sql {
  const order = rowOrder(query.groupBy);
  const name = nameOf(query.groupBy);
  return Prisma.sql`
    WITH order_rows AS (${orderRows(query)}),
    entry_rows AS (${entryRows(query)}),
    click_rows AS (${clickRows(query)}),
    report AS MATERIALIZED (${reportRows(query)}),
    page AS (
      SELECT * FROM report ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.skip}
    )
    SELECT totals.total, ${keyText(query.groupBy)} AS key, page.currency, page.clicks, page.repeats,
      page.bots, page.orders, page."transactionValueMinor", page."pendingMinor",
      page."approvedMinor", page."paidMinor", page."rejectedMinor", page."ledgerMinor",
      ${name.select} AS name
    FROM (SELECT count(*)::int AS total FROM report) AS totals
    LEFT JOIN page ON true
    ${name.join}
    ORDER BY ${order}`;
}

function recordOf(row: ReportRecord, group: ReportGroup): PerformanceRecord {
  const key = row.key === '' ? null : row.key;
  return {
    date: group === 'day' ? key : null,
    organizationId: group === 'brand' ? key : null,
    organizationName: group === 'brand' ? row.name : null,
    campaignId: group === 'campaign' ? key : null,
    campaignName: group === 'campaign' ? row.name : null,
    urlCode: group === 'link' ? key : null,
    couponCode: group === 'coupon' ? key : null,
    subId: subIdSlotOf(group) === null ? null : key,
    currency: row.currency,
    clicks: row.clicks,
    repeatClicks: row.repeats,
    botClicks: row.bots,
    orders: row.orders,
    transactionValueMinor: row.transactionValueMinor,
    earningsByStatusMinor: {
      PENDING: row.pendingMinor,
      APPROVED: row.approvedMinor,
      PAID: row.paidMinor,
      REJECTED: row.rejectedMinor,
    },
    ledgerMinor: row.ledgerMinor,
  };
}

/**
 * Settings of the report's transaction. JIT off: the planner's estimates of the joined rollups are
 * far too high (millions of rows for thousands), so PostgreSQL compiled the statement, which cost
 * more than running it. 32 MB of work memory: a month by link holds ~45,000 rows of the big
 * account, which spilled to disk at the default 4 MB. A plan for each run: the statement is
 * prepared (src/platform/db.ts), and from its sixth run PostgreSQL would reuse a plan made without
 * the affiliate and the period, twice as slow by brand and by link. No parallel workers: they
 * share the cores with the replica's other requests, and the reports that chose them (by another
 * order date, reading orders) ran slower with them (bench/results/changes.md). No merge joins:
 * misled by the same estimates, the planner sorted both sides of a full join to merge them, where
 * hashing the smaller side answers a month by campaign in about seven eighths of the time.
 */
export const REPORT_SETTINGS = Prisma.sql`set_config('jit', 'off', true),
  set_config('work_mem', '32MB', true), set_config('plan_cache_mode', 'force_custom_plan', true),
  set_config('max_parallel_workers_per_gather', '0', true),
  set_config('enable_mergejoin', 'off', true)`;

/** PostgreSQL's refusal of a zone name the name check let through. */
const UNKNOWN_ZONE = /time zone "[^"]*" not recognized/;

/** One page of the report and the number of rows it has. */
export async function performancePage(
  query: ReportQuery,
  page: Page,
): Promise<{ rows: PerformanceRecord[]; total: number }> {
  let found: ReportRecord[];
  try {
    [, found] = await prisma.$transaction([
      prisma.$queryRaw`SELECT ${REPORT_SETTINGS}`,
      prisma.$queryRaw<ReportRecord[]>(reportStatement(query, page)),
    ]);
  } catch (error) {
    if (UNKNOWN_ZONE.test(String((error as Error).message))) {
      throw new BadRequestError(`timezone "${query.timezone}" is not a known time zone`);
    }
    throw error;
  }
  const total = found[0]?.total ?? 0;
  // Past the last page the statement answers the total alone, in a row without a key.
  const rows = found.filter((row) => row.key !== null);
  return { rows: rows.map((row) => recordOf(row, query.groupBy)), total };
}
