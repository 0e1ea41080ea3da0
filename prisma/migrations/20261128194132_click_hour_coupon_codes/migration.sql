-- AlterTable
ALTER TABLE "LinkClickHour" ADD COLUMN     "couponCode" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "LinkClickHour_campaignId_idx" ON "LinkClickHour"("campaignId");

-- The code a click on a link of `campaign` counts under for `affiliate` in the report by coupon:
-- the affiliate's PersonalCoupon code, or the GenericCoupon's code, normalised as orders' codes
-- are; '' for none.
CREATE FUNCTION "click_coupon_code"(campaign uuid, affiliate uuid) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT coalesce((
    SELECT "coupon_code_key"(coalesce(personal."code", coupon."code"))
    FROM "Campaign" coupon
    LEFT JOIN "PersonalCouponCode" personal ON personal."campaignId" = coupon."id"
      AND personal."affiliateId" = affiliate
    WHERE coupon."id" = campaign AND coupon."type" IN ('PersonalCoupon', 'GenericCoupon')), '')
$$;

UPDATE "LinkClickHour" SET "couponCode" = "click_coupon_code"("campaignId", "affiliateId")
WHERE "campaignId" IS NOT NULL;

-- A click hour takes its campaign's code when it is written and when its campaign changes
-- (migration click_hour_campaigns passes a link's campaign on to its hours), whoever writes it.
-- An hour of a link without a campaign and without a code written needs no look-up: its code is
-- the column's default, ''.
CREATE FUNCTION "take_click_coupon_code"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."couponCode" := "click_coupon_code"(NEW."campaignId", NEW."affiliateId");
  RETURN NEW;
END
$$;
CREATE TRIGGER "LinkClickHour_take_coupon_code"
  BEFORE INSERT OR UPDATE OF "campaignId", "affiliateId", "couponCode" ON "LinkClickHour"
  FOR EACH ROW WHEN (NEW."campaignId" IS NOT NULL OR NEW."couponCode" <> '')
  EXECUTE FUNCTION "take_click_coupon_code"();

-- A coupon's code, a type or a personal code changed: the hours of the links to that campaign
-- (of that affiliate, for a personal code) take the code as it is now. The links are locked
-- first, in id order, as the redirect locks a link before it writes its hour: a click statement
-- meanwhile waits and then reads the code as committed, or has written its hour before.
CREATE FUNCTION "pass_on_coupon_code"(campaign uuid, affiliate uuid) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM FROM "ShortUrl" link
  WHERE link."campaignId" = campaign AND (affiliate IS NULL OR link."affiliateId" = affiliate)
  ORDER BY link."id" FOR UPDATE;
  UPDATE "LinkClickHour" hour SET "couponCode" = "click_coupon_code"(campaign, hour."affiliateId")
  WHERE hour."campaignId" = campaign AND (affiliate IS NULL OR hour."affiliateId" = affiliate);
END
$$;

CREATE FUNCTION "coupon_code_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'Campaign' THEN
    PERFORM "pass_on_coupon_code"(NEW."id", NULL);
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM "pass_on_coupon_code"(OLD."campaignId", OLD."affiliateId");
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM "pass_on_coupon_code"(NEW."campaignId", NEW."affiliateId");
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "Campaign_pass_on_coupon_code" AFTER UPDATE OF "code", "type" ON "Campaign"
  FOR EACH ROW WHEN (OLD."code" IS DISTINCT FROM NEW."code" OR OLD."type" IS DISTINCT FROM NEW."type")
  EXECUTE FUNCTION "coupon_code_changed"();
CREATE TRIGGER "PersonalCouponCode_pass_on_code" AFTER INSERT OR UPDATE OR DELETE
  ON "PersonalCouponCode" FOR EACH ROW EXECUTE FUNCTION "coupon_code_changed"();

-- The report by coupon reads the coded hours alone; the hours without a code are the affiliate's
-- hours less these.
CREATE INDEX "LinkClickHour_coded_idx" ON "LinkClickHour" ("affiliateId", "hour")
  WHERE "couponCode" <> '';
CREATE INDEX "OrderLinkHour_coded_idx" ON "OrderLinkHour" ("affiliateId", "hour")
  WHERE "couponCode" <> '';
