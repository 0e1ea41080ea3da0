-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "sub1" TEXT,
ADD COLUMN     "sub2" TEXT,
ADD COLUMN     "sub3" TEXT,
ADD COLUMN     "sub4" TEXT,
ADD COLUMN     "sub5" TEXT;

-- CreateTable
CREATE TABLE "LinkSubIdClickHour" (
    "linkId" UUID NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "slot" SMALLINT NOT NULL,
    "value" TEXT NOT NULL,
    "affiliateId" UUID NOT NULL,
    "organizationId" UUID NOT NULL,
    "clicks" INTEGER NOT NULL DEFAULT 0,
    "repeats" INTEGER NOT NULL DEFAULT 0,
    "bots" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "LinkSubIdClickHour_pkey" PRIMARY KEY ("linkId","hour","slot","value")
);

-- CreateTable
CREATE TABLE "AffiliateSubIdClickHour" (
    "affiliateId" UUID NOT NULL,
    "slot" SMALLINT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "value" TEXT NOT NULL,
    "clicks" INTEGER NOT NULL DEFAULT 0,
    "repeats" INTEGER NOT NULL DEFAULT 0,
    "bots" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "AffiliateSubIdClickHour_pkey" PRIMARY KEY ("affiliateId","slot","hour","value")
);

-- CreateTable
CREATE TABLE "OrderLinkSubIdHour" (
    "affiliateId" UUID NOT NULL,
    "slot" SMALLINT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "organizationId" UUID NOT NULL,
    "linkCode" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "status" "OrderStatus" NOT NULL,
    "orders" INTEGER NOT NULL,
    "transactionValueMinor" BIGINT NOT NULL,
    "earningsMinor" BIGINT NOT NULL,

    CONSTRAINT "OrderLinkSubIdHour_pkey" PRIMARY KEY ("affiliateId","slot","hour","organizationId","linkCode","value","currency","status")
);

-- CreateTable
CREATE TABLE "OrderAffiliateSubIdHour" (
    "affiliateId" UUID NOT NULL,
    "slot" SMALLINT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "value" TEXT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "status" "OrderStatus" NOT NULL,
    "orders" INTEGER NOT NULL,
    "transactionValueMinor" BIGINT NOT NULL,
    "earningsMinor" BIGINT NOT NULL,

    CONSTRAINT "OrderAffiliateSubIdHour_pkey" PRIMARY KEY ("affiliateId","slot","hour","value","currency","status")
);

-- CreateIndex
CREATE INDEX "LinkSubIdClickHour_affiliateId_slot_hour_idx" ON "LinkSubIdClickHour"("affiliateId", "slot", "hour");

-- CreateIndex
CREATE INDEX "LinkSubIdClickHour_affiliateId_organizationId_slot_hour_idx" ON "LinkSubIdClickHour"("affiliateId", "organizationId", "slot", "hour");

-- CreateIndex
CREATE INDEX "OrderLinkSubIdHour_affiliateId_organizationId_slot_hour_idx" ON "OrderLinkSubIdHour"("affiliateId", "organizationId", "slot", "hour");

-- CreateIndex
CREATE INDEX "Order_affiliateId_sub1_orderedAt_id_idx" ON "Order"("affiliateId", "sub1", "orderedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Order_affiliateId_sub2_orderedAt_id_idx" ON "Order"("affiliateId", "sub2", "orderedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Order_affiliateId_sub3_orderedAt_id_idx" ON "Order"("affiliateId", "sub3", "orderedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Order_affiliateId_sub4_orderedAt_id_idx" ON "Order"("affiliateId", "sub4", "orderedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Order_affiliateId_sub5_orderedAt_id_idx" ON "Order"("affiliateId", "sub5", "orderedAt" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "LinkSubIdClickHour" ADD CONSTRAINT "LinkSubIdClickHour_linkId_fkey" FOREIGN KEY ("linkId") REFERENCES "ShortUrl"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Sub-IDs (docs/decisions.md, "Sub-IDs"). What a sub-ID value is, as the redirect takes it: 1 to
-- 100 visible ASCII characters.
CREATE FUNCTION "is_sub_id"(value text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$ SELECT value ~ '^[!-~]{1,100}$' $$;

-- The rollups hold at most this many values per link, UTC hour and slot (sub1 ... sub5)...
CREATE FUNCTION "sub_id_values_per_hour"() RETURNS integer
LANGUAGE sql IMMUTABLE AS $$ SELECT 100 $$;

-- ... and count further values under this one, which no sub-ID can be (it holds a space).
CREATE FUNCTION "sub_id_other_values"() RETURNS text
LANGUAGE sql IMMUTABLE AS $$ SELECT '(other values)'::text $$;

-- A click batch's tagged clicks, added to the current hour of their links and affiliates by
-- value. Called by the redirect's click statement (src/shortLinks/clicks.ts) with what it
-- decided: its fresh clients (link, client, address group), how many of each address group's
-- fresh clients its window admitted (the first ones by client), the values its candidates carried
-- (link, client, slot, value), and every click's values (people's and bots' per link, slot and
-- value). Counted under a value are the admitted clients that carried it; its repeats are its
-- other people's clicks. Rows meet by window functions and grouping over their union, never by a
-- join whose size the planner cannot know; as a function, the statement's plan is kept by the
-- session. It runs once the click statement holds the row locks of the batch's links, which every
-- writer of these links' rows holds until its commit, and reads with a snapshot taken after them,
-- so it sees every earlier batch's values and the bound is exact across replicas: a value of a
-- link, hour and slot is kept when it is already there or while fewer than
-- "sub_id_values_per_hour"() are (new values in value order); further values are counted under
-- "sub_id_other_values"(). Rows are written in key order.
CREATE FUNCTION "add_sub_id_clicks"(
  fresh_links uuid[], fresh_clients text[], fresh_addresses text[],
  window_links uuid[], window_addresses text[], window_admitted integer[],
  tag_links uuid[], tag_clients text[], tag_slots smallint[], tag_values text[],
  click_links uuid[], click_slots smallint[], click_values text[], click_people integer[],
  click_bots integer[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  WITH counted_clients AS (
    SELECT "linkId", "client"
    FROM (
      SELECT "linkId", "client",
        row_number() OVER (PARTITION BY "linkId", "address" ORDER BY "client" NULLS FIRST) - 1
          AS "rank",
        max("admitted") OVER (PARTITION BY "linkId", "address") AS "admitted"
      FROM (
        SELECT fresh.*, NULL::integer AS "admitted"
        FROM unnest(fresh_links, fresh_clients, fresh_addresses) AS fresh("linkId", "client", "address")
        UNION ALL
        SELECT held."linkId", NULL, held."address", held."admitted"
        FROM unnest(window_links, window_addresses, window_admitted) AS held("linkId", "address", "admitted")
      ) AS clients
    ) AS ranked
    WHERE "client" IS NOT NULL AND "rank" <= "admitted"
  ), tags AS (
    SELECT "linkId", "slot", "value",
      bool_or("isCounted") OVER (PARTITION BY "linkId", "client") AS "isCounted"
    FROM (
      SELECT tag.*, false AS "isCounted"
      FROM unnest(tag_links, tag_clients, tag_slots, tag_values) AS tag("linkId", "client", "slot", "value")
      UNION ALL
      SELECT "linkId", "client", NULL, NULL, true FROM counted_clients
    ) AS clients
  ), batch AS (
    SELECT "linkId", "slot", "value", date_trunc('hour', now() AT TIME ZONE 'UTC') AS "hour",
      sum("clicks")::int AS "clicks", sum("people" - "clicks")::int AS "repeats",
      sum("bots")::int AS "bots"
    FROM (
      SELECT "linkId", "slot", "value", 1 AS "clicks", 0 AS "people", 0 AS "bots"
      FROM tags WHERE "isCounted" AND "value" IS NOT NULL
      UNION ALL
      SELECT click."linkId", click."slot", click."value", 0, click."people", click."bots"
      FROM unnest(click_links, click_slots, click_values, click_people, click_bots)
        AS click("linkId", "slot", "value", "people", "bots")
    ) AS clicks
    GROUP BY 1, 2, 3
  ), known AS (
    SELECT held."linkId", held."slot", held."value"
    FROM "LinkSubIdClickHour" held
    JOIN (SELECT DISTINCT "linkId", "hour", "slot" FROM batch) AS keys
      ON (held."linkId", held."hour", held."slot") = (keys."linkId", keys."hour", keys."slot")
    WHERE held."value" <> "sub_id_other_values"()
  ), counts AS (
    SELECT "linkId", "slot", count(*)::int AS "values" FROM known GROUP BY 1, 2
  ), newcomers AS (
    SELECT given."linkId", given."slot", given."value",
      row_number() OVER (PARTITION BY given."linkId", given."slot" ORDER BY given."value") AS "rank"
    FROM batch AS given
    WHERE NOT EXISTS (SELECT FROM known
      WHERE (known."linkId", known."slot", known."value") = (given."linkId", given."slot", given."value"))
  ), admitted AS (
    SELECT newcomers."linkId", newcomers."slot", newcomers."value"
    FROM newcomers LEFT JOIN counts USING ("linkId", "slot")
    WHERE newcomers."rank" <= "sub_id_values_per_hour"() - coalesce(counts."values", 0)
  ), link_rows AS (
    SELECT batch."linkId", batch."hour", batch."slot",
      CASE WHEN known."value" IS NOT NULL OR admitted."value" IS NOT NULL THEN batch."value"
        ELSE "sub_id_other_values"() END AS "value",
      link."affiliateId", link."organizationId",
      sum(batch."clicks")::int AS "clicks", sum(batch."repeats")::int AS "repeats",
      sum(batch."bots")::int AS "bots"
    FROM batch
    JOIN "ShortUrl" link ON link."id" = batch."linkId"
    LEFT JOIN known ON (known."linkId", known."slot", known."value")
      = (batch."linkId", batch."slot", batch."value")
    LEFT JOIN admitted ON (admitted."linkId", admitted."slot", admitted."value")
      = (batch."linkId", batch."slot", batch."value")
    GROUP BY 1, 2, 3, 4, 5, 6
  ), link_history AS (
    INSERT INTO "LinkSubIdClickHour" AS history ("linkId", "hour", "slot", "value", "affiliateId",
      "organizationId", "clicks", "repeats", "bots")
    SELECT "linkId", "hour", "slot", "value", "affiliateId", "organizationId", "clicks", "repeats",
      "bots"
    FROM link_rows
    ORDER BY "linkId", "hour", "slot", "value"
    ON CONFLICT ("linkId", "hour", "slot", "value") DO UPDATE SET
      "clicks" = history."clicks" + excluded."clicks",
      "repeats" = history."repeats" + excluded."repeats", "bots" = history."bots" + excluded."bots"
  )
  INSERT INTO "AffiliateSubIdClickHour" AS history ("affiliateId", "slot", "hour", "value",
    "clicks", "repeats", "bots")
  SELECT "affiliateId", "slot", "hour", "value", sum("clicks"), sum("repeats"), sum("bots")
  FROM link_rows
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 3, 4
  ON CONFLICT ("affiliateId", "slot", "hour", "value") DO UPDATE SET
    "clicks" = history."clicks" + excluded."clicks",
    "repeats" = history."repeats" + excluded."repeats", "bots" = history."bots" + excluded."bots";
END
$$;

-- A statement's orders with sub-IDs, added to (new rows) and taken from (old rows) the sub-ID
-- rollups, beside "add_order_performance". An empty value counts as none; a value that is not a
-- sub-ID (is_sub_id) counts under "sub_id_other_values"(), as do values past the bound of the
-- order's link (its code, '' for none), UTC hour and slot, decided as for clicks. Rollup rows
-- are never deleted, so a value once kept stays kept and one once counted as other stays other:
-- an update or deletion takes an order from where it was added. Statements writing orders with
-- sub-IDs of the same affiliates take turns (a transaction lock per affiliate bucket, taken in
-- order), and the statement below reads with a snapshot taken after them, so the bound holds
-- under concurrent writers. Its statement keeps one plan: left to choose, PostgreSQL planned it
-- again for every order written (0.8 ms of a single-order insert's 1.6 ms), and the kept plan is
-- as fast for a statement of 20,000 orders (bench/results/changes.md).
CREATE FUNCTION "add_order_sub_ids"(added "Order"[], removed "Order"[]) RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  IF NOT EXISTS (SELECT FROM unnest(added || removed) AS o
      WHERE coalesce(o."sub1", o."sub2", o."sub3", o."sub4", o."sub5") IS NOT NULL) THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('Order sub-IDs'), buckets."bucket")
  FROM (SELECT DISTINCT hashtext(o."affiliateId"::text) & 255 AS "bucket"
    FROM unnest(added || removed) AS o ORDER BY 1) AS buckets;

  WITH sides AS (
    SELECT o.*, 1 AS "sign" FROM unnest(added) AS o
    UNION ALL
    SELECT o.*, -1 AS "sign" FROM unnest(removed) AS o
  ), changes AS (
    SELECT o."affiliateId", o."organizationId", coalesce(o."shortUrlCode", '') AS "linkCode",
      date_trunc('hour', o."orderedAt") AS "hour", o."currency", o."status", o."sign",
      o."transactionValueMinor", o."earningsMinor", tag."slot", tag."value"
    FROM sides AS o
    CROSS JOIN LATERAL (VALUES (1::smallint, nullif(o."sub1", '')), (2::smallint, nullif(o."sub2", '')),
      (3::smallint, nullif(o."sub3", '')), (4::smallint, nullif(o."sub4", '')),
      (5::smallint, nullif(o."sub5", ''))) AS tag("slot", "value")
    WHERE tag."value" IS NOT NULL
  ), known AS (
    SELECT DISTINCT held."affiliateId", held."linkCode", held."hour", held."slot", held."value"
    FROM "OrderLinkSubIdHour" held
    JOIN (SELECT DISTINCT "affiliateId", "linkCode", "hour", "slot" FROM changes) AS keys
      ON (held."affiliateId", held."slot", held."hour", held."linkCode")
        = (keys."affiliateId", keys."slot", keys."hour", keys."linkCode")
    WHERE held."value" <> "sub_id_other_values"()
  ), counts AS (
    SELECT "affiliateId", "linkCode", "hour", "slot", count(*)::int AS "values"
    FROM known GROUP BY 1, 2, 3, 4
  ), newcomers AS (
    SELECT given.*, row_number() OVER (PARTITION BY given."affiliateId", given."linkCode",
        given."hour", given."slot" ORDER BY given."value") AS "rank"
    FROM (SELECT DISTINCT "affiliateId", "linkCode", "hour", "slot", "value" FROM changes
      WHERE "sign" = 1 AND "is_sub_id"("value")) AS given
    WHERE NOT EXISTS (SELECT FROM known
      WHERE (known."affiliateId", known."linkCode", known."hour", known."slot", known."value")
        = (given."affiliateId", given."linkCode", given."hour", given."slot", given."value"))
  ), admitted AS (
    SELECT newcomers."affiliateId", newcomers."linkCode", newcomers."hour", newcomers."slot",
      newcomers."value"
    FROM newcomers LEFT JOIN counts USING ("affiliateId", "linkCode", "hour", "slot")
    WHERE newcomers."rank" <= "sub_id_values_per_hour"() - coalesce(counts."values", 0)
  ), bucketed AS (
    SELECT changes.*, CASE WHEN known."value" IS NOT NULL OR admitted."value" IS NOT NULL
        THEN changes."value" ELSE "sub_id_other_values"() END AS "bucket"
    FROM changes
    LEFT JOIN known ON (known."affiliateId", known."linkCode", known."hour", known."slot",
        known."value")
      = (changes."affiliateId", changes."linkCode", changes."hour", changes."slot", changes."value")
    LEFT JOIN admitted ON (admitted."affiliateId", admitted."linkCode", admitted."hour",
        admitted."slot", admitted."value")
      = (changes."affiliateId", changes."linkCode", changes."hour", changes."slot", changes."value")
  ), link_hours AS (
    INSERT INTO "OrderLinkSubIdHour" AS rollup ("affiliateId", "slot", "hour", "organizationId",
      "linkCode", "value", "currency", "status", "orders", "transactionValueMinor", "earningsMinor")
    SELECT "affiliateId", "slot", "hour", "organizationId", "linkCode", "bucket", "currency",
      "status", sum("sign"), sum("sign" * "transactionValueMinor"::bigint),
      sum("sign" * "earningsMinor"::bigint)
    FROM bucketed
    GROUP BY "affiliateId", "slot", "hour", "organizationId", "linkCode", "bucket", "currency",
      "status"
    HAVING sum("sign") <> 0 OR sum("sign" * "transactionValueMinor"::bigint) <> 0
      OR sum("sign" * "earningsMinor"::bigint) <> 0
    ORDER BY "affiliateId", "slot", "hour", "organizationId", "linkCode", "bucket", "currency",
      "status"
    ON CONFLICT ("affiliateId", "slot", "hour", "organizationId", "linkCode", "value", "currency",
      "status")
    DO UPDATE SET "orders" = rollup."orders" + excluded."orders",
      "transactionValueMinor" = rollup."transactionValueMinor" + excluded."transactionValueMinor",
      "earningsMinor" = rollup."earningsMinor" + excluded."earningsMinor"
  )
  INSERT INTO "OrderAffiliateSubIdHour" AS rollup ("affiliateId", "slot", "hour", "value",
    "currency", "status", "orders", "transactionValueMinor", "earningsMinor")
  SELECT "affiliateId", "slot", "hour", "bucket", "currency", "status", sum("sign"),
    sum("sign" * "transactionValueMinor"::bigint), sum("sign" * "earningsMinor"::bigint)
  FROM bucketed
  GROUP BY "affiliateId", "slot", "hour", "bucket", "currency", "status"
  HAVING sum("sign") <> 0 OR sum("sign" * "transactionValueMinor"::bigint) <> 0
    OR sum("sign" * "earningsMinor"::bigint) <> 0
  ORDER BY "affiliateId", "slot", "hour", "bucket", "currency", "status"
  ON CONFLICT ("affiliateId", "slot", "hour", "value", "currency", "status")
  DO UPDATE SET "orders" = rollup."orders" + excluded."orders",
    "transactionValueMinor" = rollup."transactionValueMinor" + excluded."transactionValueMinor",
    "earningsMinor" = rollup."earningsMinor" + excluded."earningsMinor";
END
$$;

-- The order triggers keep the sub-ID rollups too. Existing orders have no sub-IDs: nothing to fill.
CREATE OR REPLACE FUNCTION "Order_performance"() RETURNS trigger LANGUAGE plpgsql AS $$
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
  PERFORM "add_order_sub_ids"(added, removed);
  RETURN NULL;
END
$$;
