-- CreateIndex
CREATE INDEX "Organization_name_trgm_idx" ON "Organization" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "ShortUrl_affiliateId_active_linkType_createdAt_id_idx" ON "ShortUrl"("affiliateId", "active", "linkType", "createdAt", "id");

