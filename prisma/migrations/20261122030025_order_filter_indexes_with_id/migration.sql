-- DropIndex
DROP INDEX "Order_affiliateId_organizationId_orderedAt_idx";

-- DropIndex
DROP INDEX "Order_affiliateId_status_orderedAt_idx";

-- CreateIndex
CREATE INDEX "Order_affiliateId_status_orderedAt_id_idx" ON "Order"("affiliateId", "status", "orderedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Order_affiliateId_organizationId_orderedAt_id_idx" ON "Order"("affiliateId", "organizationId", "orderedAt" DESC, "id" DESC);

