-- CreateTable
CREATE TABLE "OrderAffiliateDateHour" (
    "affiliateId" UUID NOT NULL,
    "dateType" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "status" "OrderStatus" NOT NULL,
    "orders" INTEGER NOT NULL,
    "transactionValueMinor" BIGINT NOT NULL,
    "earningsMinor" BIGINT NOT NULL,

    CONSTRAINT "OrderAffiliateDateHour_pkey" PRIMARY KEY ("affiliateId","dateType","hour","currency","status")
);

ALTER TABLE "OrderAffiliateDateHour" ADD CONSTRAINT "OrderAffiliateDateHour_dateType_check"
  CHECK ("dateType" IN ('updated', 'locked'));

INSERT INTO "OrderAffiliateDateHour" ("affiliateId", "dateType", "hour", "currency", "status",
  "orders", "transactionValueMinor", "earningsMinor")
SELECT o."affiliateId", dates."dateType", date_trunc('hour', dates."at"), o."currency", o."status",
  count(*), sum(o."transactionValueMinor"), sum(o."earningsMinor")
FROM "Order" o
CROSS JOIN LATERAL (VALUES ('updated', o."updatedAt"), ('locked', o."locksAt"))
  AS dates ("dateType", "at")
GROUP BY 1, 2, 3, 4, 5;

-- Orders roll up by their update and lock hours too, for the day report by those dates.
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
    "earningsMinor" = rollup."earningsMinor" + excluded."earningsMinor";

  -- The same orders by the hour of their update and of their lock date, affiliate-wide.
  WITH changes AS (
    SELECT o."affiliateId", dates."dateType", date_trunc('hour', dates."at") AS "hour",
      o."currency", o."status", 1 AS "sign", o."transactionValueMinor", o."earningsMinor"
    FROM unnest(added) AS o
    CROSS JOIN LATERAL (VALUES ('updated', o."updatedAt"), ('locked', o."locksAt"))
      AS dates ("dateType", "at")
    UNION ALL
    SELECT o."affiliateId", dates."dateType", date_trunc('hour', dates."at"), o."currency",
      o."status", -1, o."transactionValueMinor", o."earningsMinor"
    FROM unnest(removed) AS o
    CROSS JOIN LATERAL (VALUES ('updated', o."updatedAt"), ('locked', o."locksAt"))
      AS dates ("dateType", "at")
  )
  INSERT INTO "OrderAffiliateDateHour" AS rollup ("affiliateId", "dateType", "hour", "currency",
    "status", "orders", "transactionValueMinor", "earningsMinor")
  SELECT "affiliateId", "dateType", "hour", "currency", "status", sum("sign"),
    sum("sign" * "transactionValueMinor"::bigint), sum("sign" * "earningsMinor"::bigint)
  FROM changes
  GROUP BY "affiliateId", "dateType", "hour", "currency", "status"
  HAVING sum("sign") <> 0 OR sum("sign" * "transactionValueMinor"::bigint) <> 0
    OR sum("sign" * "earningsMinor"::bigint) <> 0
  ORDER BY "affiliateId", "dateType", "hour", "currency", "status"
  ON CONFLICT ("affiliateId", "dateType", "hour", "currency", "status")
  DO UPDATE SET "orders" = rollup."orders" + excluded."orders",
    "transactionValueMinor" = rollup."transactionValueMinor" + excluded."transactionValueMinor",
    "earningsMinor" = rollup."earningsMinor" + excluded."earningsMinor";
$$;
