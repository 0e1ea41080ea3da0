-- CreateEnum
CREATE TYPE "WebhookEndpointEventKind" AS ENUM ('CREATED', 'UPDATED', 'DELETED', 'SECRET_ROTATED', 'REDELIVERY_REQUESTED', 'TEST_SENT', 'DISABLED');

-- CreateEnum
CREATE TYPE "WebhookDeliveryState" AS ENUM ('PENDING', 'DELIVERED', 'FAILED');

-- CreateTable
CREATE TABLE "WebhookEndpoint" (
    "id" UUID NOT NULL,
    "ownerId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "description" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "secret" TEXT NOT NULL,
    "previousSecret" TEXT,
    "previousSecretExpiresAt" TIMESTAMP(3),
    "failingSince" TIMESTAMP(3),
    "disabledAt" TIMESTAMP(3),
    "disabledReason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "WebhookEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookEndpointEvent" (
    "id" UUID NOT NULL,
    "endpointId" UUID NOT NULL,
    "kind" "WebhookEndpointEventKind" NOT NULL,
    "actorUserId" UUID,
    "ip" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookEndpointEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookEvent" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "type" TEXT NOT NULL,
    "orderId" UUID,
    "status" "OrderStatus",
    "previousStatus" "OrderStatus",
    "occurredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "payload" TEXT,

    CONSTRAINT "WebhookEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" UUID NOT NULL,
    "eventId" UUID NOT NULL,
    "endpointId" UUID NOT NULL,
    "orderId" UUID,
    "seq" BIGINT NOT NULL,
    "state" "WebhookDeliveryState" NOT NULL DEFAULT 'PENDING',
    "attemptCount" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" UUID NOT NULL,
    "deliveryId" UUID NOT NULL,
    "attemptedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "statusCode" INTEGER,
    "durationMs" INTEGER NOT NULL,
    "error" TEXT,
    "responseBody" TEXT,

    CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookEndpoint_ownerId_createdAt_idx" ON "WebhookEndpoint"("ownerId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookEndpointEvent_endpointId_createdAt_idx" ON "WebhookEndpointEvent"("endpointId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_state_nextAttemptAt_idx" ON "WebhookDelivery"("state", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_endpointId_orderId_seq_idx" ON "WebhookDelivery"("endpointId", "orderId", "seq");

-- CreateIndex
CREATE INDEX "WebhookDelivery_endpointId_createdAt_idx" ON "WebhookDelivery"("endpointId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_eventId_endpointId_key" ON "WebhookDelivery"("eventId", "endpointId");

-- CreateIndex
CREATE INDEX "WebhookAttempt_deliveryId_attemptedAt_idx" ON "WebhookAttempt"("deliveryId", "attemptedAt");

-- AddForeignKey
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookEndpointEvent" ADD CONSTRAINT "WebhookEndpointEvent_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "WebhookEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Orders are written by the network's other systems, in SQL: the database records every insert and
-- status change in the outbox ("WebhookEvent"), with a delivery for each endpoint of the order's
-- affiliate subscribed to the event, in the writer's own transaction (a rolled-back change sends
-- nothing). Dispatchers are woken at commit on the channel `webhook_deliveries` (payload: the
-- schema); they poll too, so a missed notification only delays. Times are UTC, as Prisma writes them.
CREATE FUNCTION "record_order_webhook_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_id uuid := gen_random_uuid();
  event_type text := CASE TG_OP WHEN 'INSERT' THEN 'order.created' ELSE 'order.status_changed' END;
  event_seq bigint;
  at timestamp(3) := now() AT TIME ZONE 'UTC';
BEGIN
  INSERT INTO "WebhookEvent" ("id", "type", "orderId", "status", "previousStatus", "occurredAt")
  VALUES (event_id, event_type, NEW."id", NEW."status",
          CASE TG_OP WHEN 'UPDATE' THEN OLD."status" END, at)
  RETURNING "seq" INTO event_seq;
  INSERT INTO "WebhookDelivery" ("id", "eventId", "endpointId", "orderId", "seq", "nextAttemptAt", "createdAt")
  SELECT gen_random_uuid(), event_id, endpoint."id", NEW."id", event_seq, at, at
  FROM "WebhookEndpoint" endpoint
  WHERE endpoint."ownerId" = NEW."affiliateId" AND endpoint."enabled"
    AND endpoint."deletedAt" IS NULL AND event_type = ANY(endpoint."events");
  IF FOUND THEN
    PERFORM pg_notify('webhook_deliveries', TG_TABLE_SCHEMA);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "Order_webhook_created" AFTER INSERT ON "Order" FOR EACH ROW
EXECUTE FUNCTION "record_order_webhook_event"();

CREATE TRIGGER "Order_webhook_status_changed" AFTER UPDATE OF "status" ON "Order" FOR EACH ROW
WHEN (OLD."status" IS DISTINCT FROM NEW."status")
EXECUTE FUNCTION "record_order_webhook_event"();
