-- AlterTable
ALTER TABLE "OrderEvent" ADD COLUMN     "attribution" "OrderAttribution",
ADD COLUMN     "campaignId" UUID,
ADD COLUMN     "couponCode" TEXT;

-- AlterTable
ALTER TABLE "OrderLinkHour" DROP CONSTRAINT "OrderLinkHour_pkey",
ADD COLUMN     "couponCode" TEXT NOT NULL DEFAULT '',
ADD CONSTRAINT "OrderLinkHour_pkey" PRIMARY KEY ("affiliateId", "hour", "organizationId", "linkCode", "couponCode", "currency", "status");

-- The order hours follow each order's own source (migration coupon_attribution): orders are kept
-- apart by coupon code, and an hour's campaign is the one its orders came through (the code's,
-- else the link's), so the reports by code and by campaign count an order by code alone where it
-- belongs. One key's orders (a link's orders of an hour with one code) came through one campaign.
DELETE FROM "OrderLinkHour";
INSERT INTO "OrderLinkHour" ("affiliateId", "organizationId", "linkCode", "couponCode", "campaignId",
  "hour", "currency", "status", "orders", "transactionValueMinor", "earningsMinor")
SELECT o."affiliateId", o."organizationId", coalesce(o."shortUrlCode", ''),
  coalesce(o."couponCode", ''), (array_agg(o."campaignId" ORDER BY o."orderedAt" DESC))[1],
  date_trunc('hour', o."orderedAt"), o."currency", o."status", count(*),
  sum(o."transactionValueMinor"), sum(o."earningsMinor")
FROM "Order" o
GROUP BY 1, 2, 3, 4, 6, 7, 8;

CREATE OR REPLACE FUNCTION "add_order_performance"(added "Order"[], removed "Order"[])
RETURNS void LANGUAGE sql AS $$
  WITH changes AS (
    SELECT o."affiliateId", o."organizationId", coalesce(o."shortUrlCode", '') AS "linkCode",
      coalesce(o."couponCode", '') AS "couponCode", o."campaignId",
      date_trunc('hour', o."orderedAt") AS "hour", o."currency", o."status", 1 AS "sign",
      o."transactionValueMinor", o."earningsMinor"
    FROM unnest(added) AS o
    UNION ALL
    SELECT o."affiliateId", o."organizationId", coalesce(o."shortUrlCode", ''),
      coalesce(o."couponCode", ''), o."campaignId", date_trunc('hour', o."orderedAt"),
      o."currency", o."status", -1, o."transactionValueMinor", o."earningsMinor"
    FROM unnest(removed) AS o
  ), link_hours AS (
    INSERT INTO "OrderLinkHour" AS rollup ("affiliateId", "organizationId", "linkCode",
      "couponCode", "campaignId", "hour", "currency", "status", "orders", "transactionValueMinor",
      "earningsMinor")
    SELECT "affiliateId", "organizationId", "linkCode", "couponCode",
      -- The campaign the key's orders came through now: an added order's, else a removed one's.
      (array_agg("campaignId" ORDER BY "sign" DESC))[1], "hour", "currency", "status", sum("sign"),
      sum("sign" * "transactionValueMinor"::bigint), sum("sign" * "earningsMinor"::bigint)
    FROM changes
    GROUP BY "affiliateId", "hour", "organizationId", "linkCode", "couponCode", "currency", "status"
    HAVING sum("sign") <> 0 OR sum("sign" * "transactionValueMinor"::bigint) <> 0
      OR sum("sign" * "earningsMinor"::bigint) <> 0
      -- An order whose campaign alone changed (its deletion set it to none).
      OR (array_agg("campaignId" ORDER BY "sign" DESC))[1]
        IS DISTINCT FROM (array_agg("campaignId" ORDER BY "sign"))[1]
    ORDER BY "affiliateId", "hour", "organizationId", "linkCode", "couponCode", "currency", "status"
    ON CONFLICT ("affiliateId", "hour", "organizationId", "linkCode", "couponCode", "currency", "status")
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

-- A link's campaign passes on to its click hours; its orders keep the campaign they came through,
-- and their hours with them.
CREATE OR REPLACE FUNCTION "pass_on_link_campaign"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "LinkClickHour" SET "campaignId" = NEW."campaignId" WHERE "linkId" = NEW."id";
  RETURN NULL;
END;
$$;

-- An order event carries the order's source after it, whoever records the event.
CREATE FUNCTION "order_event_source"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT o."couponCode", o."campaignId", o."attribution"
    INTO NEW."couponCode", NEW."campaignId", NEW."attribution"
  FROM "Order" o WHERE o."id" = NEW."orderId";
  RETURN NEW;
END
$$;
CREATE TRIGGER "OrderEvent_source" BEFORE INSERT ON "OrderEvent"
  FOR EACH ROW EXECUTE FUNCTION "order_event_source"();

UPDATE "OrderEvent" e
SET "couponCode" = o."couponCode", "campaignId" = o."campaignId", "attribution" = o."attribution"
FROM "Order" o
WHERE o."id" = e."orderId"
  AND (o."couponCode", o."campaignId", o."attribution") IS DISTINCT FROM (NULL, NULL, NULL);
