-- CreateEnum
CREATE TYPE "OrderStatusReason" AS ENUM ('RETURNED', 'CANCELLED', 'FRAUD', 'DUPLICATE', 'TEST_ORDER', 'TERMS_VIOLATION', 'AMOUNT_CORRECTED', 'OTHER');

-- CreateEnum
CREATE TYPE "OrderEventType" AS ENUM ('CREATED', 'STATUS_CHANGED', 'ADJUSTED', 'LOCKED', 'PAID');

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "lockedAt" TIMESTAMP(3),
ADD COLUMN     "locksAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "originalEarningsMinor" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "originalTransactionValueMinor" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "statusNote" TEXT,
ADD COLUMN     "statusReason" "OrderStatusReason";

-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "orderLockDays" INTEGER NOT NULL DEFAULT 30;

-- AlterTable
ALTER TABLE "WebhookEvent" ADD COLUMN     "orderEventId" UUID;

-- CreateTable
CREATE TABLE "OrderEvent" (
    "id" UUID NOT NULL,
    "affiliateId" UUID NOT NULL,
    "number" BIGINT NOT NULL,
    "orderId" UUID NOT NULL,
    "type" "OrderEventType" NOT NULL,
    "status" "OrderStatus" NOT NULL,
    "previousStatus" "OrderStatus",
    "reason" "OrderStatusReason",
    "note" TEXT,
    "currency" CHAR(3) NOT NULL,
    "transactionValueMinor" INTEGER NOT NULL,
    "earningsMinor" INTEGER NOT NULL,
    "previousTransactionValueMinor" INTEGER,
    "previousEarningsMinor" INTEGER,
    "occurredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OrderEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderEventCounter" (
    "affiliateId" UUID NOT NULL,
    "last" BIGINT NOT NULL,

    CONSTRAINT "OrderEventCounter_pkey" PRIMARY KEY ("affiliateId")
);

-- A brand's lock period is a number of days, none or more.
ALTER TABLE "Organization" ADD CONSTRAINT "Organization_orderLockDays_check" CHECK ("orderLockDays" >= 0);

-- Backfill, in one pass over the orders (their own triggers off: nothing of theirs changes, and
-- `updatedAt` keeps meaning a change of the order): the amounts as first recorded are today's, the
-- lock date is the brand's period after the order date, and orders past it are locked. Then each
-- order's history starts with its creation (at its order date, with its state today) and, if
-- locked, its lock; numbered per affiliate in time order.
ALTER TABLE "Order" DISABLE TRIGGER USER;
UPDATE "Order" placed
SET "originalTransactionValueMinor" = placed."transactionValueMinor",
    "originalEarningsMinor" = placed."earningsMinor",
    "locksAt" = placed."orderedAt" + make_interval(days => brand."orderLockDays"),
    "lockedAt" = CASE WHEN placed."orderedAt" + make_interval(days => brand."orderLockDays") <= (now() AT TIME ZONE 'UTC')
                      THEN placed."orderedAt" + make_interval(days => brand."orderLockDays") END
FROM "Organization" brand
WHERE brand."id" = placed."organizationId";
ALTER TABLE "Order" ENABLE TRIGGER USER;

INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status", "currency",
                          "transactionValueMinor", "earningsMinor", "occurredAt")
SELECT gen_random_uuid(), happened."affiliateId",
       row_number() OVER (PARTITION BY happened."affiliateId"
                          ORDER BY happened."at", happened."type", happened."id"),
       happened."id", happened."type", happened."status", happened."currency",
       happened."transactionValueMinor", happened."earningsMinor", happened."at"
FROM (
  SELECT placed.*, 'CREATED'::"OrderEventType" AS "type", placed."orderedAt" AS "at" FROM "Order" placed
  UNION ALL
  SELECT placed.*, 'LOCKED'::"OrderEventType", placed."lockedAt" FROM "Order" placed
  WHERE placed."lockedAt" IS NOT NULL
) happened;

INSERT INTO "OrderEventCounter" ("affiliateId", "last")
SELECT "affiliateId", max("number") FROM "OrderEvent" GROUP BY "affiliateId";

-- CreateIndex
CREATE INDEX "OrderEvent_orderId_number_idx" ON "OrderEvent"("orderId", "number");

-- CreateIndex
CREATE UNIQUE INDEX "OrderEvent_affiliateId_number_key" ON "OrderEvent"("affiliateId", "number");

-- CreateIndex
CREATE INDEX "Order_affiliateId_locksAt_id_idx" ON "Order"("affiliateId", "locksAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Order_affiliateId_status_locksAt_idx" ON "Order"("affiliateId", "status", "locksAt");

-- CreateIndex
CREATE INDEX "Order_lockedAt_locksAt_idx" ON "Order"("lockedAt", "locksAt");

-- CreateIndex
CREATE INDEX "Order_affiliateId_lockedAt_locksAt_idx" ON "Order"("affiliateId", "lockedAt", "locksAt");

-- AddForeignKey
ALTER TABLE "OrderEvent" ADD CONSTRAINT "OrderEvent_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The commission lifecycle, recorded by the database whoever writes an order (the back office
-- writes them in SQL). Times are UTC, as Prisma writes them. The rules (docs/order-lifecycle.md):
-- - an order's original amounts and lock date are set when it is recorded and kept;
-- - a rejection, or a change of the amounts, needs a `statusReason`;
-- - once `locksAt` has passed (or `lockedAt` is set) its amounts, status and sub-IDs no longer
--   change, but for the move from APPROVED to PAID.
-- The refusals name the order and the rule, as check violations of the constraint they stand for.

-- The next number of an affiliate's order events. The counter row stays locked until the writer
-- commits, so the affiliate's other writers wait: numbers become visible in their order, and a
-- reader after number n never later finds a smaller one.
CREATE FUNCTION "next_order_event_number"(affiliate uuid) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  taken bigint;
BEGIN
  UPDATE "OrderEventCounter" SET "last" = "last" + 1 WHERE "affiliateId" = affiliate
  RETURNING "last" INTO taken;
  IF taken IS NULL THEN
    INSERT INTO "OrderEventCounter" ("affiliateId", "last") VALUES (affiliate, 1)
    ON CONFLICT ("affiliateId") DO UPDATE SET "last" = "OrderEventCounter"."last" + 1
    RETURNING "last" INTO taken;
  END IF;
  RETURN taken;
END
$$;

CREATE FUNCTION "order_lifecycle_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  at timestamp(3) := now() AT TIME ZONE 'UTC';
  lock_days integer;
BEGIN
  SELECT "orderLockDays" INTO lock_days FROM "Organization" WHERE "id" = NEW."organizationId";
  NEW."originalTransactionValueMinor" := NEW."transactionValueMinor";
  NEW."originalEarningsMinor" := NEW."earningsMinor";
  -- Never before it is recorded: an order recorded late locks when recorded, so no order that can
  -- still change has a lock date before the transaction that records it.
  NEW."locksAt" := greatest(NEW."orderedAt" + make_interval(days => coalesce(lock_days, 30)), at);
  NEW."lockedAt" := NULL;
  IF NEW."status" = 'REJECTED' AND NEW."statusReason" IS NULL THEN
    RAISE EXCEPTION 'order % is recorded REJECTED without a statusReason: a rejection needs one', NEW."id"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Order_reason_required';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "Order_lifecycle_insert" BEFORE INSERT ON "Order" FOR EACH ROW
EXECUTE FUNCTION "order_lifecycle_insert"();

CREATE FUNCTION "order_lifecycle_update"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  amounts_changed boolean := (NEW."transactionValueMinor", NEW."earningsMinor")
    IS DISTINCT FROM (OLD."transactionValueMinor", OLD."earningsMinor");
  status_changed boolean := NEW."status" IS DISTINCT FROM OLD."status";
  sub_ids_changed boolean := (NEW."sub1", NEW."sub2", NEW."sub3", NEW."sub4", NEW."sub5")
    IS DISTINCT FROM (OLD."sub1", OLD."sub2", OLD."sub3", OLD."sub4", OLD."sub5");
BEGIN
  -- Kept by the database.
  NEW."originalTransactionValueMinor" := OLD."originalTransactionValueMinor";
  NEW."originalEarningsMinor" := OLD."originalEarningsMinor";
  NEW."locksAt" := OLD."locksAt";
  IF OLD."lockedAt" IS NOT NULL THEN
    NEW."lockedAt" := OLD."lockedAt";
  END IF;
  -- The clock at the stored precision: an order recorded in this transaction (its `locksAt` the
  -- transaction's start, rounded to the millisecond) is not locked before the transaction ends.
  IF (OLD."lockedAt" IS NOT NULL OR OLD."locksAt" < (now() AT TIME ZONE 'UTC')::timestamp(3))
     AND (amounts_changed OR sub_ids_changed
          OR (status_changed AND NOT (OLD."status" = 'APPROVED' AND NEW."status" = 'PAID'))) THEN
    RAISE EXCEPTION 'order % is locked since %: its amounts, status and sub-IDs no longer change, but for APPROVED to PAID',
      OLD."id", to_char(OLD."locksAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Order_locked';
  END IF;
  -- A reason explains a rejection or an adjustment: an order leaving REJECTED without a new one
  -- loses it.
  IF status_changed AND OLD."status" = 'REJECTED' AND NOT amounts_changed
     AND (NEW."statusReason", NEW."statusNote") IS NOT DISTINCT FROM (OLD."statusReason", OLD."statusNote") THEN
    NEW."statusReason" := NULL;
    NEW."statusNote" := NULL;
  END IF;
  IF (amounts_changed OR (status_changed AND NEW."status" = 'REJECTED')) AND NEW."statusReason" IS NULL THEN
    RAISE EXCEPTION 'order %: a % needs a statusReason', OLD."id",
      CASE WHEN amounts_changed THEN 'change of its amounts' ELSE 'rejection' END
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Order_reason_required';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "Order_lifecycle_update" BEFORE UPDATE ON "Order" FOR EACH ROW
EXECUTE FUNCTION "order_lifecycle_update"();

-- The order's events, in the writer's transaction: created; adjusted (before, after, reason);
-- status changed (before, after, reason); paid (with the move to PAID); locked.
CREATE FUNCTION "record_order_events"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  at timestamp(3) := now() AT TIME ZONE 'UTC';
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status", "reason",
      "note", "currency", "transactionValueMinor", "earningsMinor", "occurredAt")
    VALUES (gen_random_uuid(), NEW."affiliateId", "next_order_event_number"(NEW."affiliateId"),
      NEW."id", 'CREATED', NEW."status", NEW."statusReason", NEW."statusNote", NEW."currency",
      NEW."transactionValueMinor", NEW."earningsMinor", at);
    RETURN NULL;
  END IF;
  IF (NEW."transactionValueMinor", NEW."earningsMinor")
     IS DISTINCT FROM (OLD."transactionValueMinor", OLD."earningsMinor") THEN
    INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status", "reason",
      "note", "currency", "transactionValueMinor", "earningsMinor", "previousTransactionValueMinor",
      "previousEarningsMinor", "occurredAt")
    VALUES (gen_random_uuid(), NEW."affiliateId", "next_order_event_number"(NEW."affiliateId"),
      NEW."id", 'ADJUSTED', NEW."status", NEW."statusReason", NEW."statusNote", NEW."currency",
      NEW."transactionValueMinor", NEW."earningsMinor", OLD."transactionValueMinor",
      OLD."earningsMinor", at);
  END IF;
  IF NEW."status" IS DISTINCT FROM OLD."status" THEN
    INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status",
      "previousStatus", "reason", "note", "currency", "transactionValueMinor", "earningsMinor",
      "occurredAt")
    VALUES (gen_random_uuid(), NEW."affiliateId", "next_order_event_number"(NEW."affiliateId"),
      NEW."id", 'STATUS_CHANGED', NEW."status", OLD."status", NEW."statusReason", NEW."statusNote",
      NEW."currency", NEW."transactionValueMinor", NEW."earningsMinor", at);
    IF NEW."status" = 'PAID' THEN
      INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status",
        "previousStatus", "currency", "transactionValueMinor", "earningsMinor", "occurredAt")
      VALUES (gen_random_uuid(), NEW."affiliateId", "next_order_event_number"(NEW."affiliateId"),
        NEW."id", 'PAID', NEW."status", OLD."status", NEW."currency", NEW."transactionValueMinor",
        NEW."earningsMinor", at);
    END IF;
  END IF;
  IF OLD."lockedAt" IS NULL AND NEW."lockedAt" IS NOT NULL THEN
    INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status", "currency",
      "transactionValueMinor", "earningsMinor", "occurredAt")
    VALUES (gen_random_uuid(), NEW."affiliateId", "next_order_event_number"(NEW."affiliateId"),
      NEW."id", 'LOCKED', NEW."status", NEW."currency", NEW."transactionValueMinor",
      NEW."earningsMinor", at);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "Order_events_created" AFTER INSERT ON "Order" FOR EACH ROW
EXECUTE FUNCTION "record_order_events"();

CREATE TRIGGER "Order_events_changed" AFTER UPDATE ON "Order" FOR EACH ROW
WHEN ((OLD."status", OLD."transactionValueMinor", OLD."earningsMinor", OLD."lockedAt")
      IS DISTINCT FROM (NEW."status", NEW."transactionValueMinor", NEW."earningsMinor", NEW."lockedAt"))
EXECUTE FUNCTION "record_order_events"();

-- Marks up to `batch` orders whose lock date has passed as locked (their LOCKED events follow);
-- answers how many. Orders a writer holds are left for the next pass. Run by the orders module's
-- lock worker.
CREATE FUNCTION "lock_due_orders"(batch integer) RETURNS integer LANGUAGE sql AS $$
  WITH due AS (
    SELECT "id" FROM "Order"
    WHERE "lockedAt" IS NULL AND "locksAt" <= now() AT TIME ZONE 'UTC'
    ORDER BY "lockedAt", "locksAt"
    LIMIT batch
    FOR UPDATE SKIP LOCKED
  ), locked AS (
    UPDATE "Order" placed SET "lockedAt" = placed."locksAt"
    FROM due WHERE placed."id" = due."id"
    RETURNING 1
  )
  SELECT count(*)::integer FROM locked
$$;

-- The outbox hears of orders through their events: each order event becomes a "WebhookEvent"
-- (`order.created`, `order.status_changed`, `order.adjusted`, `order.locked`, `order.paid`) with a
-- delivery for each endpoint of the order's affiliate subscribed to it; the trigger of migration
-- postbacks adds the postbacks'. Replaces the outbox triggers on "Order" of migration
-- order_webhooks, which wrote the first two the same way.
DROP TRIGGER "Order_webhook_created" ON "Order";
DROP TRIGGER "Order_webhook_status_changed" ON "Order";
DROP FUNCTION "record_order_webhook_event"();

CREATE FUNCTION "record_order_event_webhook"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_id uuid := gen_random_uuid();
  event_type text := 'order.' || lower(NEW."type"::text);
  event_seq bigint;
BEGIN
  INSERT INTO "WebhookEvent" ("id", "type", "orderId", "status", "previousStatus", "occurredAt", "orderEventId")
  VALUES (event_id, event_type, NEW."orderId", NEW."status", NEW."previousStatus", NEW."occurredAt", NEW."id")
  RETURNING "seq" INTO event_seq;
  INSERT INTO "WebhookDelivery" ("id", "eventId", "endpointId", "orderId", "seq", "nextAttemptAt", "createdAt")
  SELECT gen_random_uuid(), event_id, endpoint."id", NEW."orderId", event_seq, NEW."occurredAt", NEW."occurredAt"
  FROM "WebhookEndpoint" endpoint
  WHERE endpoint."ownerId" = NEW."affiliateId" AND endpoint."enabled"
    AND endpoint."deletedAt" IS NULL AND event_type = ANY(endpoint."events");
  IF FOUND THEN
    PERFORM pg_notify('webhook_deliveries', TG_TABLE_SCHEMA);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "OrderEvent_webhook" AFTER INSERT ON "OrderEvent" FOR EACH ROW
EXECUTE FUNCTION "record_order_event_webhook"();
