-- A value takes one of a link's kept values only with a counted click (docs/decisions.md,
-- "Sub-IDs"). Bots and repeats cost their sender nothing, so the values they alone carry count
-- under "sub_id_other_values"(): anonymous traffic cannot fill a link's hour with values of its
-- own and push the affiliate's counted values out of its report. Under a value already kept (or
-- kept by a counted click of the same batch), bots and repeats count under that value.
--
-- A click batch's tagged clicks, added to the current hour of their links and affiliates by
-- value. Called by the redirect's click statement (src/modules/links/clicks.ts) with what it
-- decided: its fresh clients (link, client, address group), how many of each address group's
-- fresh clients its window admitted (the first ones by client), the values its candidates carried
-- (link, client, slot, value), and every click's values (people's and bots' per link, slot and
-- value). Counted under a value are the admitted clients that carried it; its repeats are its
-- other people's clicks. Rows meet by window functions and grouping over their union, never by a
-- join whose size the planner cannot know; as a function, the statement's plan is kept by the
-- session. It runs once the click statement holds the row locks of the batch's links, which every
-- writer of these links' rows holds until its commit, and reads with a snapshot taken after them,
-- so it sees every earlier batch's values and the bound is exact across replicas: a value of a
-- link, hour and slot is kept when it is already there, or when a counted click carries it while
-- fewer than "sub_id_values_per_hour"() are (new values in value order); the rest is counted
-- under "sub_id_other_values"(). Rows are written in key order.
CREATE OR REPLACE FUNCTION "add_sub_id_clicks"(
  fresh_links uuid[], fresh_clients text[], fresh_addresses text[],
  window_links uuid[], window_addresses text[], window_admitted integer[],
  tag_links uuid[], tag_clients text[], tag_slots smallint[], tag_values text[],
  click_links uuid[], click_slots smallint[], click_values text[], click_people integer[],
  click_bots integer[]) RETURNS void
LANGUAGE plpgsql AS $$
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
    SELECT "linkId", "slot", "value",
      bool_or("isCounted") OVER (PARTITION BY "linkId", "client") AS "isCounted"
    FROM (
      SELECT tag.*, false AS "isCounted"
      FROM unnest(tag_links, tag_clients, tag_slots, tag_values) AS tag("linkId", "client", "slot", "value")
      UNION ALL
      SELECT "linkId", "client", NULL, NULL, true FROM counted_clients
    ) AS clients
  ), batch AS (
    SELECT "linkId", "slot", "value", date_trunc('hour', now() AT TIME ZONE 'UTC') AS "hour",
      sum("clicks")::int AS "clicks", sum("people" - "clicks")::int AS "repeats",
      sum("bots")::int AS "bots"
    FROM (
      SELECT "linkId", "slot", "value", 1 AS "clicks", 0 AS "people", 0 AS "bots"
      FROM tags WHERE "isCounted" AND "value" IS NOT NULL
      UNION ALL
      SELECT click."linkId", click."slot", click."value", 0, click."people", click."bots"
      FROM unnest(click_links, click_slots, click_values, click_people, click_bots)
        AS click("linkId", "slot", "value", "people", "bots")
    ) AS clicks
    GROUP BY 1, 2, 3
  ), known AS (
    SELECT held."linkId", held."slot", held."value"
    FROM "LinkSubIdClickHour" held
    JOIN (SELECT DISTINCT "linkId", "hour", "slot" FROM batch) AS keys
      ON (held."linkId", held."hour", held."slot") = (keys."linkId", keys."hour", keys."slot")
    WHERE held."value" <> "sub_id_other_values"()
  ), counts AS (
    SELECT "linkId", "slot", count(*)::int AS "values" FROM known GROUP BY 1, 2
  ), newcomers AS (
    SELECT given."linkId", given."slot", given."value",
      row_number() OVER (PARTITION BY given."linkId", given."slot" ORDER BY given."value") AS "rank"
    FROM batch AS given
    WHERE given."clicks" > 0 AND NOT EXISTS (SELECT FROM known
      WHERE (known."linkId", known."slot", known."value") = (given."linkId", given."slot", given."value"))
  ), admitted AS (
    SELECT newcomers."linkId", newcomers."slot", newcomers."value"
    FROM newcomers LEFT JOIN counts USING ("linkId", "slot")
    WHERE newcomers."rank" <= "sub_id_values_per_hour"() - coalesce(counts."values", 0)
  ), link_rows AS (
    SELECT batch."linkId", batch."hour", batch."slot",
      CASE WHEN known."value" IS NOT NULL OR admitted."value" IS NOT NULL THEN batch."value"
        ELSE "sub_id_other_values"() END AS "value",
      link."affiliateId", link."organizationId",
      sum(batch."clicks")::int AS "clicks", sum(batch."repeats")::int AS "repeats",
      sum(batch."bots")::int AS "bots"
    FROM batch
    JOIN "ShortUrl" link ON link."id" = batch."linkId"
    LEFT JOIN known ON (known."linkId", known."slot", known."value")
      = (batch."linkId", batch."slot", batch."value")
    LEFT JOIN admitted ON (admitted."linkId", admitted."slot", admitted."value")
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
