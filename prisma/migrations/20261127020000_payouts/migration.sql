-- CreateEnum
CREATE TYPE "PayoutStatus" AS ENUM ('SCHEDULED', 'PROCESSING', 'PAID', 'FAILED', 'CANCELLED');

-- CreateEnum
CREATE TYPE "BalanceState" AS ENUM ('PENDING', 'APPROVED', 'AVAILABLE', 'IN_PAYMENT', 'PAID');

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "payoutId" UUID;

-- AlterTable
ALTER TABLE "WebhookEvent" ADD COLUMN     "payoutId" UUID;

-- CreateTable
CREATE TABLE "Payout" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "affiliateId" UUID NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "amountMinor" BIGINT NOT NULL,
    "status" "PayoutStatus" NOT NULL DEFAULT 'SCHEDULED',
    "periodStart" TIMESTAMP(3) NOT NULL,
    "periodEnd" TIMESTAMP(3) NOT NULL,
    "scheduledAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "paidAt" TIMESTAMP(3),
    "method" TEXT,
    "reference" TEXT,
    "itemsMinor" BIGINT NOT NULL DEFAULT 0,
    "itemCount" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Payout_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PayoutItem" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "payoutId" UUID NOT NULL,
    "orderId" UUID NOT NULL,
    "amountMinor" INTEGER NOT NULL,
    "orderedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heldOrderId" UUID,

    CONSTRAINT "PayoutItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderBalance" (
    "orderId" UUID NOT NULL,
    "affiliateId" UUID NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "state" "BalanceState" NOT NULL,
    "earningsMinor" INTEGER NOT NULL,

    CONSTRAINT "OrderBalance_pkey" PRIMARY KEY ("orderId")
);

-- CreateTable
CREATE TABLE "AffiliateBalance" (
    "affiliateId" UUID NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "state" "BalanceState" NOT NULL,
    "orders" INTEGER NOT NULL,
    "earningsMinor" BIGINT NOT NULL,

    CONSTRAINT "AffiliateBalance_pkey" PRIMARY KEY ("affiliateId","currency","state")
);

-- CreateIndex
CREATE INDEX "Payout_affiliateId_scheduledAt_id_idx" ON "Payout"("affiliateId", "scheduledAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Payout_affiliateId_status_scheduledAt_id_idx" ON "Payout"("affiliateId", "status", "scheduledAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Payout_affiliateId_status_paidAt_idx" ON "Payout"("affiliateId", "status", "paidAt");

-- CreateIndex
CREATE UNIQUE INDEX "PayoutItem_heldOrderId_key" ON "PayoutItem"("heldOrderId");

-- CreateIndex
CREATE INDEX "PayoutItem_payoutId_orderedAt_id_idx" ON "PayoutItem"("payoutId", "orderedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "PayoutItem_orderId_idx" ON "PayoutItem"("orderId");

-- CreateIndex
CREATE UNIQUE INDEX "PayoutItem_payoutId_orderId_key" ON "PayoutItem"("payoutId", "orderId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_endpointId_payoutId_seq_idx" ON "WebhookDelivery"("endpointId", "payoutId", "seq");

-- AddForeignKey
ALTER TABLE "Payout" ADD CONSTRAINT "Payout_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PayoutItem" ADD CONSTRAINT "PayoutItem_payoutId_fkey" FOREIGN KEY ("payoutId") REFERENCES "Payout"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PayoutItem" ADD CONSTRAINT "PayoutItem_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Payouts are made by the network's back office, in SQL (docs/operating.md). The database keeps
-- them consistent whoever writes: every refusal below names the guarantee it keeps.
ALTER TABLE "Payout" ADD CONSTRAINT "Payout_currency_check" CHECK ("currency" ~ '^[A-Z]{3}$');
ALTER TABLE "Payout" ADD CONSTRAINT "Payout_amount_check" CHECK ("amountMinor" >= 0);
ALTER TABLE "Payout" ADD CONSTRAINT "Payout_period_check" CHECK ("periodStart" < "periodEnd");
ALTER TABLE "Payout" ADD CONSTRAINT "Payout_paidAt_check" CHECK (("status" = 'PAID') = ("paidAt" IS NOT NULL));
ALTER TABLE "PayoutItem" ADD CONSTRAINT "PayoutItem_held_check" CHECK ("heldOrderId" IS NULL OR "heldOrderId" = "orderId");

-- Whether an order can be paid. The one place that says so in SQL (src/modules/payouts/balance.ts
-- says the same in TypeScript).
CREATE FUNCTION "order_is_payable"(o "Order") RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT o."status" = 'APPROVED'
$$;

-- The balance state an order's earnings are counted in, given the status of the payout holding
-- it (null: none); null for an order in no balance (REJECTED).
CREATE FUNCTION "order_balance_state"(o "Order", payout_status "PayoutStatus")
RETURNS "BalanceState" LANGUAGE sql IMMUTABLE AS $$
  SELECT (CASE
    WHEN o."status" = 'PENDING' THEN 'PENDING'
    WHEN o."status" = 'PAID' THEN 'PAID'
    WHEN o."status" = 'REJECTED' THEN NULL
    WHEN payout_status IN ('SCHEDULED', 'PROCESSING') THEN 'IN_PAYMENT'
    WHEN "order_is_payable"(o) THEN 'AVAILABLE'
    ELSE 'APPROVED'
  END)::"BalanceState"
$$;

-- Counts the orders in their current balance state: each order's recorded state ("OrderBalance")
-- leaves its affiliate's total, its current one joins it, in one statement. Callers hold the
-- orders' rows locked (an order's own write, or the payout's triggers), so two writers refresh an
-- order one after the other and each reads the other's result.
CREATE FUNCTION "refresh_order_balances"(order_ids uuid[]) RETURNS void LANGUAGE sql AS $$
  WITH current AS (
    SELECT o."id", o."affiliateId", o."currency", o."earningsMinor",
      "order_balance_state"(o, held."status") AS "state"
    FROM "Order" o
    LEFT JOIN LATERAL (
      SELECT p."status" FROM "PayoutItem" i JOIN "Payout" p ON p."id" = i."payoutId"
      WHERE i."heldOrderId" = o."id"
    ) held ON true
    WHERE o."id" = ANY(order_ids)
  ), recorded AS (
    SELECT * FROM "OrderBalance" WHERE "orderId" = ANY(order_ids)
  ), changes AS (
    SELECT "affiliateId", "currency", "state", -1 AS "sign", "earningsMinor" FROM recorded
    UNION ALL
    SELECT "affiliateId", "currency", "state", 1, "earningsMinor" FROM current WHERE "state" IS NOT NULL
  ), totals AS (
    INSERT INTO "AffiliateBalance" AS balance ("affiliateId", "currency", "state", "orders", "earningsMinor")
    SELECT "affiliateId", "currency", "state", sum("sign"), sum("sign" * "earningsMinor"::bigint)
    FROM changes
    GROUP BY "affiliateId", "currency", "state"
    HAVING sum("sign") <> 0 OR sum("sign" * "earningsMinor"::bigint) <> 0
    ORDER BY "affiliateId", "currency", "state"
    ON CONFLICT ("affiliateId", "currency", "state")
    DO UPDATE SET "orders" = balance."orders" + excluded."orders",
      "earningsMinor" = balance."earningsMinor" + excluded."earningsMinor"
    RETURNING 1
  ), gone AS (
    DELETE FROM "OrderBalance" b
    WHERE b."orderId" = ANY(order_ids)
      AND NOT EXISTS (SELECT 1 FROM current c WHERE c."id" = b."orderId" AND c."state" IS NOT NULL)
    RETURNING 1
  )
  INSERT INTO "OrderBalance" AS b ("orderId", "affiliateId", "currency", "state", "earningsMinor")
  SELECT "id", "affiliateId", "currency", "state", "earningsMinor" FROM current
  WHERE "state" IS NOT NULL
  ORDER BY "id"
  ON CONFLICT ("orderId") DO UPDATE SET "affiliateId" = excluded."affiliateId",
    "currency" = excluded."currency", "state" = excluded."state",
    "earningsMinor" = excluded."earningsMinor"
  WHERE (b."affiliateId", b."currency", b."state", b."earningsMinor")
    IS DISTINCT FROM (excluded."affiliateId", excluded."currency", excluded."state", excluded."earningsMinor")
$$;

-- Every statement writing orders refreshes the balance of the orders it wrote (their rows are
-- locked by the statement itself).
CREATE FUNCTION "Order_balance"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "refresh_order_balances"(ARRAY(SELECT "id" FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "refresh_order_balances"(ARRAY(SELECT "id" FROM new_rows UNION SELECT "id" FROM old_rows));
  ELSE
    PERFORM "refresh_order_balances"(ARRAY(SELECT "id" FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "Order_balance_insert" AFTER INSERT ON "Order"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "Order_balance"();
CREATE TRIGGER "Order_balance_update" AFTER UPDATE ON "Order"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION "Order_balance"();
CREATE TRIGGER "Order_balance_delete" AFTER DELETE ON "Order"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "Order_balance"();

-- An order a payout holds keeps what the payout pays for: its status changes only when the
-- payout is paid (to PAID), and its affiliate, currency, earnings and order time do not change.
CREATE FUNCTION "guard_order_in_payout"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  held record;
BEGIN
  SELECT p."id", p."status" INTO held
  FROM "PayoutItem" i JOIN "Payout" p ON p."id" = i."payoutId"
  WHERE i."heldOrderId" = NEW."id";
  IF NOT FOUND THEN
    RETURN NEW;
  END IF;
  IF NEW."status" IS DISTINCT FROM OLD."status" AND NOT (held."status" = 'PAID' AND NEW."status" = 'PAID') THEN
    RAISE EXCEPTION 'order % is in payout % (%): only payable orders are paid, and the orders of a payout change status only when it is paid (to PAID); fail or cancel the payout to free them',
      NEW."id", held."id", held."status"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Order_in_payout';
  END IF;
  IF (NEW."affiliateId", NEW."currency", NEW."earningsMinor", NEW."orderedAt")
     IS DISTINCT FROM (OLD."affiliateId", OLD."currency", OLD."earningsMinor", OLD."orderedAt") THEN
    RAISE EXCEPTION 'order % is in payout % (%): a payout''s amount is the sum of its items, so its orders keep their affiliate, currency, earnings and order time',
      NEW."id", held."id", held."status"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Order_in_payout';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "Order_in_payout" BEFORE UPDATE OF "status", "affiliateId", "currency", "earningsMinor", "orderedAt" ON "Order"
FOR EACH ROW EXECUTE FUNCTION "guard_order_in_payout"();

-- A payout starts SCHEDULED or PROCESSING, without items (they are added after it); its status
-- moves forward only (SCHEDULED -> PROCESSING -> PAID, FAILED or CANCELLED); PAID, FAILED and
-- CANCELLED are final, and a final payout's items and amount do not change. Its affiliate and
-- currency never change. "itemsMinor" and "itemCount" are the database's own.
CREATE FUNCTION "guard_payout"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."updatedAt" := now() AT TIME ZONE 'UTC';
  IF TG_OP = 'INSERT' THEN
    IF NEW."status" NOT IN ('SCHEDULED', 'PROCESSING') THEN
      RAISE EXCEPTION 'payout % is inserted %: a payout starts SCHEDULED or PROCESSING, then its items are added, then it is paid', NEW."id", NEW."status"
        USING ERRCODE = 'check_violation', CONSTRAINT = 'Payout_status';
    END IF;
    NEW."itemsMinor" := 0;
    NEW."itemCount" := 0;
    RETURN NEW;
  END IF;
  IF (NEW."affiliateId", NEW."currency") IS DISTINCT FROM (OLD."affiliateId", OLD."currency") THEN
    RAISE EXCEPTION 'payout %: a payout keeps its affiliate and currency (a payout''s amount is the sum of its items, in its currency)', NEW."id"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Payout_currency';
  END IF;
  IF (NEW."itemsMinor", NEW."itemCount") IS DISTINCT FROM (OLD."itemsMinor", OLD."itemCount")
     AND pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'payout %: itemsMinor and itemCount are kept by the database from the payout''s items', NEW."id"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Payout_items_sum';
  END IF;
  IF OLD."status" IN ('PAID', 'FAILED', 'CANCELLED') THEN
    IF NEW."status" <> OLD."status" THEN
      RAISE EXCEPTION 'payout % is %: a paid, failed or cancelled payout keeps its status', NEW."id", OLD."status"
        USING ERRCODE = 'check_violation', CONSTRAINT = 'Payout_status';
    END IF;
    IF (NEW."amountMinor", NEW."itemsMinor", NEW."itemCount") IS DISTINCT FROM (OLD."amountMinor", OLD."itemsMinor", OLD."itemCount") THEN
      RAISE EXCEPTION 'payout % is %: a paid, failed or cancelled payout keeps its items and amount', NEW."id", OLD."status"
        USING ERRCODE = 'check_violation', CONSTRAINT = 'Payout_status';
    END IF;
  ELSIF NEW."status" = 'SCHEDULED' AND OLD."status" = 'PROCESSING' THEN
    RAISE EXCEPTION 'payout % is PROCESSING: a payout''s status moves forward only', NEW."id"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Payout_status';
  END IF;
  IF NEW."status" = 'PAID' AND OLD."status" <> 'PAID' THEN
    NEW."paidAt" := coalesce(NEW."paidAt", now() AT TIME ZONE 'UTC');
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "Payout_guard" BEFORE INSERT OR UPDATE ON "Payout"
FOR EACH ROW EXECUTE FUNCTION "guard_payout"();

-- At commit, a payout amounts to the sum of its items ("itemsMinor", kept below). Deferred: the
-- payout is written first, then its items.
CREATE FUNCTION "check_payout_amount"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  payout record;
BEGIN
  SELECT "id", "amountMinor", "itemsMinor", "currency" INTO payout FROM "Payout" WHERE "id" = NEW."id";
  IF FOUND AND payout."amountMinor" <> payout."itemsMinor" THEN
    RAISE EXCEPTION 'payout % amounts to % but its items sum to % (minor units of %): a payout''s amount is the sum of its items, in its currency',
      payout."id", payout."amountMinor", payout."itemsMinor", payout."currency"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Payout_items_sum';
  END IF;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER "Payout_items_sum" AFTER INSERT OR UPDATE ON "Payout"
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "check_payout_amount"();

-- An item pays a payable order of the payout's affiliate, in the payout's currency, its earnings;
-- while the payout is SCHEDULED or PROCESSING; and the order is in no other payout that holds it.
-- The payout and the order are locked (FOR SHARE) before anything is read: a payout being paid,
-- or an order changing status, waits for this item's transaction or is seen by it.
CREATE FUNCTION "guard_payout_item"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  payout record;
  placed "Order";
  other uuid;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF (NEW."payoutId", NEW."orderId", NEW."amountMinor", NEW."orderedAt")
       IS DISTINCT FROM (OLD."payoutId", OLD."orderId", OLD."amountMinor", OLD."orderedAt") THEN
      RAISE EXCEPTION 'payout item %: an item does not change; delete it and add another while its payout is SCHEDULED or PROCESSING', NEW."id"
        USING ERRCODE = 'check_violation', CONSTRAINT = 'PayoutItem_fixed';
    END IF;
    SELECT p."status" INTO payout FROM "Payout" p WHERE p."id" = NEW."payoutId";
    NEW."heldOrderId" := CASE WHEN payout."status" IN ('FAILED', 'CANCELLED') THEN NULL ELSE NEW."orderId" END;
    RETURN NEW;
  END IF;
  SELECT p."id", p."affiliateId", p."currency", p."status" INTO payout
  FROM "Payout" p WHERE p."id" = NEW."payoutId" FOR SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'payout % not found: a payout is written before its items, in an earlier statement', NEW."payoutId"
      USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'PayoutItem_payoutId_fkey';
  END IF;
  IF payout."status" NOT IN ('SCHEDULED', 'PROCESSING') THEN
    RAISE EXCEPTION 'payout % is %: a paid, failed or cancelled payout keeps its items', payout."id", payout."status"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Payout_status';
  END IF;
  SELECT * INTO placed FROM "Order" o WHERE o."id" = NEW."orderId" FOR SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'order % not found', NEW."orderId"
      USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'PayoutItem_orderId_fkey';
  END IF;
  IF placed."affiliateId" <> payout."affiliateId" THEN
    RAISE EXCEPTION 'order % is not the affiliate''s of payout %: a payout pays its own affiliate''s orders', placed."id", payout."id"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'PayoutItem_affiliate';
  END IF;
  IF placed."currency" <> payout."currency" THEN
    RAISE EXCEPTION 'order % is in %, payout % in %: a payout''s amount is the sum of its items, in its currency',
      placed."id", placed."currency", payout."id", payout."currency"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'PayoutItem_currency';
  END IF;
  IF NOT "order_is_payable"(placed) THEN
    RAISE EXCEPTION 'order % is % and not payable: only payable (approved) orders are paid', placed."id", placed."status"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'PayoutItem_payable';
  END IF;
  IF NEW."amountMinor" <> placed."earningsMinor" THEN
    RAISE EXCEPTION 'the item of order % pays % but the order earned % (minor units): a payout''s items pay their orders'' earnings',
      placed."id", NEW."amountMinor", placed."earningsMinor"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'PayoutItem_amount';
  END IF;
  SELECT i."payoutId" INTO other FROM "PayoutItem" i WHERE i."heldOrderId" = NEW."orderId";
  IF FOUND THEN
    RAISE EXCEPTION 'order % is already in payout %: an order is in at most one payout that is not cancelled or failed', NEW."orderId", other
      USING ERRCODE = 'unique_violation', CONSTRAINT = 'PayoutItem_heldOrderId_key';
  END IF;
  NEW."heldOrderId" := NEW."orderId";
  NEW."orderedAt" := placed."orderedAt";
  RETURN NEW;
END
$$;

CREATE TRIGGER "PayoutItem_guard" BEFORE INSERT OR UPDATE ON "PayoutItem"
FOR EACH ROW EXECUTE FUNCTION "guard_payout_item"();

-- Each statement writing items adds them to their payouts' sums and counts (in payout order, so
-- two statements lock payouts in the same order) and refreshes their orders' balance.
CREATE FUNCTION "PayoutItem_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "Payout" p SET "itemsMinor" = p."itemsMinor" + added."minor", "itemCount" = p."itemCount" + added."items"
    FROM (SELECT "payoutId", sum("amountMinor") AS "minor", count(*) AS "items" FROM new_rows GROUP BY "payoutId") added
    WHERE p."id" = added."payoutId";
    PERFORM "refresh_order_balances"(ARRAY(SELECT "orderId" FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM 1 FROM "Order" WHERE "id" IN (SELECT "orderId" FROM old_rows) ORDER BY "id" FOR NO KEY UPDATE;
    UPDATE "Payout" p SET "itemsMinor" = p."itemsMinor" - removed."minor", "itemCount" = p."itemCount" - removed."items"
    FROM (SELECT "payoutId", sum("amountMinor") AS "minor", count(*) AS "items" FROM old_rows GROUP BY "payoutId") removed
    WHERE p."id" = removed."payoutId";
    PERFORM "refresh_order_balances"(ARRAY(SELECT "orderId" FROM old_rows));
  ELSE
    PERFORM "refresh_order_balances"(ARRAY(SELECT "orderId" FROM new_rows));
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "PayoutItem_totals_insert" AFTER INSERT ON "PayoutItem"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "PayoutItem_totals"();
CREATE TRIGGER "PayoutItem_totals_update" AFTER UPDATE ON "PayoutItem"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION "PayoutItem_totals"();
CREATE TRIGGER "PayoutItem_totals_delete" AFTER DELETE ON "PayoutItem"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "PayoutItem_totals"();

-- Payout events go through the outbox as order events do (migration order_webhooks): an event,
-- and a delivery for each endpoint of the payout's affiliate subscribed to its type, in the
-- writer's transaction. They carry no order, so no postback takes them (migration postbacks).
CREATE FUNCTION "record_payout_webhook_event"(payout "Payout", event_type text, schema_name text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  event_id uuid := gen_random_uuid();
  event_seq bigint;
  at timestamp(3) := now() AT TIME ZONE 'UTC';
BEGIN
  INSERT INTO "WebhookEvent" ("id", "type", "payoutId", "occurredAt")
  VALUES (event_id, event_type, payout."id", at)
  RETURNING "seq" INTO event_seq;
  INSERT INTO "WebhookDelivery" ("id", "eventId", "endpointId", "payoutId", "seq", "nextAttemptAt", "createdAt")
  SELECT gen_random_uuid(), event_id, endpoint."id", payout."id", event_seq, at, at
  FROM "WebhookEndpoint" endpoint
  WHERE endpoint."ownerId" = payout."affiliateId" AND endpoint."enabled"
    AND endpoint."deletedAt" IS NULL AND event_type = ANY(endpoint."events");
  IF FOUND THEN
    PERFORM pg_notify('webhook_deliveries', schema_name);
  END IF;
END
$$;

-- What a payout's status change does, in the writer's transaction: PAID makes its orders PAID
-- (each an order.status_changed event; only payable orders are paid); FAILED and CANCELLED free its
-- orders. Then its event: payout.scheduled when written, payout.paid, payout.failed.
CREATE FUNCTION "Payout_status_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unpayable record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "record_payout_webhook_event"(NEW, 'payout.scheduled', TG_TABLE_SCHEMA);
    RETURN NULL;
  END IF;
  IF NEW."status" = 'PAID' THEN
    PERFORM 1 FROM "Order" WHERE "id" IN (SELECT "orderId" FROM "PayoutItem" WHERE "payoutId" = NEW."id")
    ORDER BY "id" FOR NO KEY UPDATE;
    SELECT o."id", o."status" INTO unpayable
    FROM "PayoutItem" i JOIN "Order" o ON o."id" = i."orderId"
    WHERE i."payoutId" = NEW."id" AND NOT "order_is_payable"(o)
    LIMIT 1;
    IF FOUND THEN
      RAISE EXCEPTION 'payout % cannot be paid: its order % is % and not payable (only payable orders are paid)', NEW."id", unpayable."id", unpayable."status"
        USING ERRCODE = 'check_violation', CONSTRAINT = 'PayoutItem_payable';
    END IF;
    UPDATE "Order" SET "status" = 'PAID'
    WHERE "id" IN (SELECT "orderId" FROM "PayoutItem" WHERE "payoutId" = NEW."id");
    PERFORM "record_payout_webhook_event"(NEW, 'payout.paid', TG_TABLE_SCHEMA);
  ELSIF NEW."status" IN ('FAILED', 'CANCELLED') THEN
    PERFORM 1 FROM "Order" WHERE "id" IN (SELECT "orderId" FROM "PayoutItem" WHERE "payoutId" = NEW."id")
    ORDER BY "id" FOR NO KEY UPDATE;
    UPDATE "PayoutItem" SET "heldOrderId" = NULL WHERE "payoutId" = NEW."id";
    IF NEW."status" = 'FAILED' THEN
      PERFORM "record_payout_webhook_event"(NEW, 'payout.failed', TG_TABLE_SCHEMA);
    END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "Payout_scheduled" AFTER INSERT ON "Payout"
FOR EACH ROW EXECUTE FUNCTION "Payout_status_changed"();
CREATE TRIGGER "Payout_status_changed" AFTER UPDATE OF "status" ON "Payout"
FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status")
EXECUTE FUNCTION "Payout_status_changed"();

-- The existing orders' balance, in one pass (no payout exists yet). Creating the triggers locked
-- "Order" against writes until this migration commits, so no order falls between the two.
INSERT INTO "OrderBalance" ("orderId", "affiliateId", "currency", "state", "earningsMinor")
SELECT o."id", o."affiliateId", o."currency", "order_balance_state"(o, NULL), o."earningsMinor"
FROM "Order" o
WHERE "order_balance_state"(o, NULL) IS NOT NULL;

INSERT INTO "AffiliateBalance" ("affiliateId", "currency", "state", "orders", "earningsMinor")
SELECT "affiliateId", "currency", "state", count(*), sum("earningsMinor")
FROM "OrderBalance"
GROUP BY 1, 2, 3;
