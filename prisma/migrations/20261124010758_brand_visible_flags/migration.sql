-- DropIndex
DROP INDEX "Campaign_createdAt_id_organizationId_idx";

-- DropIndex
DROP INDEX "Product_createdAt_id_organizationId_idx";

-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "brandVisible" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Product" ADD COLUMN     "brandVisible" BOOLEAN NOT NULL DEFAULT false;

-- Campaigns and products are listed only while their brand is visible. The flag carries the
-- brand's visibility onto each row, so lists, counts and deep pages filter on the row's own index
-- instead of looking up every brand. The rule, as src/schema/visibility.ts states it for queries:
CREATE FUNCTION "is_visible_brand"(brand "Organization") RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT brand."onboardingStatus" = 'COMPLETED' AND brand."approvalStatus" = 'APPROVED'
    AND brand."isActive" AND brand."isVisible"
$$;

-- Filled before the indexes are built, with brand writes held off until the triggers below are
-- in place (this migration is one transaction): a visibility change between the fill and the
-- triggers would be lost.
LOCK TABLE "Organization" IN SHARE ROW EXCLUSIVE MODE;

UPDATE "Campaign" AS c SET "brandVisible" = true
FROM "Organization" AS o WHERE o."id" = c."organizationId" AND "is_visible_brand"(o);

UPDATE "Product" AS p SET "brandVisible" = true
FROM "Organization" AS o WHERE o."id" = p."organizationId" AND "is_visible_brand"(o);

-- CreateIndex
CREATE INDEX "Campaign_createdAt_id_brandVisible_organizationId_idx" ON "Campaign"("createdAt", "id", "brandVisible", "organizationId");

-- CreateIndex
CREATE INDEX "Product_createdAt_id_brandVisible_organizationId_idx" ON "Product"("createdAt", "id", "brandVisible", "organizationId");


-- A new or moved campaign or product takes its brand's visibility. FOR SHARE waits for a
-- concurrent change of that visibility to commit (and holds it off until this row is committed),
-- so the change's propagation below always sees this row.
CREATE FUNCTION "take_brand_visibility"() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
BEGIN
  SELECT "is_visible_brand"(o) INTO NEW."brandVisible"
    FROM "Organization" AS o WHERE o."id" = NEW."organizationId" FOR SHARE;
  -- No such brand: the foreign key refuses the row, and false keeps NOT NULL from refusing it first.
  NEW."brandVisible" := coalesce(NEW."brandVisible", false);
  RETURN NEW;
END
$$;

CREATE TRIGGER "Campaign_take_brand_visibility" BEFORE INSERT OR UPDATE OF "organizationId", "brandVisible"
  ON "Campaign" FOR EACH ROW WHEN (pg_trigger_depth() = 0) EXECUTE FUNCTION "take_brand_visibility"();

CREATE TRIGGER "Product_take_brand_visibility" BEFORE INSERT OR UPDATE OF "organizationId", "brandVisible"
  ON "Product" FOR EACH ROW WHEN (pg_trigger_depth() = 0) EXECUTE FUNCTION "take_brand_visibility"();

-- A brand whose visibility changes passes it on to its campaigns and products.
CREATE FUNCTION "pass_on_brand_visibility"() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
DECLARE
  visible boolean := "is_visible_brand"(NEW);
BEGIN
  UPDATE "Campaign" SET "brandVisible" = visible
    WHERE "organizationId" = NEW."id" AND "brandVisible" <> visible;
  UPDATE "Product" SET "brandVisible" = visible
    WHERE "organizationId" = NEW."id" AND "brandVisible" <> visible;
  RETURN NULL;
END
$$;

CREATE TRIGGER "Organization_pass_on_brand_visibility"
  AFTER UPDATE OF "onboardingStatus", "approvalStatus", "isActive", "isVisible" ON "Organization"
  FOR EACH ROW EXECUTE FUNCTION "pass_on_brand_visibility"();
