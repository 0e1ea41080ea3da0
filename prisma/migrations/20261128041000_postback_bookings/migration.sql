-- CreateEnum
CREATE TYPE "PostbackPayoutRule" AS ENUM ('EARNINGS', 'OWED', 'OWED_REVERSED');

-- AlterTable
ALTER TABLE "Postback" ADD COLUMN     "payoutRule" "PostbackPayoutRule" NOT NULL DEFAULT 'EARNINGS',
ADD COLUMN     "statuses" "OrderStatus"[] DEFAULT ARRAY[]::"OrderStatus"[],
ADD COLUMN     "typeMap" JSONB NOT NULL DEFAULT '{}';

-- A postback hears only of the events that leave the order in a status it takes (`statuses`, any
-- when empty): a tracker that books every postback it gets (Voluum) is sent final conversions only.
CREATE OR REPLACE FUNCTION "record_postback_deliveries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."orderId" IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO "WebhookDelivery" ("id", "eventId", "postbackId", "orderId", "seq", "nextAttemptAt", "createdAt")
  SELECT gen_random_uuid(), NEW."id", postback."id", NEW."orderId", NEW."seq", NEW."occurredAt", NEW."occurredAt"
  FROM "Order" placed
  JOIN "Postback" postback ON postback."ownerId" = placed."affiliateId"
  LEFT JOIN "ShortUrl" link ON link."urlCode" = placed."shortUrlCode"
  WHERE placed."id" = NEW."orderId"
    AND postback."enabled" AND postback."deletedAt" IS NULL
    AND NEW."type" = ANY(postback."events")
    AND (cardinality(postback."statuses") = 0 OR NEW."status" = ANY(postback."statuses"))
    AND (postback."brandId" IS NULL OR postback."brandId" = placed."organizationId")
    AND (postback."campaignId" IS NULL OR postback."campaignId" = link."campaignId")
    AND (postback."linkCode" IS NULL OR postback."linkCode" = placed."shortUrlCode");
  IF FOUND THEN
    PERFORM pg_notify('webhook_deliveries', TG_TABLE_SCHEMA);
  END IF;
  RETURN NULL;
END
$$;

-- A status change's event carries the reason given with that change: none where the change gave
-- none (a reason left on the order by an earlier adjustment is that adjustment's), but a rejection
-- always carries the order's, which the database requires.
CREATE OR REPLACE FUNCTION "record_order_events"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  at timestamp(3) := now() AT TIME ZONE 'UTC';
  reason_given boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status", "reason",
      "note", "currency", "transactionValueMinor", "earningsMinor", "occurredAt")
    VALUES (gen_random_uuid(), NEW."affiliateId", "next_order_event_number"(NEW."affiliateId"),
      NEW."id", 'CREATED', NEW."status", NEW."statusReason", NEW."statusNote", NEW."currency",
      NEW."transactionValueMinor", NEW."earningsMinor", at);
    RETURN NULL;
  END IF;
  reason_given := NEW."status" = 'REJECTED'
    OR (NEW."statusReason", NEW."statusNote") IS DISTINCT FROM (OLD."statusReason", OLD."statusNote");
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
      NEW."id", 'STATUS_CHANGED', NEW."status", OLD."status",
      CASE WHEN reason_given THEN NEW."statusReason" END,
      CASE WHEN reason_given THEN NEW."statusNote" END,
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
