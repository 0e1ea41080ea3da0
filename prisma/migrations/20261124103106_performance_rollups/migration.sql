-- CreateTable
CREATE TABLE "LinkClickHour" (
    "linkId" UUID NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "affiliateId" UUID NOT NULL,
    "organizationId" UUID NOT NULL,
    "urlCode" TEXT NOT NULL,
    "clicks" INTEGER NOT NULL DEFAULT 0,
    "repeats" INTEGER NOT NULL DEFAULT 0,
    "bots" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "LinkClickHour_pkey" PRIMARY KEY ("linkId","hour")
);

-- CreateTable
CREATE TABLE "AffiliateClickHour" (
    "affiliateId" UUID NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "clicks" INTEGER NOT NULL DEFAULT 0,
    "repeats" INTEGER NOT NULL DEFAULT 0,
    "bots" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "AffiliateClickHour_pkey" PRIMARY KEY ("affiliateId","hour")
);

-- CreateTable
CREATE TABLE "OrderLinkHour" (
    "affiliateId" UUID NOT NULL,
    "organizationId" UUID NOT NULL,
    "linkCode" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "status" "OrderStatus" NOT NULL,
    "orders" INTEGER NOT NULL,
    "transactionValueMinor" BIGINT NOT NULL,
    "earningsMinor" BIGINT NOT NULL,

    CONSTRAINT "OrderLinkHour_pkey" PRIMARY KEY ("affiliateId","hour","organizationId","linkCode","currency","status")
);

-- CreateTable
CREATE TABLE "OrderAffiliateHour" (
    "affiliateId" UUID NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "status" "OrderStatus" NOT NULL,
    "orders" INTEGER NOT NULL,
    "transactionValueMinor" BIGINT NOT NULL,
    "earningsMinor" BIGINT NOT NULL,

    CONSTRAINT "OrderAffiliateHour_pkey" PRIMARY KEY ("affiliateId","hour","currency","status")
);

-- CreateIndex
CREATE INDEX "LinkClickHour_affiliateId_hour_idx" ON "LinkClickHour"("affiliateId", "hour");

-- CreateIndex
CREATE INDEX "LinkClickHour_affiliateId_organizationId_hour_idx" ON "LinkClickHour"("affiliateId", "organizationId", "hour");

-- CreateIndex
CREATE INDEX "OrderLinkHour_affiliateId_organizationId_hour_idx" ON "OrderLinkHour"("affiliateId", "organizationId", "hour");

-- AddForeignKey
ALTER TABLE "LinkClickHour" ADD CONSTRAINT "LinkClickHour_linkId_fkey" FOREIGN KEY ("linkId") REFERENCES "ShortUrl"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Orders per hour, kept by the database whoever writes orders (the network's other systems write
-- them in SQL): statement triggers with transition tables add each statement's new rows and
-- subtract its old ones, one upsert per rollup, so a bulk import costs one upsert per hour and
-- brand touched, not one per order. Keys are written in key order, so two statements touching the
-- same hours lock them in the same order.
CREATE FUNCTION "add_order_performance"(added "Order"[], removed "Order"[]) RETURNS void
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
  ), link_hours AS (
    INSERT INTO "OrderLinkHour" AS rollup ("affiliateId", "organizationId", "linkCode", "hour",
      "currency", "status", "orders", "transactionValueMinor", "earningsMinor")
    SELECT "affiliateId", "organizationId", "linkCode", "hour", "currency", "status",
      sum("sign"), sum("sign" * "transactionValueMinor"::bigint), sum("sign" * "earningsMinor"::bigint)
    FROM changes
    GROUP BY "affiliateId", "hour", "organizationId", "linkCode", "currency", "status"
    HAVING sum("sign") <> 0 OR sum("sign" * "transactionValueMinor"::bigint) <> 0
      OR sum("sign" * "earningsMinor"::bigint) <> 0
    ORDER BY "affiliateId", "hour", "organizationId", "linkCode", "currency", "status"
    ON CONFLICT ("affiliateId", "hour", "organizationId", "linkCode", "currency", "status")
    DO UPDATE SET "orders" = rollup."orders" + excluded."orders",
      "transactionValueMinor" = rollup."transactionValueMinor" + excluded."transactionValueMinor",
      "earningsMinor" = rollup."earningsMinor" + excluded."earningsMinor"
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

CREATE FUNCTION "Order_performance"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added "Order"[] := '{}';
  removed "Order"[] := '{}';
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT coalesce(array_agg(row_added), '{}') INTO added FROM new_rows AS row_added;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT coalesce(array_agg(row_removed), '{}') INTO removed FROM old_rows AS row_removed;
  END IF;
  PERFORM "add_order_performance"(added, removed);
  RETURN NULL;
END
$$;

CREATE TRIGGER "Order_performance_insert" AFTER INSERT ON "Order"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "Order_performance"();
CREATE TRIGGER "Order_performance_update" AFTER UPDATE ON "Order"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION "Order_performance"();
CREATE TRIGGER "Order_performance_delete" AFTER DELETE ON "Order"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "Order_performance"();

-- The existing orders, in one pass. Creating the triggers locked "Order" against writes until
-- this migration commits, so no order falls between the fill and the triggers.
INSERT INTO "OrderLinkHour" ("affiliateId", "organizationId", "linkCode", "hour", "currency",
  "status", "orders", "transactionValueMinor", "earningsMinor")
SELECT "affiliateId", "organizationId", coalesce("shortUrlCode", ''), date_trunc('hour', "orderedAt"),
  "currency", "status", count(*), sum("transactionValueMinor"), sum("earningsMinor")
FROM "Order"
GROUP BY 1, 2, 3, 4, 5, 6;

INSERT INTO "OrderAffiliateHour" ("affiliateId", "hour", "currency", "status", "orders",
  "transactionValueMinor", "earningsMinor")
SELECT "affiliateId", date_trunc('hour', "orderedAt"), "currency", "status", count(*),
  sum("transactionValueMinor"), sum("earningsMinor")
FROM "Order"
GROUP BY 1, 2, 3, 4;

-- Clicks before this migration have no time: the counters keep them, the hourly history starts
-- here (docs/decisions.md, "Reports").

-- The report only adds up what a key with orders:read can already read (its orders, and its links'
-- counters through shortener:read): existing affiliate keys with orders:read get reports:read.
UPDATE "ApiKey" SET "scopes" = array_append("scopes", 'reports:read')
WHERE "type" = 'affiliate' AND 'orders:read' = ANY ("scopes")
  AND NOT 'reports:read' = ANY ("scopes");
