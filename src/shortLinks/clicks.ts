// What the redirect counts, and how a batch of clicks is written (batching: ./clickBatches.ts).
// Counted is what affiliate networks count: one click per client (address and user agent) and
// link within CLICK_REPEAT_WINDOW_S, at most MAX_CLICKS_PER_ADDRESS clients of one address on a
// link per window, bots never; a click not counted is redirected all the same. Each click is also
// counted per sub-ID value it was tagged with (./subIds.ts).
import { createHash } from 'node:crypto';
import { prisma } from '../db';
import { Prisma } from '../generated/prisma/client';
import { addressBucket } from '../limits/addressBucket';
import { logger } from '../logger';
import { clickBatches, type WriteClicks } from './clickBatches';
import { SUB_ID_NAMES, type SubIds } from './subIds';

/** A client's repeat on the same link within this window is not counted again. */
export const CLICK_REPEAT_WINDOW_S = 60;

/**
 * At most this many clients of one address (an IPv4 address, an IPv6 /64) count on one link per
 * window: a script rotating its user agent adds no more than this, while people behind one NAT,
 * whose browsers differ, still count (docs/decisions.md, "Short links").
 */
export const MAX_CLICKS_PER_ADDRESS = 10;

/**
 * Who followed a link, hashed (neither the address nor the user agent is kept): the client
 * (address and user agent) and the address's group, which bounds what one address can add.
 */
export interface ClickVisitor {
  client: string;
  address: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function clickVisitorOf(clientIp: string, userAgent: string): ClickVisitor {
  return { client: sha256(`${clientIp}\n${userAgent}`), address: sha256(addressBucket(clientIp)) };
}

export interface Click {
  /** Who clicked; null for a bot (never counted). */
  visitor: ClickVisitor | null;
  /** The follow's sub-IDs; null for none. */
  subIds: SubIds | null;
}

/** A link's clicks with one value of one sub-ID: people's (counted or repeats) and bots'. */
interface TagClicks {
  people: number;
  bots: number;
}

/** Sub-ID values of a batch's clicks: each candidate's, and every click's per link, slot and value. */
interface TagRows {
  /** The candidates' values, one array per sub-ID, aligned with the candidates. */
  candidates: (string | null)[][];
  codes: string[];
  slots: number[];
  values: string[];
  people: number[];
  bots: number[];
}

/**
 * What a batch asks of the database: each link's distinct clients with their addresses (a client
 * twice in one batch is one candidate, with its first click's sub-IDs, and one repeat), and each
 * link's clicks by people and by bots for the hourly history (the database tells which candidates
 * count; the other people's clicks are repeats), in all and per sub-ID value; `tags` is null when
 * no click has a sub-ID.
 */
export function clickBatchRows(clicksByCode: ReadonlyMap<string, readonly Click[]>) {
  const codes: string[] = [];
  const clients: string[] = [];
  const addresses: string[] = [];
  const candidateSubIds: (SubIds | null)[] = [];
  const links: string[] = [];
  const people: number[] = [];
  const bots: number[] = [];
  const tagClicks = new Map<string, Map<string, TagClicks>>();
  for (const [code, clicks] of clicksByCode) {
    const distinct = new Map<string, Click>();
    let botClicks = 0;
    for (const click of clicks) {
      const { visitor, subIds } = click;
      if (visitor === null) botClicks += 1;
      else if (!distinct.has(visitor.client)) distinct.set(visitor.client, click);
      if (subIds) addTagClick(tagClicks, code, subIds, visitor === null);
    }
    for (const [client, { visitor, subIds }] of distinct) {
      codes.push(code);
      clients.push(client);
      addresses.push(visitor!.address);
      candidateSubIds.push(subIds);
    }
    links.push(code);
    people.push(clicks.length - botClicks);
    bots.push(botClicks);
  }
  const tags = tagClicks.size ? tagRows(tagClicks, candidateSubIds) : null;
  return { codes, clients, addresses, links, people, bots, tags };
}

/** Keyed by link code, then by slot and value (`${slot}\n${value}`). */
function addTagClick(
  tagClicks: Map<string, Map<string, TagClicks>>,
  code: string,
  subIds: SubIds,
  isBot: boolean,
): void {
  const ofLink = tagClicks.get(code) ?? new Map<string, TagClicks>();
  tagClicks.set(code, ofLink);
  subIds.forEach((value, i) => {
    if (value === null) return;
    const key = `${i + 1}\n${value}`;
    const counts = ofLink.get(key) ?? { people: 0, bots: 0 };
    if (isBot) counts.bots += 1;
    else counts.people += 1;
    ofLink.set(key, counts);
  });
}

function tagRows(
  tagClicks: ReadonlyMap<string, ReadonlyMap<string, TagClicks>>,
  candidateSubIds: readonly (SubIds | null)[],
): TagRows {
  const rows: TagRows = {
    candidates: SUB_ID_NAMES.map((_, i) => candidateSubIds.map((subIds) => subIds?.[i] ?? null)),
    codes: [],
    slots: [],
    values: [],
    people: [],
    bots: [],
  };
  for (const [code, ofLink] of tagClicks) {
    for (const [key, counts] of ofLink) {
      const split = key.indexOf('\n');
      rows.codes.push(code);
      rows.slots.push(Number(key.slice(0, split)));
      rows.values.push(key.slice(split + 1));
      rows.people.push(counts.people);
      rows.bots.push(counts.bots);
    }
  }
  return rows;
}

/** Each candidate's values, as statement columns, for a tagged batch. */
function candidateTagColumns(tags: TagRows | null): { arrays: Prisma.Sql; columns: Prisma.Sql } {
  if (!tags) return { arrays: Prisma.empty, columns: Prisma.empty };
  const [sub1, sub2, sub3, sub4, sub5] = tags.candidates;
  return {
    arrays: Prisma.sql`, ${sub1}::text[], ${sub2}::text[], ${sub3}::text[], ${sub4}::text[], ${sub5}::text[]`,
    columns: Prisma.sql`, "sub1", "sub2", "sub3", "sub4", "sub5"`,
  };
}

/**
 * The sub-ID part of a tagged batch's statement: which of the counted clients carried which
 * values (an address's counted clients are its first fresh ones by client hash), and each value's
 * clicks, repeats and bots per link, handed to "add_sub_id_clicks" (migration sub_ids), which
 * keeps the values of a link and hour bounded. It is called once every link it names is locked,
 * and reads with a snapshot of its own, so the bound is exact across replicas. Rows meet by
 * grouping and window functions over their union rather than by joins: the planner cannot tell
 * a batch's sizes, and a nested loop over two thousand fresh clients would be quadratic.
 */
function subIdHistory(tags: TagRows): Prisma.Sql {
  const noTags = Prisma.sql`NULL::text, NULL::text, NULL::text, NULL::text, NULL::text`;
  return Prisma.sql`, counted_clients AS (
      SELECT "linkId", "client"
      FROM (
        SELECT "linkId", "client",
          row_number() OVER (PARTITION BY "linkId", "address" ORDER BY "client" NULLS FIRST) - 1
            AS "rank",
          max("admitted") OVER (PARTITION BY "linkId", "address") AS "admitted"
        FROM (
          SELECT "linkId", "address", "client", NULL::int AS "admitted" FROM fresh
          UNION ALL
          SELECT "linkId", "address", NULL, "admitted" FROM address_windows
        ) AS windows
      ) AS ranked
      WHERE "client" IS NOT NULL AND "rank" <= "admitted"
    ), counted_tags AS (
      SELECT "linkId", "client", bool_or("counted") AS "counted", max("sub1") AS "sub1",
        max("sub2") AS "sub2", max("sub3") AS "sub3", max("sub4") AS "sub4", max("sub5") AS "sub5"
      FROM (
        SELECT "linkId", "client", false AS "counted", "sub1", "sub2", "sub3", "sub4", "sub5"
        FROM candidates
        UNION ALL
        SELECT "linkId", "client", true, ${noTags} FROM counted_clients
      ) AS clients
      GROUP BY 1, 2
    ), tag_counts AS (
      SELECT "linkId", "slot", "value", sum("clicks")::int AS "clicks", sum("people")::int AS "people",
        sum("bots")::int AS "bots"
      FROM (
        SELECT counted_tags."linkId", tag."slot", tag."value", 1 AS "clicks", 0 AS "people",
          0 AS "bots"
        FROM counted_tags
        CROSS JOIN LATERAL (VALUES (1::smallint, counted_tags."sub1"),
          (2::smallint, counted_tags."sub2"), (3::smallint, counted_tags."sub3"),
          (4::smallint, counted_tags."sub4"), (5::smallint, counted_tags."sub5"))
          AS tag("slot", "value")
        WHERE counted_tags."counted" AND tag."value" IS NOT NULL
        UNION ALL
        SELECT links."id", tag."slot", tag."value", 0, tag."people", tag."bots"
        FROM unnest(${tags.codes}::text[], ${tags.slots}::smallint[], ${tags.values}::text[],
          ${tags.people}::int[], ${tags.bots}::int[])
          AS tag("urlCode", "slot", "value", "people", "bots")
        JOIN links USING ("urlCode")
      ) AS tagged
      GROUP BY 1, 2, 3
    ), sub_id_history AS (
      SELECT "add_sub_id_clicks"(array_agg("linkId"), array_agg("slot"), array_agg("value"),
        array_agg("clicks"), array_agg("people" - "clicks"), array_agg("bots"))
      FROM tag_counts
    )`;
}

/**
 * One statement for a batch. Rows are locked in id order, so two batches sharing links (two
 * writes of this replica, or another replica's) wait for each other instead of deadlocking. A
 * client is fresh if its last counted click on the link is older than the window (the unique
 * (link, client) row decides, so concurrent replicas never both count one client); an address's
 * fresh clients count while its window on the link has counted fewer than MAX_CLICKS_PER_ADDRESS
 * (the unique (link, address) row keeps the window and tells how many of the batch's it admitted).
 * The same statement adds the batch to the links' hourly history (counted, repeats, bots) and to
 * their affiliates' hours, so the counter and the history never disagree (history rows are
 * written in key order too), and a tagged batch to the sub-ID history (`subIdHistory`).
 * The transaction commits without waiting for the WAL flush (`synchronous_commit` off for it
 * alone): clicks on one link queue on its row lock, held until the commit, and a flush per commit
 * capped a popular link at one batch per disk flush. The counts stay exact and survive any crash of
 * the service; only a crash of PostgreSQL itself could lose its last few hundred milliseconds of
 * clicks (docs/decisions.md, "Short links").
 */
export function clickStatement(clicksByCode: ReadonlyMap<string, readonly Click[]>): Prisma.Sql {
  const { codes, clients, addresses, links, people, bots, tags } = clickBatchRows(clicksByCode);
  const tagColumns = candidateTagColumns(tags);
  const windowPassed = Prisma.sql`held."windowStart"
    <= excluded."windowStart" - make_interval(secs => ${CLICK_REPEAT_WINDOW_S})`;
  return Prisma.sql`
    WITH links AS MATERIALIZED (
      SELECT link."id", link."urlCode", link."originalUrl", link."affiliateId", link."organizationId"
      FROM "ShortUrl" link
      WHERE link."urlCode" = ANY(${links}::text[]) AND link."active"
      ORDER BY link."id" FOR UPDATE OF link
    ), candidates AS (
      SELECT links."id" AS "linkId", batch."client", batch."address" ${tagColumns.columns}
      FROM unnest(${codes}::text[], ${clients}::text[], ${addresses}::text[] ${tagColumns.arrays})
        AS batch("urlCode", "client", "address" ${tagColumns.columns})
      JOIN links USING ("urlCode")
    ), fresh AS (
      INSERT INTO "RecentClick" ("linkId", "client", "address", "countedAt")
      SELECT "linkId", "client", "address", now() AT TIME ZONE 'UTC' FROM candidates
      ORDER BY "linkId", "client"
      ON CONFLICT ("linkId", "client") DO UPDATE
      SET "countedAt" = excluded."countedAt", "address" = excluded."address"
      WHERE "RecentClick"."countedAt"
        <= excluded."countedAt" - make_interval(secs => ${CLICK_REPEAT_WINDOW_S})
      RETURNING "linkId", "client", "address"
    ), address_windows AS (
      INSERT INTO "RecentClickAddress" AS held ("linkId", "address", "windowStart", "counted",
        "admitted")
      SELECT "linkId", "address", now() AT TIME ZONE 'UTC',
        least(count(*), ${MAX_CLICKS_PER_ADDRESS}), least(count(*), ${MAX_CLICKS_PER_ADDRESS})
      FROM fresh
      GROUP BY "linkId", "address"
      ORDER BY "linkId", "address"
      ON CONFLICT ("linkId", "address") DO UPDATE SET
        "windowStart" = CASE WHEN ${windowPassed} THEN excluded."windowStart"
          ELSE held."windowStart" END,
        "counted" = CASE WHEN ${windowPassed} THEN excluded."counted"
          ELSE held."counted" + least(excluded."admitted", ${MAX_CLICKS_PER_ADDRESS} - held."counted") END,
        "admitted" = CASE WHEN ${windowPassed} THEN excluded."admitted"
          ELSE least(excluded."admitted", ${MAX_CLICKS_PER_ADDRESS} - held."counted") END
      RETURNING "linkId", "address", "admitted"
    ), fresh_clicks AS (
      SELECT "linkId", sum("admitted")::int AS "clicks" FROM address_windows GROUP BY "linkId"
    ), counted AS (
      UPDATE "ShortUrl" link SET "clickCount" = link."clickCount" + fresh_clicks."clicks"
      FROM fresh_clicks
      WHERE link."id" = fresh_clicks."linkId" AND fresh_clicks."clicks" > 0
    ), link_hours AS (
      SELECT links."id" AS "linkId", links."affiliateId", links."organizationId", links."urlCode",
        date_trunc('hour', now() AT TIME ZONE 'UTC') AS "hour",
        coalesce(fresh_clicks."clicks", 0) AS "clicks",
        batch."people" - coalesce(fresh_clicks."clicks", 0) AS "repeats", batch."bots"
      FROM unnest(${links}::text[], ${people}::int[], ${bots}::int[])
        AS batch("urlCode", "people", "bots")
      JOIN links USING ("urlCode")
      LEFT JOIN fresh_clicks ON fresh_clicks."linkId" = links."id"
    ), link_history AS (
      INSERT INTO "LinkClickHour" AS history ("linkId", "hour", "affiliateId", "organizationId",
        "urlCode", "clicks", "repeats", "bots")
      SELECT "linkId", "hour", "affiliateId", "organizationId", "urlCode", "clicks", "repeats", "bots"
      FROM link_hours
      ORDER BY "linkId"
      ON CONFLICT ("linkId", "hour") DO UPDATE SET "clicks" = history."clicks" + excluded."clicks",
        "repeats" = history."repeats" + excluded."repeats", "bots" = history."bots" + excluded."bots"
    ), affiliate_history AS (
      INSERT INTO "AffiliateClickHour" AS history ("affiliateId", "hour", "clicks", "repeats", "bots")
      SELECT "affiliateId", "hour", sum("clicks"), sum("repeats"), sum("bots") FROM link_hours
      GROUP BY "affiliateId", "hour"
      ORDER BY "affiliateId"
      ON CONFLICT ("affiliateId", "hour") DO UPDATE SET "clicks" = history."clicks" + excluded."clicks",
        "repeats" = history."repeats" + excluded."repeats", "bots" = history."bots" + excluded."bots"
    ) ${tags ? subIdHistory(tags) : Prisma.empty}
    SELECT "urlCode", "originalUrl", set_config('synchronous_commit', 'off', true) AS "commit"
    FROM links ${tags ? Prisma.sql`CROSS JOIN sub_id_history` : Prisma.empty}`;
}

const writeClicks: WriteClicks<Click> = async (clicksByCode) => {
  const rows = await prisma.$queryRaw<{ urlCode: string; originalUrl: string }[]>(
    clickStatement(clicksByCode),
  );
  sweepRecentClicks();
  return new Map(rows.map((row) => [row.urlCode, row.originalUrl]));
};

/** Forgets the clients and address windows whose window has passed; returns how many. */
export async function forgetExpiredClickClients(): Promise<number> {
  const clients = await prisma.$executeRaw`
    DELETE FROM "RecentClick"
    WHERE "countedAt" < now() AT TIME ZONE 'UTC' - make_interval(secs => ${CLICK_REPEAT_WINDOW_S})`;
  const addresses = await prisma.$executeRaw`
    DELETE FROM "RecentClickAddress"
    WHERE "windowStart" < now() AT TIME ZONE 'UTC' - make_interval(secs => ${CLICK_REPEAT_WINDOW_S})`;
  return clients + addresses;
}

let lastSweep = 0;

/** At most once a window per replica, in the background. */
function sweepRecentClicks(nowMs = Date.now()): void {
  if (nowMs - lastSweep < CLICK_REPEAT_WINDOW_S * 1000) return;
  lastSweep = nowMs;
  forgetExpiredClickClients().catch((error: unknown) =>
    logger.warn({ err: error }, 'forgetting expired click clients failed'),
  );
}

/**
 * Records one click on an active link and returns where it leads; null when there is none.
 * One statement at a time: a statement's fixed cost (its round trip, the socket write waking
 * PostgreSQL) dwarfs its rows', and statements sharing a hot link only queue on its row lock anyway
 * (bench/results/changes.md).
 */
export const countClick = clickBatches(writeClicks, {
  maxWritesInFlight: 1,
  maxLinksPerBatch: 500,
});
