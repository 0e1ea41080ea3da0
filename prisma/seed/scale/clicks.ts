// The big account's click history at scale: a year of hourly rows (LinkClickHour, and their sums
// per hour in AffiliateClickHour), as the redirect's click statement writes them, so reports by
// day and by link read realistic volumes. Each unit is one link's clicks in one hour: 3,000 a day
// over the demo affiliate's 100,000 links, popular links far more often (power 3), none before a
// link was made. Most clicks are tagged, as a performance-minded affiliate tags them: 60 % of a
// unit's clicks with one sub1 source and 25 % with another, half with a sub2 placement
// (LinkSubIdClickHour, AffiliateSubIdClickHour). The counters (`ShortUrl.clickCount`) are the
// short URL step's, not these sums.
import type { Step } from './batches';
import { SIZES } from './plan';
import { fraction, idOf, itemOf, pick, type Sql } from './sql';
import { SUB1_SOURCES, SUB2_PLACEMENTS } from './vocabulary';

export const CLICK_HISTORY_DAYS = 365;
const LINK_HOURS_PER_DAY = 3_000;

/** A unit's share of clicks, repeats and bots under one sub-ID value. */
const share = (slot: number, value: Sql, part: number) =>
  `(${slot}::smallint, ${value}, floor(unit."clicks" * ${part})::int,
    floor(unit."repeats" * ${part})::int, floor(unit."bots" * ${part})::int)`;

export function clickHistoryStep(anchor: Sql): Step {
  return {
    name: 'click history',
    tables: [
      'LinkClickHour',
      'AffiliateClickHour',
      'LinkSubIdClickHour',
      'AffiliateSubIdClickHour',
    ],
    units: CLICK_HISTORY_DAYS * LINK_HOURS_PER_DAY,
    batchSize: 30 * LINK_HOURS_PER_DAY,
    after: ['short urls'],
    sql: `WITH units AS MATERIALIZED (
        SELECT u, u / ${LINK_HOURS_PER_DAY} AS day_age,
          floor(${SIZES.demoAffiliateShortUrls} * power(${fraction('u', 'click:link')}, 3))::int AS m
        FROM generate_series($1::int, $2::int - 1) AS u
      ), unit_clicks AS MATERIALIZED (
        SELECT link."id" AS "linkId", link."affiliateId", link."organizationId", link."urlCode",
          link."campaignId",
          ${anchor} - (units.day_age + 1) * INTERVAL '1 day'
            + ${pick('u', 'click:hour', 24)} * INTERVAL '1 hour' AS "hour",
          (1 + floor(power(${fraction('u', 'click:count')}, 3) * 60))::int AS "clicks",
          floor(power(${fraction('u', 'click:count')}, 3) * 60 * ${fraction('u', 'click:repeats')} * 0.3)::int AS "repeats",
          ${pick('u', 'click:bots', 4)} AS "bots",
          ${itemOf(SUB1_SOURCES, pick('u', 'click:sub1', SUB1_SOURCES.length))} AS "source",
          ${itemOf(SUB1_SOURCES, pick('u', 'click:sub1-second', SUB1_SOURCES.length))} AS "secondSource",
          ${itemOf(SUB2_PLACEMENTS, pick('u', 'click:sub2', SUB2_PLACEMENTS.length))} AS "placement"
        FROM units
        JOIN "ShortUrl" link ON link."id" = ${idOf('short-url', 'units.m')}
        -- No clicks before the link was made.
        WHERE link."createdAt" <= ${anchor} - (units.day_age + 1) * INTERVAL '1 day'
      ), hours AS MATERIALIZED (
        SELECT "linkId", "affiliateId", "organizationId", "urlCode", "campaignId", "hour",
          sum("clicks")::int AS "clicks", sum("repeats")::int AS "repeats", sum("bots")::int AS "bots"
        FROM unit_clicks
        GROUP BY 1, 2, 3, 4, 5, 6
      ), tags AS MATERIALIZED (
        SELECT unit."linkId", unit."affiliateId", unit."organizationId", unit."hour", tag."slot",
          tag."value", sum(tag."clicks")::int AS "clicks", sum(tag."repeats")::int AS "repeats",
          sum(tag."bots")::int AS "bots"
        FROM unit_clicks AS unit
        CROSS JOIN LATERAL (VALUES ${share(1, 'unit."source"', 0.6)},
          ${share(1, 'unit."secondSource"', 0.25)}, ${share(2, 'unit."placement"', 0.5)})
          AS tag("slot", "value", "clicks", "repeats", "bots")
        GROUP BY 1, 2, 3, 4, 5, 6
        HAVING sum(tag."clicks") > 0 OR sum(tag."repeats") > 0 OR sum(tag."bots") > 0
      ), link_hours AS (
        INSERT INTO "LinkClickHour" AS history ("linkId", "hour", "affiliateId", "organizationId",
          "urlCode", "campaignId", "clicks", "repeats", "bots")
        SELECT "linkId", "hour", "affiliateId", "organizationId", "urlCode", "campaignId", "clicks",
          "repeats", "bots"
        FROM hours
        ON CONFLICT ("linkId", "hour") DO UPDATE SET "clicks" = history."clicks" + excluded."clicks",
          "repeats" = history."repeats" + excluded."repeats", "bots" = history."bots" + excluded."bots"
        RETURNING 1
      ), affiliate_hours AS (
        INSERT INTO "AffiliateClickHour" AS history ("affiliateId", "hour", "clicks", "repeats", "bots")
        SELECT "affiliateId", "hour", sum("clicks"), sum("repeats"), sum("bots") FROM hours
        GROUP BY 1, 2
        ON CONFLICT ("affiliateId", "hour") DO UPDATE SET "clicks" = history."clicks" + excluded."clicks",
          "repeats" = history."repeats" + excluded."repeats", "bots" = history."bots" + excluded."bots"
        RETURNING 1
      ), link_tags AS (
        INSERT INTO "LinkSubIdClickHour" AS history ("linkId", "hour", "slot", "value",
          "affiliateId", "organizationId", "clicks", "repeats", "bots")
        SELECT "linkId", "hour", "slot", "value", "affiliateId", "organizationId", "clicks",
          "repeats", "bots"
        FROM tags
        ON CONFLICT ("linkId", "hour", "slot", "value") DO UPDATE SET
          "clicks" = history."clicks" + excluded."clicks",
          "repeats" = history."repeats" + excluded."repeats", "bots" = history."bots" + excluded."bots"
        RETURNING 1
      ), affiliate_tags AS (
        INSERT INTO "AffiliateSubIdClickHour" AS history ("affiliateId", "slot", "hour", "value",
          "clicks", "repeats", "bots")
        SELECT "affiliateId", "slot", "hour", "value", sum("clicks"), sum("repeats"), sum("bots")
        FROM tags
        GROUP BY 1, 2, 3, 4
        ON CONFLICT ("affiliateId", "slot", "hour", "value") DO UPDATE SET
          "clicks" = history."clicks" + excluded."clicks",
          "repeats" = history."repeats" + excluded."repeats", "bots" = history."bots" + excluded."bots"
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM link_hours)::int AS "LinkClickHour",
        (SELECT count(*) FROM affiliate_hours)::int AS "AffiliateClickHour",
        (SELECT count(*) FROM link_tags)::int AS "LinkSubIdClickHour",
        (SELECT count(*) FROM affiliate_tags)::int AS "AffiliateSubIdClickHour"`,
  };
}
