-- Each link's clicks per hour keep the link's campaign, so the report by campaign groups the hours
-- themselves instead of joining every link of the account to find its campaign.
ALTER TABLE "LinkClickHour" ADD COLUMN     "campaignId" UUID;

UPDATE "LinkClickHour" AS hours SET "campaignId" = link."campaignId"
FROM "ShortUrl" AS link
WHERE link."id" = hours."linkId" AND link."campaignId" IS NOT NULL;

-- A link's campaign changes only when the campaign is deleted (the link's foreign key sets it to
-- null); its hours follow, so their clicks count for no campaign, as the link's do. The redirect
-- locks the link's row before it writes an hour, so an hour written meanwhile reads the new value.
CREATE FUNCTION "pass_on_link_campaign"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "LinkClickHour" SET "campaignId" = NEW."campaignId" WHERE "linkId" = NEW."id";
  RETURN NULL;
END;
$$;

CREATE TRIGGER "ShortUrl_pass_on_campaign" AFTER UPDATE OF "campaignId" ON "ShortUrl" FOR EACH ROW
  WHEN (OLD."campaignId" IS DISTINCT FROM NEW."campaignId") EXECUTE FUNCTION "pass_on_link_campaign"();
