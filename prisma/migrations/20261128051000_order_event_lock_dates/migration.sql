-- Every order event carries the order's lock date after it, so the change feed's readers know when
-- each order becomes final without reading the order again (docs/order-lifecycle.md).
ALTER TABLE "OrderEvent" ADD COLUMN "locksAt" TIMESTAMP(3);
UPDATE "OrderEvent" e SET "locksAt" = o."locksAt" FROM "Order" o WHERE o."id" = e."orderId";
ALTER TABLE "OrderEvent" ALTER COLUMN "locksAt" SET NOT NULL;

-- As before (migration postback_bookings), each event with the order's lock date.
CREATE OR REPLACE FUNCTION "record_order_events"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  at timestamp(3) := now() AT TIME ZONE 'UTC';
  reason_given boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status", "reason",
      "note", "currency", "transactionValueMinor", "earningsMinor", "locksAt", "occurredAt")
    VALUES (gen_random_uuid(), NEW."affiliateId", "next_order_event_number"(NEW."affiliateId"),
      NEW."id", 'CREATED', NEW."status", NEW."statusReason", NEW."statusNote", NEW."currency",
      NEW."transactionValueMinor", NEW."earningsMinor", NEW."locksAt", at);
    RETURN NULL;
  END IF;
  reason_given := NEW."status" = 'REJECTED'
    OR (NEW."statusReason", NEW."statusNote") IS DISTINCT FROM (OLD."statusReason", OLD."statusNote");
  IF (NEW."transactionValueMinor", NEW."earningsMinor")
     IS DISTINCT FROM (OLD."transactionValueMinor", OLD."earningsMinor") THEN
    INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status", "reason",
      "note", "currency", "transactionValueMinor", "earningsMinor", "previousTransactionValueMinor",
      "previousEarningsMinor", "locksAt", "occurredAt")
    VALUES (gen_random_uuid(), NEW."affiliateId", "next_order_event_number"(NEW."affiliateId"),
      NEW."id", 'ADJUSTED', NEW."status", NEW."statusReason", NEW."statusNote", NEW."currency",
      NEW."transactionValueMinor", NEW."earningsMinor", OLD."transactionValueMinor",
      OLD."earningsMinor", NEW."locksAt", at);
  END IF;
  IF NEW."status" IS DISTINCT FROM OLD."status" THEN
    INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status",
      "previousStatus", "reason", "note", "currency", "transactionValueMinor", "earningsMinor",
      "locksAt", "occurredAt")
    VALUES (gen_random_uuid(), NEW."affiliateId", "next_order_event_number"(NEW."affiliateId"),
      NEW."id", 'STATUS_CHANGED', NEW."status", OLD."status",
      CASE WHEN reason_given THEN NEW."statusReason" END,
      CASE WHEN reason_given THEN NEW."statusNote" END,
      NEW."currency", NEW."transactionValueMinor", NEW."earningsMinor", NEW."locksAt", at);
    IF NEW."status" = 'PAID' THEN
      INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status",
        "previousStatus", "currency", "transactionValueMinor", "earningsMinor", "locksAt",
        "occurredAt")
      VALUES (gen_random_uuid(), NEW."affiliateId", "next_order_event_number"(NEW."affiliateId"),
        NEW."id", 'PAID', NEW."status", OLD."status", NEW."currency", NEW."transactionValueMinor",
        NEW."earningsMinor", NEW."locksAt", at);
    END IF;
  END IF;
  IF OLD."lockedAt" IS NULL AND NEW."lockedAt" IS NOT NULL THEN
    INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status", "currency",
      "transactionValueMinor", "earningsMinor", "locksAt", "occurredAt")
    VALUES (gen_random_uuid(), NEW."affiliateId", "next_order_event_number"(NEW."affiliateId"),
      NEW."id", 'LOCKED', NEW."status", NEW."currency", NEW."transactionValueMinor",
      NEW."earningsMinor", NEW."locksAt", at);
  END IF;
  RETURN NULL;
END
$$;
