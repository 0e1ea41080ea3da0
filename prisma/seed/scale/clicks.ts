// The big account's click history at scale: a year of hourly rows (LinkClickHour, and their sums
// per hour in AffiliateClickHour), as the redirect's click statement writes them, so reports by
// day and by link read realistic volumes. Each unit is one link's clicks in one hour: 3,000 a day
// over the demo affiliate's 100,000 links, popular links far more often (power 3), none before a
// link was made. The counters (`ShortUrl.clickCount`) are the short URL step's, not these sums.
import type { Step } from './batches';
import { SIZES } from './plan';
import { fraction, idOf, pick, type Sql } from './sql';

export const CLICK_HISTORY_DAYS = 365;
const LINK_HOURS_PER_DAY = 3_000;

export function clickHistoryStep(anchor: Sql): Step {
  return {
    name: 'click history',
    tables: ['LinkClickHour', 'AffiliateClickHour'],
    units: CLICK_HISTORY_DAYS * LINK_HOURS_PER_DAY,
    batchSize: 30 * LINK_HOURS_PER_DAY,
    after: ['short urls'],
    sql: `WITH units AS MATERIALIZED (
        SELECT u, u / ${LINK_HOURS_PER_DAY} AS day_age,
          floor(${SIZES.demoAffiliateShortUrls} * power(${fraction('u', 'click:link')}, 3))::int AS m
        FROM generate_series($1::int, $2::int - 1) AS u
      ), hours AS MATERIALIZED (
        SELECT link."id" AS "linkId", link."affiliateId", link."organizationId", link."urlCode",
          ${anchor} - (units.day_age + 1) * INTERVAL '1 day'
            + ${pick('u', 'click:hour', 24)} * INTERVAL '1 hour' AS "hour",
          sum(1 + floor(power(${fraction('u', 'click:count')}, 3) * 60))::int AS "clicks",
          sum(floor(power(${fraction('u', 'click:count')}, 3) * 60 * ${fraction('u', 'click:repeats')} * 0.3))::int AS "repeats",
          sum(${pick('u', 'click:bots', 4)})::int AS "bots"
        FROM units
        JOIN "ShortUrl" link ON link."id" = ${idOf('short-url', 'units.m')}
        -- No clicks before the link was made.
        WHERE link."createdAt" <= ${anchor} - (units.day_age + 1) * INTERVAL '1 day'
        GROUP BY 1, 2, 3, 4, 5
      ), link_hours AS (
        INSERT INTO "LinkClickHour" AS history ("linkId", "hour", "affiliateId", "organizationId",
          "urlCode", "clicks", "repeats", "bots")
        SELECT "linkId", "hour", "affiliateId", "organizationId", "urlCode", "clicks", "repeats", "bots"
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
      )
      SELECT (SELECT count(*) FROM link_hours)::int AS "LinkClickHour",
        (SELECT count(*) FROM affiliate_hours)::int AS "AffiliateClickHour"`,
  };
}
