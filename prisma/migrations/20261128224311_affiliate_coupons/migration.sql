-- CreateTable
CREATE TABLE "AffiliateCoupon" (
    "affiliateId" UUID NOT NULL,
    "campaignId" UUID NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AffiliateCoupon_pkey" PRIMARY KEY ("affiliateId","campaignId")
);

-- CreateIndex
CREATE INDEX "AffiliateCoupon_affiliateId_createdAt_campaignId_idx" ON "AffiliateCoupon"("affiliateId", "createdAt", "campaignId");

-- CreateIndex
CREATE INDEX "AffiliateCoupon_campaignId_idx" ON "AffiliateCoupon"("campaignId");

-- AddForeignKey
ALTER TABLE "AffiliateCoupon" ADD CONSTRAINT "AffiliateCoupon_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AffiliateCoupon" ADD CONSTRAINT "AffiliateCoupon_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The coupons whose code is an affiliate's to use: a PersonalCoupon with a code for it, a
-- GenericCoupon with a code of a brand it has terms with. GET /affiliate/coupons tests one row per
-- campaign; asked of the personal codes and the brands' terms, it tested both for every coupon it
-- walked past (a deep page of a big account read 1,000,000 campaigns' worth of them). Each row
-- keeps its campaign's "createdAt", the list's order.

-- A campaign's affiliates, as they are now.
CREATE FUNCTION "take_affiliate_coupons"(campaign uuid) RETURNS void LANGUAGE sql AS $$
  DELETE FROM "AffiliateCoupon" WHERE "campaignId" = campaign;
  INSERT INTO "AffiliateCoupon" ("affiliateId", "campaignId", "createdAt")
  SELECT personal."affiliateId", coupon."id", coupon."createdAt" FROM "Campaign" coupon
  JOIN "PersonalCouponCode" personal ON personal."campaignId" = coupon."id"
  WHERE coupon."id" = campaign AND coupon."type" = 'PersonalCoupon'
  UNION
  SELECT terms."affiliateId", coupon."id", coupon."createdAt" FROM "Campaign" coupon
  JOIN "AffiliateBrand" terms ON terms."organizationId" = coupon."organizationId"
  WHERE coupon."id" = campaign AND coupon."type" = 'GenericCoupon' AND coupon."code" IS NOT NULL;
$$;

CREATE FUNCTION "campaign_coupon_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "take_affiliate_coupons"(NEW."id");
  RETURN NULL;
END
$$;

-- A new PersonalCoupon has no codes yet; a GenericCoupon with a code is every brand affiliate's.
CREATE TRIGGER "Campaign_take_affiliate_coupons_new"
  AFTER INSERT ON "Campaign"
  FOR EACH ROW WHEN (NEW."type" = 'GenericCoupon' AND NEW."code" IS NOT NULL)
  EXECUTE FUNCTION "campaign_coupon_changed"();

CREATE TRIGGER "Campaign_take_affiliate_coupons"
  AFTER UPDATE OF "type", "code", "organizationId", "createdAt" ON "Campaign"
  FOR EACH ROW WHEN (OLD."type" IS DISTINCT FROM NEW."type"
    OR (OLD."code" IS NULL) <> (NEW."code" IS NULL)
    OR OLD."organizationId" IS DISTINCT FROM NEW."organizationId"
    OR OLD."createdAt" IS DISTINCT FROM NEW."createdAt")
  EXECUTE FUNCTION "campaign_coupon_changed"();

-- A personal code issued or withdrawn: its PersonalCoupon is, or is no longer, the affiliate's.
CREATE FUNCTION "personal_coupon_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM "AffiliateCoupon" member USING "Campaign" coupon
    WHERE member."affiliateId" = OLD."affiliateId" AND member."campaignId" = OLD."campaignId"
      AND coupon."id" = OLD."campaignId" AND coupon."type" = 'PersonalCoupon';
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "AffiliateCoupon" ("affiliateId", "campaignId", "createdAt")
    SELECT NEW."affiliateId", coupon."id", coupon."createdAt" FROM "Campaign" coupon
    WHERE coupon."id" = NEW."campaignId" AND coupon."type" = 'PersonalCoupon'
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "PersonalCouponCode_take_affiliate_coupons"
  AFTER INSERT OR DELETE OR UPDATE OF "affiliateId", "campaignId" ON "PersonalCouponCode"
  FOR EACH ROW EXECUTE FUNCTION "personal_coupon_changed"();

-- Terms with a brand made or ended: its GenericCoupons with a code are, or are no longer, the
-- affiliate's.
CREATE FUNCTION "brand_terms_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM "AffiliateCoupon" member USING "Campaign" coupon
    WHERE member."affiliateId" = OLD."affiliateId" AND coupon."id" = member."campaignId"
      AND coupon."organizationId" = OLD."organizationId" AND coupon."type" = 'GenericCoupon';
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "AffiliateCoupon" ("affiliateId", "campaignId", "createdAt")
    SELECT NEW."affiliateId", coupon."id", coupon."createdAt" FROM "Campaign" coupon
    WHERE coupon."organizationId" = NEW."organizationId" AND coupon."type" = 'GenericCoupon'
      AND coupon."code" IS NOT NULL
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "AffiliateBrand_take_affiliate_coupons"
  AFTER INSERT OR DELETE OR UPDATE OF "affiliateId", "organizationId" ON "AffiliateBrand"
  FOR EACH ROW EXECUTE FUNCTION "brand_terms_changed"();

INSERT INTO "AffiliateCoupon" ("affiliateId", "campaignId", "createdAt")
SELECT personal."affiliateId", coupon."id", coupon."createdAt" FROM "Campaign" coupon
JOIN "PersonalCouponCode" personal ON personal."campaignId" = coupon."id"
WHERE coupon."type" = 'PersonalCoupon'
UNION
SELECT terms."affiliateId", coupon."id", coupon."createdAt" FROM "Campaign" coupon
JOIN "AffiliateBrand" terms ON terms."organizationId" = coupon."organizationId"
WHERE coupon."type" = 'GenericCoupon' AND coupon."code" IS NOT NULL;
