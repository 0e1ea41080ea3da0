-- DropIndex
DROP INDEX "Campaign_createdAt_id_idx";

-- DropIndex
DROP INDEX "Organization_name_id_idx";

-- DropIndex
DROP INDEX "Product_createdAt_id_idx";

-- CreateIndex
CREATE INDEX "Campaign_createdAt_id_organizationId_idx" ON "Campaign"("createdAt", "id", "organizationId");

-- CreateIndex
CREATE INDEX "Organization_name_id_onboardingStatus_approvalStatus_isActi_idx" ON "Organization"("name", "id", "onboardingStatus", "approvalStatus", "isActive", "isVisible");

-- CreateIndex
CREATE INDEX "Product_createdAt_id_organizationId_idx" ON "Product"("createdAt", "id", "organizationId");

