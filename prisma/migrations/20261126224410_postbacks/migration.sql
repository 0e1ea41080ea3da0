-- CreateEnum
CREATE TYPE "PostbackMethod" AS ENUM ('GET', 'POST');

-- CreateEnum
CREATE TYPE "PostbackBodyFormat" AS ENUM ('FORM', 'JSON');

-- AlterTable
ALTER TABLE "WebhookAttempt" ADD COLUMN     "requestBody" TEXT,
ADD COLUMN     "requestMethod" TEXT,
ADD COLUMN     "requestUrl" TEXT;

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "isReplay" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "postbackId" UUID,
ALTER COLUMN "endpointId" DROP NOT NULL;

-- CreateTable
CREATE TABLE "Postback" (
    "id" UUID NOT NULL,
    "ownerId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "events" TEXT[],
    "brandId" UUID,
    "campaignId" UUID,
    "linkCode" TEXT,
    "method" "PostbackMethod" NOT NULL,
    "urlTemplate" TEXT NOT NULL,
    "bodyFormat" "PostbackBodyFormat",
    "bodyTemplate" TEXT,
    "statusMap" JSONB NOT NULL,
    "successText" TEXT,
    "secret" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "failingSince" TIMESTAMP(3),
    "disabledAt" TIMESTAMP(3),
    "disabledReason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "Postback_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Postback_ownerId_createdAt_idx" ON "Postback"("ownerId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_postbackId_orderId_seq_idx" ON "WebhookDelivery"("postbackId", "orderId", "seq");

-- CreateIndex
CREATE INDEX "WebhookDelivery_postbackId_createdAt_idx" ON "WebhookDelivery"("postbackId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_eventId_postbackId_key" ON "WebhookDelivery"("eventId", "postbackId");

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_postbackId_fkey" FOREIGN KEY ("postbackId") REFERENCES "Postback"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Postback" ADD CONSTRAINT "Postback_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A delivery goes to exactly one target: a webhook endpoint or a postback.
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_one_target"
  CHECK (num_nonnulls("endpointId", "postbackId") = 1);

-- Postbacks hear of order events through the outbox: every event an order trigger records in
-- "WebhookEvent" gets a delivery for each enabled postback of the order's affiliate that takes the
-- event's type and whose scope (a brand, a campaign through the order's link, a link) holds the
-- order, in the writer's own transaction (a rolled-back change sends nothing). The order triggers
-- (record_order_webhook_event) are untouched: this trigger only reads the events they write.
-- Events without an order (webhook tests) and of types no postback takes (replays) add nothing.
CREATE FUNCTION "record_postback_deliveries"() RETURNS trigger LANGUAGE plpgsql AS $$
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
    AND (postback."brandId" IS NULL OR postback."brandId" = placed."organizationId")
    AND (postback."campaignId" IS NULL OR postback."campaignId" = link."campaignId")
    AND (postback."linkCode" IS NULL OR postback."linkCode" = placed."shortUrlCode");
  IF FOUND THEN
    PERFORM pg_notify('webhook_deliveries', TG_TABLE_SCHEMA);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "WebhookEvent_postback_deliveries" AFTER INSERT ON "WebhookEvent" FOR EACH ROW
EXECUTE FUNCTION "record_postback_deliveries"();
