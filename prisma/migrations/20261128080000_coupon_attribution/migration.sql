-- CreateEnum
CREATE TYPE "OrderAttribution" AS ENUM ('LINK', 'COUPON', 'LINK_AND_COUPON');

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "attribution" "OrderAttribution",
ADD COLUMN     "campaignId" UUID,
ADD COLUMN     "couponCode" TEXT;

-- CreateIndex
CREATE INDEX "Order_affiliateId_couponCode_orderedAt_id_idx" ON "Order"("affiliateId", "couponCode", "orderedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Order_affiliateId_campaignId_orderedAt_id_idx" ON "Order"("affiliateId", "campaignId", "orderedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Order_campaignId_idx" ON "Order"("campaignId");

-- AddForeignKey
ALTER TABLE "Order" ADD CONSTRAINT "Order_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The order's source (docs/integrating.md, "Attribution by link and by code"), kept by the database
-- whoever writes the order (the back office writes them in SQL):
-- - `couponCode` is stored normalised (`coupon_code_key`: surrounding whitespace trimmed, upper
--   case; empty is none) and matched against the brand's codes normalised the same way;
-- - a PersonalCoupon code of the order's brand makes the order its owner's, whatever link was
--   clicked: `COUPON`, or `LINK_AND_COUPON` when the link is the owner's own. The click on another
--   affiliate's link (its code, sub-IDs and channel) is not kept on the owner's order;
-- - a GenericCoupon code of the brand attributes only with a click on the order's link:
--   `LINK_AND_COUPON`; without a link the order is refused;
-- - a code of another brand's campaign is refused; a code of no campaign is kept for
--   reconciliation and attributes nothing (`LINK` with a link, else none);
-- - `campaignId` is the code's campaign, else the link's; `attribution` and `campaignId` are the
--   database's whatever is written, and an update that changes the order's source re-derives them.
-- The refusals name the order and the rule, as check violations of the constraint they stand for.

-- The one matching rule for codes, on both sides.
CREATE FUNCTION "coupon_code_key"(code text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT nullif(upper(btrim(code, E' \t\r\n')), '')
$$;

-- Codes as they are matched, so that finding one reads an index, not every campaign.
CREATE INDEX "PersonalCouponCode_code_key_idx" ON "PersonalCouponCode"("coupon_code_key"("code"));
CREATE INDEX "Campaign_generic_code_key_idx" ON "Campaign"("coupon_code_key"("code"))
  WHERE "type" = 'GenericCoupon';

CREATE FUNCTION "order_attribution"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  link_owner uuid;
  link_campaign uuid;
  code_campaign uuid;
  code_owner uuid;
  code_type "CampaignType";
  elsewhere uuid;
BEGIN
  NEW."couponCode" := "coupon_code_key"(NEW."couponCode");
  IF TG_OP = 'UPDATE'
     AND (NEW."couponCode", NEW."shortUrlCode", NEW."organizationId", NEW."affiliateId")
         IS NOT DISTINCT FROM (OLD."couponCode", OLD."shortUrlCode", OLD."organizationId", OLD."affiliateId") THEN
    -- The source is unchanged: so are its campaign and attribution, but for the campaign's
    -- deletion (the foreign key's SET NULL).
    NEW."attribution" := OLD."attribution";
    NEW."campaignId" := CASE WHEN NEW."campaignId" IS NULL THEN NULL ELSE OLD."campaignId" END;
    RETURN NEW;
  END IF;

  IF NEW."shortUrlCode" IS NOT NULL THEN
    -- The campaign's row is locked against deletion, as the foreign key check would: a deletion
    -- that came first has been waited for, and its campaign is not found.
    SELECT link."affiliateId", link."campaignId" INTO link_owner, link_campaign
    FROM "ShortUrl" link WHERE link."urlCode" = NEW."shortUrlCode";
    IF link_campaign IS NOT NULL THEN
      SELECT "id" INTO link_campaign FROM "Campaign" WHERE "id" = link_campaign FOR KEY SHARE;
    END IF;
  END IF;

  IF NEW."couponCode" IS NOT NULL THEN
    -- The brand's campaign with that code: a personal code before a generic one, then the
    -- campaign running when the order was placed, then the latest.
    SELECT campaign."id", campaign."type", personal."affiliateId"
      INTO code_campaign, code_type, code_owner
    FROM "Campaign" campaign
    LEFT JOIN "PersonalCouponCode" personal
      ON personal."campaignId" = campaign."id" AND campaign."type" = 'PersonalCoupon'
    WHERE campaign."organizationId" = NEW."organizationId"
      AND ((campaign."type" = 'PersonalCoupon' AND "coupon_code_key"(personal."code") = NEW."couponCode")
           OR (campaign."type" = 'GenericCoupon' AND "coupon_code_key"(campaign."code") = NEW."couponCode"))
    ORDER BY campaign."type" = 'PersonalCoupon' DESC,
             NEW."orderedAt" BETWEEN campaign."startAt" AND campaign."endAt" DESC,
             campaign."startAt" DESC, campaign."id"
    LIMIT 1
    FOR KEY SHARE OF campaign;

    IF code_campaign IS NULL THEN
      -- Each side by its code index (below): a code of no campaign is the common miss.
      SELECT campaign."id" INTO elsewhere
      FROM (SELECT personal."campaignId" AS "id", 'PersonalCoupon'::"CampaignType" AS "type"
            FROM "PersonalCouponCode" personal
            WHERE "coupon_code_key"(personal."code") = NEW."couponCode"
            UNION ALL
            SELECT generic."id", 'GenericCoupon' FROM "Campaign" generic
            WHERE generic."type" = 'GenericCoupon'
              AND "coupon_code_key"(generic."code") = NEW."couponCode") AS coded
      JOIN "Campaign" campaign ON campaign."id" = coded."id" AND campaign."type" = coded."type"
      WHERE campaign."organizationId" <> NEW."organizationId"
      LIMIT 1;
      IF elsewhere IS NOT NULL THEN
        RAISE EXCEPTION 'order %: coupon code % is a code of another brand''s campaign (%), not of the order''s brand %',
          NEW."id", NEW."couponCode", elsewhere, NEW."organizationId"
          USING ERRCODE = 'check_violation', CONSTRAINT = 'Order_coupon_brand';
      END IF;
    END IF;
  END IF;

  IF code_type = 'PersonalCoupon' THEN
    IF TG_OP = 'UPDATE' AND code_owner <> NEW."affiliateId" THEN
      RAISE EXCEPTION 'order %: coupon code % is affiliate %''s PersonalCoupon code: a change of the order''s source that moves it to another affiliate writes that affiliateId with it',
        NEW."id", NEW."couponCode", code_owner
        USING ERRCODE = 'check_violation', CONSTRAINT = 'Order_coupon_owner';
    END IF;
    NEW."affiliateId" := code_owner;
    NEW."campaignId" := code_campaign;
    IF link_owner = code_owner THEN
      NEW."attribution" := 'LINK_AND_COUPON';
    ELSE
      NEW."attribution" := 'COUPON';
      IF NEW."shortUrlCode" IS NOT NULL THEN
        NEW."shortUrlCode" := NULL;
        NEW."sub1" := NULL; NEW."sub2" := NULL; NEW."sub3" := NULL; NEW."sub4" := NULL; NEW."sub5" := NULL;
      END IF;
      IF NEW."channelId" IS NOT NULL
         AND NOT EXISTS (SELECT FROM "Channel" WHERE "id" = NEW."channelId" AND "userId" = code_owner) THEN
        NEW."channelId" := NULL;
      END IF;
    END IF;
  ELSIF code_type = 'GenericCoupon' THEN
    IF link_owner IS NULL THEN
      RAISE EXCEPTION 'order %: coupon code % is the public code of GenericCoupon campaign %, which attributes an order only with a click: record it with the link (shortUrlCode) it came through',
        NEW."id", NEW."couponCode", code_campaign
        USING ERRCODE = 'check_violation', CONSTRAINT = 'Order_coupon_click';
    END IF;
    NEW."campaignId" := code_campaign;
    NEW."attribution" := 'LINK_AND_COUPON';
  ELSIF link_owner IS NOT NULL THEN
    NEW."campaignId" := link_campaign;
    NEW."attribution" := 'LINK';
  ELSE
    NEW."campaignId" := NULL;
    NEW."attribution" := NULL;
  END IF;
  RETURN NEW;
END
$$;

-- First of the order's BEFORE triggers (rank 05; they fire in name order): the payout guard, the
-- lifecycle and the balance rules see the affiliate and campaign the source gives the order.
CREATE TRIGGER "Order_05_attribution" BEFORE INSERT OR UPDATE ON "Order" FOR EACH ROW
EXECUTE FUNCTION "order_attribution"();

-- Existing orders came through their link: its campaign, attribution LINK. Their own triggers
-- are off (nothing of theirs changes, and `updatedAt` keeps meaning a change of the order).
ALTER TABLE "Order" DISABLE TRIGGER USER;
UPDATE "Order" placed
SET "attribution" = 'LINK', "campaignId" = link."campaignId"
FROM "ShortUrl" link
WHERE link."urlCode" = placed."shortUrlCode";
ALTER TABLE "Order" ENABLE TRIGGER USER;

-- As in migration ledger, with the campaign among what a locked order may still change: the
-- foreign key clears it when the campaign is deleted (the attribution trigger keeps it otherwise).
CREATE OR REPLACE FUNCTION "order_lifecycle_update"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  amounts_changed boolean := (NEW."transactionValueMinor", NEW."earningsMinor")
    IS DISTINCT FROM (OLD."transactionValueMinor", OLD."earningsMinor");
  status_changed boolean := NEW."status" IS DISTINCT FROM OLD."status";
  -- What a locked order may still change: its status (to PAID, below), its hold, its deleted
  -- campaign, and what the database keeps.
  moving constant text[] := ARRAY['status', 'updatedAt', 'lockedAt', 'heldReason', 'heldNote',
                                    'campaignId'];
BEGIN
  -- Kept by the database.
  NEW."originalTransactionValueMinor" := OLD."originalTransactionValueMinor";
  NEW."originalEarningsMinor" := OLD."originalEarningsMinor";
  NEW."locksAt" := OLD."locksAt";
  IF OLD."lockedAt" IS NOT NULL THEN
    NEW."lockedAt" := OLD."lockedAt";
  ELSIF NEW."lockedAt" IS NOT NULL AND NEW."lockedAt" < OLD."locksAt" THEN
    NEW."locksAt" := NEW."lockedAt";
  END IF;
  -- A rejection ends a hold: a rejected order's money is in no balance.
  IF NEW."status" = 'REJECTED' THEN
    NEW."heldReason" := NULL;
  END IF;
  IF NEW."heldReason" IS NULL THEN
    NEW."heldNote" := NULL;
  END IF;
  -- The clock at the stored precision: an order recorded in this transaction (its `locksAt` the
  -- transaction's start, rounded to the millisecond) is not locked before the transaction ends.
  IF (OLD."lockedAt" IS NOT NULL OR OLD."locksAt" < (now() AT TIME ZONE 'UTC')::timestamp(3))
     AND ((to_jsonb(NEW) - moving) IS DISTINCT FROM (to_jsonb(OLD) - moving)
          OR (status_changed AND NOT (OLD."status" = 'APPROVED' AND NEW."status" = 'PAID'))) THEN
    RAISE EXCEPTION 'order % is locked since %: it no longer changes, but for APPROVED to PAID',
      OLD."id", to_char(coalesce(OLD."lockedAt", OLD."locksAt"), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Order_locked';
  END IF;
  -- A reason explains a rejection or an adjustment: an order leaving REJECTED without a new one
  -- loses it.
  IF status_changed AND OLD."status" = 'REJECTED' AND NOT amounts_changed
     AND (NEW."statusReason", NEW."statusNote") IS NOT DISTINCT FROM (OLD."statusReason", OLD."statusNote") THEN
    NEW."statusReason" := NULL;
    NEW."statusNote" := NULL;
  END IF;
  IF (amounts_changed OR (status_changed AND NEW."status" = 'REJECTED')) AND NEW."statusReason" IS NULL THEN
    RAISE EXCEPTION 'order %: a % needs a statusReason', OLD."id",
      CASE WHEN amounts_changed THEN 'change of its amounts' ELSE 'rejection' END
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Order_reason_required';
  END IF;
  RETURN NEW;
END
$$;

-- As in migration postback_bookings, with the order's own campaign: a postback of a coupon
-- campaign hears of the orders its code brought.
CREATE OR REPLACE FUNCTION "record_postback_deliveries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."orderId" IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO "WebhookDelivery" ("id", "eventId", "postbackId", "orderId", "seq", "nextAttemptAt", "createdAt")
  SELECT gen_random_uuid(), NEW."id", postback."id", NEW."orderId", NEW."seq", NEW."occurredAt", NEW."occurredAt"
  FROM "Order" placed
  JOIN "Postback" postback ON postback."ownerId" = placed."affiliateId"
  WHERE placed."id" = NEW."orderId"
    AND postback."enabled" AND postback."deletedAt" IS NULL
    AND NEW."type" = ANY(postback."events")
    AND (cardinality(postback."statuses") = 0 OR NEW."status" = ANY(postback."statuses"))
    AND (postback."brandId" IS NULL OR postback."brandId" = placed."organizationId")
    AND (postback."campaignId" IS NULL OR postback."campaignId" = placed."campaignId")
    AND (postback."linkCode" IS NULL OR postback."linkCode" = placed."shortUrlCode");
  IF FOUND THEN
    PERFORM pg_notify('webhook_deliveries', TG_TABLE_SCHEMA);
  END IF;
  RETURN NULL;
END
$$;
