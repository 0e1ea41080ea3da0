-- CreateIndex
CREATE INDEX "WebhookDelivery_endpointId_state_seq_idx" ON "WebhookDelivery"("endpointId", "state", "seq");

-- CreateIndex
CREATE INDEX "WebhookDelivery_postbackId_state_seq_idx" ON "WebhookDelivery"("postbackId", "state", "seq");
