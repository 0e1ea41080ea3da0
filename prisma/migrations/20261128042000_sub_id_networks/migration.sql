-- CreateTable: the networks that brought a new value to a link's hour and sub-ID (below). The hour
-- leads the key, so the sweep of past hours reads it; no foreign key to the link, as on
-- "RecentClick": its rows are swept within two hours.
CREATE TABLE "RecentSubIdNetwork" (
    "linkId" UUID NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "slot" SMALLINT NOT NULL,
    "network" TEXT NOT NULL,

    CONSTRAINT "RecentSubIdNetwork_pkey" PRIMARY KEY ("hour","linkId","slot","network")
);

-- CreateIndex: the values an affiliate's orders carry, looked up for a value new to a link's hour.
CREATE INDEX "OrderAffiliateSubIdHour_affiliateId_slot_value_idx" ON "OrderAffiliateSubIdHour"("affiliateId", "slot", "value");

-- What a network may add to a link's hour (docs/decisions.md, "Sub-IDs"). A counted click costs a
-- client (address and user agent), and one address has 10 of them a minute on a link, so a script
-- with a browser's user agent on 10 addresses could fill a link's hour with 100 values of its own
-- in a second and push the affiliate's values after them under "sub_id_other_values"(). So a value
-- new to a link's hour and sub-ID takes one of its places only as the first new value that its
-- network (an IPv4 /24, an IPv6 /48: the longest prefixes routed on the internet, each one
-- operator's) brings there that hour: filling an hour takes as many networks as it has places.
-- And a value the affiliate's orders carry (its order rollup by sub-ID counts one under itself) is
-- kept whether places are left or not: values that earn cannot be pushed out at all.
--
-- A click batch's tagged clicks, added to the current hour of their links and affiliates by
-- value. Called by the redirect's click statement (src/modules/links/clicks.ts) with what it
-- decided: its fresh clients (link, client, address group), how many of each address group's
-- fresh clients its window admitted (the first ones by client), the values its candidates carried
-- (link, client, network, slot, value), and every click's values (people's and bots' per link,
-- slot and value). Counted under a value are the admitted clients that carried it; its repeats
-- are its other people's clicks. It runs once the click statement holds the row locks of the
-- batch's links, which every writer of these links' rows holds until its commit, and reads with a
-- snapshot taken after them, so it sees every earlier batch's values and networks and the bounds
-- are exact across replicas. A value of a link, hour and slot is kept when it is already there;
-- when a counted click carries it and the affiliate's orders do; or when a counted click carries
-- it, fewer than "sub_id_values_per_hour"() values are kept, and it is the first new value of a
-- network that has brought none there yet (within a batch, each network offers its first new
-- value in value order, a value offered by several networks is charged to the first of them, and
-- the places go in value order). The rest is counted under "sub_id_other_values"(). Bots and
-- repeats bring no value. Rows are written in key order.
DROP FUNCTION "add_sub_id_clicks"(uuid[], text[], text[], uuid[], text[], integer[], uuid[],
  text[], smallint[], text[], uuid[], smallint[], text[], integer[], integer[]);

CREATE FUNCTION "add_sub_id_clicks"(
  fresh_links uuid[], fresh_clients text[], fresh_addresses text[],
  window_links uuid[], window_addresses text[], window_admitted integer[],
  tag_links uuid[], tag_clients text[], tag_networks text[], tag_slots smallint[],
  tag_values text[],
  click_links uuid[], click_slots smallint[], click_values text[], click_people integer[],
  click_bots integer[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  this_hour timestamp := date_trunc('hour', now() AT TIME ZONE 'UTC');
BEGIN
  WITH counted_clients AS (
    SELECT "linkId", "client"
    FROM (
      SELECT "linkId", "client",
        row_number() OVER (PARTITION BY "linkId", "address" ORDER BY "client" NULLS FIRST) - 1
          AS "rank",
        max("admitted") OVER (PARTITION BY "linkId", "address") AS "admitted"
      FROM (
        SELECT fresh.*, NULL::integer AS "admitted"
        FROM unnest(fresh_links, fresh_clients, fresh_addresses) AS fresh("linkId", "client", "address")
        UNION ALL
        SELECT held."linkId", NULL, held."address", held."admitted"
        FROM unnest(window_links, window_addresses, window_admitted) AS held("linkId", "address", "admitted")
      ) AS clients
    ) AS ranked
    WHERE "client" IS NOT NULL AND "rank" <= "admitted"
  ), tags AS (
    SELECT "linkId", "network", "slot", "value",
      bool_or("isCounted") OVER (PARTITION BY "linkId", "client") AS "isCounted"
    FROM (
      SELECT tag.*, false AS "isCounted"
      FROM unnest(tag_links, tag_clients, tag_networks, tag_slots, tag_values)
        AS tag("linkId", "client", "network", "slot", "value")
      UNION ALL
      SELECT "linkId", "client", NULL, NULL, NULL, true FROM counted_clients
    ) AS clients
  ), counted_tags AS (
    SELECT "linkId", "network", "slot", "value" FROM tags WHERE "isCounted" AND "value" IS NOT NULL
  ), batch AS (
    SELECT "linkId", "slot", "value", sum("clicks")::int AS "clicks",
      sum("people" - "clicks")::int AS "repeats", sum("bots")::int AS "bots"
    FROM (
      SELECT "linkId", "slot", "value", 1 AS "clicks", 0 AS "people", 0 AS "bots"
      FROM counted_tags
      UNION ALL
      SELECT click."linkId", click."slot", click."value", 0, click."people", click."bots"
      FROM unnest(click_links, click_slots, click_values, click_people, click_bots)
        AS click("linkId", "slot", "value", "people", "bots")
    ) AS clicks
    GROUP BY 1, 2, 3
  ), links AS MATERIALIZED (
    SELECT link."id" AS "linkId", link."affiliateId", link."organizationId"
    FROM "ShortUrl" link
    WHERE link."id" IN (SELECT "linkId" FROM batch)
  ), known AS (
    SELECT held."linkId", held."slot", held."value"
    FROM "LinkSubIdClickHour" held
    JOIN (SELECT DISTINCT "linkId", "slot" FROM batch) AS keys
      ON (held."linkId", held."hour", held."slot") = (keys."linkId", this_hour, keys."slot")
    WHERE held."value" <> "sub_id_other_values"()
  ), counts AS (
    SELECT "linkId", "slot", count(*)::int AS "values" FROM known GROUP BY 1, 2
  ), newcomers AS (
    SELECT DISTINCT given."linkId", given."slot", given."value", given."network"
    FROM counted_tags AS given
    WHERE NOT EXISTS (SELECT FROM known
      WHERE (known."linkId", known."slot", known."value") = (given."linkId", given."slot", given."value"))
  ), ordered AS (
    SELECT DISTINCT newcomers."linkId", newcomers."slot", newcomers."value"
    FROM newcomers
    JOIN links USING ("linkId")
    WHERE EXISTS (SELECT FROM "OrderAffiliateSubIdHour" sold
      WHERE (sold."affiliateId", sold."slot", sold."value")
        = (links."affiliateId", newcomers."slot", newcomers."value"))
  ), offers AS (
    SELECT DISTINCT ON ("linkId", "slot", "value") "linkId", "slot", "value", "network"
    FROM (
      SELECT DISTINCT ON (given."linkId", given."slot", given."network") given.*
      FROM newcomers AS given
      WHERE NOT EXISTS (SELECT FROM ordered
          WHERE (ordered."linkId", ordered."slot", ordered."value")
            = (given."linkId", given."slot", given."value"))
        AND NOT EXISTS (SELECT FROM counts
          WHERE (counts."linkId", counts."slot") = (given."linkId", given."slot")
            AND counts."values" >= "sub_id_values_per_hour"())
        AND NOT EXISTS (SELECT FROM "RecentSubIdNetwork" spent
          WHERE (spent."hour", spent."linkId", spent."slot", spent."network")
            = (this_hour, given."linkId", given."slot", given."network"))
      ORDER BY given."linkId", given."slot", given."network", given."value"
    ) AS firsts
    ORDER BY "linkId", "slot", "value", "network"
  ), admitted AS (
    SELECT ranked."linkId", ranked."slot", ranked."value", ranked."network"
    FROM (
      SELECT offers.*,
        row_number() OVER (PARTITION BY offers."linkId", offers."slot" ORDER BY offers."value")
          AS "rank"
      FROM offers
    ) AS ranked
    LEFT JOIN counts USING ("linkId", "slot")
    WHERE ranked."rank" <= "sub_id_values_per_hour"() - coalesce(counts."values", 0)
  ), spent_networks AS (
    INSERT INTO "RecentSubIdNetwork" ("hour", "linkId", "slot", "network")
    SELECT this_hour, "linkId", "slot", "network" FROM admitted
    ORDER BY "linkId", "slot", "network"
    ON CONFLICT DO NOTHING
  ), kept AS (
    SELECT "linkId", "slot", "value" FROM known
    UNION ALL
    SELECT "linkId", "slot", "value" FROM ordered
    UNION ALL
    SELECT "linkId", "slot", "value" FROM admitted
  ), link_rows AS (
    SELECT batch."linkId", this_hour AS "hour", batch."slot",
      CASE WHEN kept."value" IS NOT NULL THEN batch."value" ELSE "sub_id_other_values"() END
        AS "value",
      links."affiliateId", links."organizationId",
      sum(batch."clicks")::int AS "clicks", sum(batch."repeats")::int AS "repeats",
      sum(batch."bots")::int AS "bots"
    FROM batch
    JOIN links USING ("linkId")
    LEFT JOIN kept ON (kept."linkId", kept."slot", kept."value")
      = (batch."linkId", batch."slot", batch."value")
    GROUP BY 1, 2, 3, 4, 5, 6
  ), link_history AS (
    INSERT INTO "LinkSubIdClickHour" AS history ("linkId", "hour", "slot", "value", "affiliateId",
      "organizationId", "clicks", "repeats", "bots")
    SELECT "linkId", "hour", "slot", "value", "affiliateId", "organizationId", "clicks", "repeats",
      "bots"
    FROM link_rows
    ORDER BY "linkId", "hour", "slot", "value"
    ON CONFLICT ("linkId", "hour", "slot", "value") DO UPDATE SET
      "clicks" = history."clicks" + excluded."clicks",
      "repeats" = history."repeats" + excluded."repeats", "bots" = history."bots" + excluded."bots"
  )
  INSERT INTO "AffiliateSubIdClickHour" AS history ("affiliateId", "slot", "hour", "value",
    "clicks", "repeats", "bots")
  SELECT "affiliateId", "slot", "hour", "value", sum("clicks"), sum("repeats"), sum("bots")
  FROM link_rows
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 3, 4
  ON CONFLICT ("affiliateId", "slot", "hour", "value") DO UPDATE SET
    "clicks" = history."clicks" + excluded."clicks",
    "repeats" = history."repeats" + excluded."repeats", "bots" = history."bots" + excluded."bots";
END
$$;
