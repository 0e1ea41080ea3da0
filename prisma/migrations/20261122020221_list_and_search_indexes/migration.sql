-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm" WITH SCHEMA "public";

-- DropIndex
DROP INDEX "Order_affiliateId_orderedAt_id_idx";

-- DropIndex
DROP INDEX "Organization_name_idx";

-- DropIndex
DROP INDEX "ShortUrl_affiliateId_active_createdAt_idx";

-- CreateIndex
CREATE INDEX "Order_affiliateId_orderedAt_id_idx" ON "Order"("affiliateId", "orderedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Order_orderNumber_trgm_idx" ON "Order" USING GIN ("orderNumber" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Organization_name_id_idx" ON "Organization"("name", "id");

-- CreateIndex
CREATE INDEX "ShortUrl_affiliateId_active_createdAt_id_idx" ON "ShortUrl"("affiliateId", "active", "createdAt", "id");

-- CreateIndex
CREATE INDEX "ShortUrl_originalUrl_trgm_idx" ON "ShortUrl" USING GIN ("originalUrl" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "ShortUrl_urlCode_trgm_idx" ON "ShortUrl" USING GIN ("urlCode" gin_trgm_ops);

