-- AlterTable
ALTER TABLE "Order" ALTER COLUMN "updatedAt" SET DEFAULT CURRENT_TIMESTAMP;

-- CreateIndex
CREATE INDEX "Order_affiliateId_updatedAt_id_idx" ON "Order"("affiliateId", "updatedAt", "id");

-- Orders are written by the network's other systems, in SQL: the database keeps `updatedAt`, so
-- `GET /affiliate/orders?updatedSince=` sees every change whoever makes it. `now()` is the writing
-- transaction's start, the same for every row it writes; a transaction that commits later than a
-- younger one shows an older time, which is why a syncing client keeps an overlap (README).
CREATE FUNCTION "touch_updated_at"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."updatedAt" := now();
  RETURN NEW;
END
$$;

CREATE TRIGGER "Order_updated_at" BEFORE INSERT OR UPDATE ON "Order" FOR EACH ROW
EXECUTE FUNCTION "touch_updated_at"();
