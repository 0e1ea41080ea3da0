-- A locked order no longer changes at all, but for APPROVED to PAID: not its amounts, status or
-- sub-IDs only, but neither its currency, dates, number, note, links nor whose it is, which no
-- order event would tell the feed's readers after `finalThrough` passed it. The refusal names the
-- time the order locked.
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
