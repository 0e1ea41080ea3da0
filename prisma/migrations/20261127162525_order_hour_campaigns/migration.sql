-- Each link's orders per hour keep the link's campaign, as its clicks per hour do (migration
-- click_hour_campaigns), so the report by campaign groups the hours themselves instead of looking
-- up the campaign of every link with orders in the period.
ALTER TABLE "OrderLinkHour" ADD COLUMN     "campaignId" UUID;

-- A link's hours, for the link trigger below.
CREATE INDEX "OrderLinkHour_affiliateId_linkCode_idx" ON "OrderLinkHour"("affiliateId", "linkCode");

UPDATE "OrderLinkHour" AS hours SET "campaignId" = link."campaignId"
FROM "ShortUrl" AS link
WHERE link."urlCode" = hours."linkCode" AND link."affiliateId" = hours."affiliateId"
  AND link."campaignId" IS NOT NULL;

-- As in migration performance_rollups, with each link's campaign. The campaign's row is locked
-- against deletion (FOR KEY SHARE, as a foreign key check locks it) while its orders are added:
-- a deletion that came first has been waited for, so its campaign is not found, and one that comes
-- later waits for these rows and clears them with the link's (below).
CREATE OR REPLACE FUNCTION "add_order_performance"(added "Order"[], removed "Order"[]) RETURNS void
LANGUAGE sql AS $$
  WITH changes AS (
    SELECT o."affiliateId", o."organizationId", coalesce(o."shortUrlCode", '') AS "linkCode",
      date_trunc('hour', o."orderedAt") AS "hour", o."currency", o."status", 1 AS "sign",
      o."transactionValueMinor", o."earningsMinor"
    FROM unnest(added) AS o
    UNION ALL
    SELECT o."affiliateId", o."organizationId", coalesce(o."shortUrlCode", ''),
      date_trunc('hour', o."orderedAt"), o."currency", o."status", -1,
      o."transactionValueMinor", o."earningsMinor"
    FROM unnest(removed) AS o
  ), campaigns AS (
    SELECT link."affiliateId", link."urlCode" AS "linkCode", campaign."id" AS "campaignId"
    FROM "ShortUrl" link JOIN "Campaign" campaign ON campaign."id" = link."campaignId"
    WHERE (link."affiliateId", link."urlCode") IN (SELECT "affiliateId", "linkCode" FROM changes)
    FOR KEY SHARE OF campaign
  ), link_hours AS (
    INSERT INTO "OrderLinkHour" AS rollup ("affiliateId", "organizationId", "linkCode",
      "campaignId", "hour", "currency", "status", "orders", "transactionValueMinor", "earningsMinor")
    SELECT "affiliateId", "organizationId", "linkCode", campaigns."campaignId", "hour", "currency",
      "status", sum("sign"), sum("sign" * "transactionValueMinor"::bigint),
      sum("sign" * "earningsMinor"::bigint)
    FROM changes LEFT JOIN campaigns USING ("affiliateId", "linkCode")
    GROUP BY "affiliateId", "hour", "organizationId", "linkCode", "currency", "status",
      campaigns."campaignId"
    HAVING sum("sign") <> 0 OR sum("sign" * "transactionValueMinor"::bigint) <> 0
      OR sum("sign" * "earningsMinor"::bigint) <> 0
    ORDER BY "affiliateId", "hour", "organizationId", "linkCode", "currency", "status"
    ON CONFLICT ("affiliateId", "hour", "organizationId", "linkCode", "currency", "status")
    DO UPDATE SET "orders" = rollup."orders" + excluded."orders",
      "transactionValueMinor" = rollup."transactionValueMinor" + excluded."transactionValueMinor",
      "earningsMinor" = rollup."earningsMinor" + excluded."earningsMinor",
      "campaignId" = excluded."campaignId"
  )
  INSERT INTO "OrderAffiliateHour" AS rollup ("affiliateId", "hour", "currency", "status",
    "orders", "transactionValueMinor", "earningsMinor")
  SELECT "affiliateId", "hour", "currency", "status",
    sum("sign"), sum("sign" * "transactionValueMinor"::bigint), sum("sign" * "earningsMinor"::bigint)
  FROM changes
  GROUP BY "affiliateId", "hour", "currency", "status"
  HAVING sum("sign") <> 0 OR sum("sign" * "transactionValueMinor"::bigint) <> 0
    OR sum("sign" * "earningsMinor"::bigint) <> 0
  ORDER BY "affiliateId", "hour", "currency", "status"
  ON CONFLICT ("affiliateId", "hour", "currency", "status")
  DO UPDATE SET "orders" = rollup."orders" + excluded."orders",
    "transactionValueMinor" = rollup."transactionValueMinor" + excluded."transactionValueMinor",
    "earningsMinor" = rollup."earningsMinor" + excluded."earningsMinor"
$$;

-- A link's campaign changes only when the campaign is deleted: its order hours follow, as its
-- click hours do.
CREATE OR REPLACE FUNCTION "pass_on_link_campaign"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "LinkClickHour" SET "campaignId" = NEW."campaignId" WHERE "linkId" = NEW."id";
  UPDATE "OrderLinkHour" SET "campaignId" = NEW."campaignId"
  WHERE "affiliateId" = NEW."affiliateId" AND "linkCode" = NEW."urlCode";
  RETURN NULL;
END;
$$;
