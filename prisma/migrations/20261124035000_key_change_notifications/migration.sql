-- Replicas remember verified API keys (src/auth/keyCache.ts). Every change that verification
-- reads is announced on the channel `api_key_changes`, whoever makes it: this service, or the
-- network's back office writing SQL (closing an account, revoking a key). NOTIFY is delivered at
-- commit, so a rolled-back change announces nothing. The payload names the schema, the kind and
-- the id: `<schema> key <id>` or `<schema> owner <id>`.
CREATE FUNCTION "announce_api_key_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'ApiKey' THEN
    PERFORM pg_notify('api_key_changes', TG_TABLE_SCHEMA || ' key ' || OLD."id");
  ELSE
    PERFORM pg_notify('api_key_changes', TG_TABLE_SCHEMA || ' owner ' || OLD."id");
  END IF;
  RETURN NULL;
END
$$;

-- The columns verification reads; usage bookkeeping (lastUsedAt, lastUsedIp, lastRevokedUseAt)
-- changes nothing a replica remembers.
CREATE TRIGGER "ApiKey_changed" AFTER UPDATE ON "ApiKey" FOR EACH ROW
WHEN (
  (OLD."type", OLD."version", OLD."prefix", OLD."secretHash", OLD."previousSecretHash",
   OLD."previousSecretExpiresAt", OLD."previousSecretVersion", OLD."scopes", OLD."ownerId",
   OLD."expiresAt", OLD."revokedAt")
  IS DISTINCT FROM
  (NEW."type", NEW."version", NEW."prefix", NEW."secretHash", NEW."previousSecretHash",
   NEW."previousSecretExpiresAt", NEW."previousSecretVersion", NEW."scopes", NEW."ownerId",
   NEW."expiresAt", NEW."revokedAt")
)
EXECUTE FUNCTION "announce_api_key_change"();

CREATE TRIGGER "ApiKey_deleted" AFTER DELETE ON "ApiKey" FOR EACH ROW
EXECUTE FUNCTION "announce_api_key_change"();

-- A closed account (deletedAt) or a changed role changes what every key of its owner opens.
CREATE TRIGGER "User_changed" AFTER UPDATE ON "User" FOR EACH ROW
WHEN ((OLD."deletedAt", OLD."role") IS DISTINCT FROM (NEW."deletedAt", NEW."role"))
EXECUTE FUNCTION "announce_api_key_change"();

CREATE TRIGGER "User_deleted" AFTER DELETE ON "User" FOR EACH ROW
EXECUTE FUNCTION "announce_api_key_change"();
