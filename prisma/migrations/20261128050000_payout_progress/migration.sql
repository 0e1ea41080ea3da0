-- AlterTable
ALTER TABLE "Payout" ADD COLUMN     "failureReason" TEXT,
ADD COLUMN     "initiatedAt" TIMESTAMP(3);

-- A failed payout says why, in words for the affiliate (those failed before are marked unknown).
UPDATE "Payout" SET "failureReason" = 'not recorded' WHERE "status" = 'FAILED';
ALTER TABLE "Payout" ADD CONSTRAINT "Payout_failureReason_check"
  CHECK ("status" <> 'FAILED' OR "failureReason" IS NOT NULL);

-- As before (migration payouts), and: a payout's payment starts (`initiatedAt`) when it becomes
-- PROCESSING, unless the writer says when.
CREATE OR REPLACE FUNCTION "guard_payout"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."updatedAt" := now() AT TIME ZONE 'UTC';
  IF TG_OP = 'INSERT' THEN
    IF NEW."status" NOT IN ('SCHEDULED', 'PROCESSING') THEN
      RAISE EXCEPTION 'payout % is inserted %: a payout starts SCHEDULED or PROCESSING, then its items are added, then it is paid', NEW."id", NEW."status"
        USING ERRCODE = 'check_violation', CONSTRAINT = 'Payout_status';
    END IF;
    NEW."itemsMinor" := 0;
    NEW."itemCount" := 0;
    IF NEW."status" = 'PROCESSING' THEN
      NEW."initiatedAt" := coalesce(NEW."initiatedAt", now() AT TIME ZONE 'UTC');
    END IF;
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
  IF NEW."status" = 'PROCESSING' AND OLD."status" <> 'PROCESSING' THEN
    NEW."initiatedAt" := coalesce(NEW."initiatedAt", now() AT TIME ZONE 'UTC');
  END IF;
  IF NEW."status" = 'PAID' AND OLD."status" <> 'PAID' THEN
    NEW."paidAt" := coalesce(NEW."paidAt", now() AT TIME ZONE 'UTC');
  END IF;
  RETURN NEW;
END
$$;

-- As before (migration payouts), with every status its event: payout.processing when its payment
-- starts, payout.cancelled when the network cancels it (mirrors of payouts need not poll).
CREATE OR REPLACE FUNCTION "Payout_status_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unpayable record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "record_payout_webhook_event"(NEW, 'payout.scheduled', TG_TABLE_SCHEMA);
    IF NEW."status" = 'PROCESSING' THEN
      PERFORM "record_payout_webhook_event"(NEW, 'payout.processing', TG_TABLE_SCHEMA);
    END IF;
    RETURN NULL;
  END IF;
  IF NEW."status" = 'PROCESSING' THEN
    PERFORM "record_payout_webhook_event"(NEW, 'payout.processing', TG_TABLE_SCHEMA);
  ELSIF NEW."status" = 'PAID' THEN
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
    PERFORM "record_payout_webhook_event"(NEW, lower('payout.' || NEW."status"::text), TG_TABLE_SCHEMA);
  END IF;
  RETURN NULL;
END
$$;

-- As before (migration locked_order_frozen), and: an order locked before its lock date (the back
-- office finalising it early) locks then, so `locksAt` and `lockedAt` never disagree.
CREATE OR REPLACE FUNCTION "order_lifecycle_update"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  amounts_changed boolean := (NEW."transactionValueMinor", NEW."earningsMinor")
    IS DISTINCT FROM (OLD."transactionValueMinor", OLD."earningsMinor");
  status_changed boolean := NEW."status" IS DISTINCT FROM OLD."status";
  -- What a locked order may still change: its status (to PAID, below), and what the database keeps.
  moving constant text[] := ARRAY['status', 'updatedAt', 'lockedAt'];
BEGIN
  -- Kept by the database.
  NEW."originalTransactionValueMinor" := OLD."originalTransactionValueMinor";
  NEW."originalEarningsMinor" := OLD."originalEarningsMinor";
  NEW."locksAt" := OLD."locksAt";
  IF OLD."lockedAt" IS NOT NULL THEN
    NEW."lockedAt" := OLD."lockedAt";
  ELSIF NEW."lockedAt" IS NOT NULL AND NEW."lockedAt" < OLD."locksAt" THEN
    NEW."locksAt" := NEW."lockedAt";
  END IF;
  -- The clock at the stored precision: an order recorded in this transaction (its `locksAt` the
  -- transaction's start, rounded to the millisecond) is not locked before the transaction ends.
  IF (OLD."lockedAt" IS NOT NULL OR OLD."locksAt" < (now() AT TIME ZONE 'UTC')::timestamp(3))
     AND ((to_jsonb(NEW) - moving) IS DISTINCT FROM (to_jsonb(OLD) - moving)
          OR (status_changed AND NOT (OLD."status" = 'APPROVED' AND NEW."status" = 'PAID'))) THEN
    RAISE EXCEPTION 'order % is locked since %: it no longer changes, but for APPROVED to PAID',
      OLD."id", to_char(coalesce(OLD."lockedAt", OLD."locksAt"), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
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

-- The orders locked early before this rule lock when they were locked (past the rule that keeps
-- `locksAt`, for this statement alone).
ALTER TABLE "Order" DISABLE TRIGGER "Order_lifecycle_update";
UPDATE "Order" SET "locksAt" = "lockedAt" WHERE "lockedAt" < "locksAt";
ALTER TABLE "Order" ENABLE TRIGGER "Order_lifecycle_update";
