-- DropIndex
DROP INDEX "ShortUrl_affiliateId_organizationId_idx";

-- CreateIndex
CREATE INDEX "ShortUrl_affiliateId_organizationId_linkType_active_created_idx" ON "ShortUrl"("affiliateId", "organizationId", "linkType", "active", "createdAt", "id");

