// What the redirect counts, and how a batch of clicks is written (batching: ./clickBatches.ts).
// Counted is what affiliate networks count: one click per client (address and user agent) and
// link within CLICK_REPEAT_WINDOW_S, at most MAX_CLICKS_PER_ADDRESS clients of one address on a
// link per window, bots never; a click not counted is redirected all the same. Each click is also
// counted per sub-ID value it was tagged with (./subIds.ts); a value new to a link's hour takes
// one of its places only as its network's first there.
import { hash } from 'node:crypto';
import { prisma } from '../../platform/db';
import { Prisma } from '../../generated/prisma/client';
import { addressBucket } from '../../limits/addressBucket';
import { logger } from '../../platform/logger';
import { clickBatches, type WriteClicks } from './clickBatches';
import type { SubIds } from './subIds';

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
 * (address and user agent), the address's group, which bounds the clicks one address can add, and
 * its network, which bounds the sub-ID values one network can bring to a link's hour.
 */
export interface ClickVisitor {
  client: string;
  address: string;
  network: string;
}

const sha256 = (text: string) => hash('sha256', text, 'hex');

/**
 * The network of an address group (`addressBucket`): an IPv4 /24 or an IPv6 /48, the longest
 * prefixes routed on the internet, so each is one operator's. Its owner can use every address in
 * it (a free IPv6 tunnel comes with a /48), so a network, not an address, brings a new sub-ID value
 * (docs/decisions.md, "Sub-IDs"). Anything else (no address known) is its own network.
 */
export function networkOf(addressGroup: string): string {
  if (addressGroup.endsWith('::/64')) return `${addressGroup.split(':', 3).join(':')}::/48`;
  const octets = addressGroup.split('.');
  return octets.length === 4 ? `${octets.slice(0, 3).join('.')}.0/24` : addressGroup;
}

export function clickVisitorOf(clientIp: string, userAgent: string): ClickVisitor {
  const group = addressBucket(clientIp);
  return {
    client: sha256(`${clientIp}\n${userAgent}`),
    address: sha256(group),
    network: sha256(networkOf(group)),
  };
}

export interface Click {
  /** Who clicked; null for a bot (never counted). */
  visitor: ClickVisitor | null;
  /** The follow's sub-IDs; null for none. */
  subIds: SubIds | null;
}

/** A link's clicks with one value of one sub-ID: people's (counted or repeats) and bots'. */
interface ValueClicks {
  people: number;
  bots: number;
}

/** A tagged batch's values: each candidate's, and every click's per link, slot and value. */
export interface TagRows {
  /** One row per candidate and value it carries, with the candidate's network. */
  candidates: {
    codes: string[];
    clients: string[];
    networks: string[];
    slots: number[];
    values: string[];
  };
  clicks: { codes: string[]; slots: number[]; values: string[]; people: number[]; bots: number[] };
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
  const links: string[] = [];
  const people: number[] = [];
  const bots: number[] = [];
  const tags: TagRows = {
    candidates: { codes: [], clients: [], networks: [], slots: [], values: [] },
    clicks: { codes: [], slots: [], values: [], people: [], bots: [] },
  };
  for (const [code, clicks] of clicksByCode) {
    const distinct = new Map<string, Click>();
    const byValue = new Map<string, ValueClicks>();
    let botClicks = 0;
    for (const click of clicks) {
      const { visitor, subIds } = click;
      if (visitor === null) botClicks += 1;
      else if (!distinct.has(visitor.client)) distinct.set(visitor.client, click);
      if (subIds) countValues(byValue, subIds, visitor === null);
    }
    for (const [client, { visitor, subIds }] of distinct) {
      codes.push(code);
      clients.push(client);
      addresses.push(visitor!.address);
      subIds?.forEach((value, i) => {
        if (value === null) return;
        tags.candidates.codes.push(code);
        tags.candidates.clients.push(client);
        tags.candidates.networks.push(visitor!.network);
        tags.candidates.slots.push(i + 1);
        tags.candidates.values.push(value);
      });
    }
    for (const [key, counts] of byValue) {
      const split = key.indexOf('\n');
      tags.clicks.codes.push(code);
      tags.clicks.slots.push(Number(key.slice(0, split)));
      tags.clicks.values.push(key.slice(split + 1));
      tags.clicks.people.push(counts.people);
      tags.clicks.bots.push(counts.bots);
    }
    links.push(code);
    people.push(clicks.length - botClicks);
    bots.push(botClicks);
  }
  return {
    codes,
    clients,
    addresses,
    links,
    people,
    bots,
    tags: tags.clicks.codes.length ? tags : null,
  };
}

/** Counts a click under each of its values, keyed by slot and value (`${slot}\n${value}`). */
function countValues(byValue: Map<string, ValueClicks>, subIds: SubIds, isBot: boolean): void {
  subIds.forEach((value, i) => {
    if (value === null) return;
    const key = `${i + 1}\n${value}`;
    const counts = byValue.get(key) ?? { people: 0, bots: 0 };
    if (isBot) counts.bots += 1;
    else counts.people += 1;
    byValue.set(key, counts);
  });
}

/**
 * The sub-ID part of a tagged batch's statement: what it decided (its fresh clients, what each
 * address window admitted) and the batch's values, handed to "add_sub_id_clicks" (migration
 * sub_id_networks), which attributes the counted clicks to values and keeps a link's values per
 * hour bounded, at most one new value per network. The function runs once every link it names is
 * locked (its arguments come from them) and reads with a snapshot of its own, so the bound is exact
 * across replicas; its plan stays with the session, where this statement's would be made again for
 * every batch.
 */
function subIdHistory({ candidates, clicks }: TagRows): Prisma.Sql {
  return Prisma.sql`, sub_id_history AS (
      SELECT "add_sub_id_clicks"(fresh_rows."links", fresh_rows."clients", fresh_rows."addresses",
        windows."links", windows."addresses", windows."admitted",
        tagged."links", tagged."clients", tagged."networks", tagged."slots", tagged."values",
        clicked."links", clicked."slots", clicked."values", clicked."people", clicked."bots")
      FROM (
        SELECT array_agg("linkId") AS "links", array_agg("client") AS "clients",
          array_agg("address") AS "addresses"
        FROM fresh
      ) AS fresh_rows, (
        SELECT array_agg("linkId") AS "links", array_agg("address") AS "addresses",
          array_agg("admitted") AS "admitted"
        FROM address_windows
      ) AS windows, (
        SELECT array_agg(links."id") AS "links", array_agg(tag."client") AS "clients",
          array_agg(tag."network") AS "networks", array_agg(tag."slot") AS "slots",
          array_agg(tag."value") AS "values"
        FROM unnest(${candidates.codes}::text[], ${candidates.clients}::text[],
          ${candidates.networks}::text[], ${candidates.slots}::smallint[],
          ${candidates.values}::text[])
          AS tag("urlCode", "client", "network", "slot", "value")
        JOIN links USING ("urlCode")
      ) AS tagged, (
        SELECT array_agg(links."id") AS "links", array_agg(click."slot") AS "slots",
          array_agg(click."value") AS "values", array_agg(click."people") AS "people",
          array_agg(click."bots") AS "bots"
        FROM unnest(${clicks.codes}::text[], ${clicks.slots}::smallint[], ${clicks.values}::text[],
          ${clicks.people}::int[], ${clicks.bots}::int[])
          AS click("urlCode", "slot", "value", "people", "bots")
        JOIN links USING ("urlCode")
      ) AS clicked
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
function clickStatement(clicksByCode: ReadonlyMap<string, readonly Click[]>): Prisma.Sql {
  const { codes, clients, addresses, links, people, bots, tags } = clickBatchRows(clicksByCode);
  const windowPassed = Prisma.sql`held."windowStart"
    <= excluded."windowStart" - make_interval(secs => ${CLICK_REPEAT_WINDOW_S})`;
  return Prisma.sql`
    WITH links AS MATERIALIZED (
      SELECT link."id", link."urlCode", link."originalUrl", link."affiliateId", link."organizationId",
        link."campaignId"
      FROM "ShortUrl" link
      WHERE link."urlCode" = ANY(${links}::text[]) AND link."active"
      ORDER BY link."id" FOR UPDATE OF link
    ), candidates AS (
      SELECT links."id" AS "linkId", batch."client", batch."address"
      FROM unnest(${codes}::text[], ${clients}::text[], ${addresses}::text[])
        AS batch("urlCode", "client", "address")
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
        links."campaignId", date_trunc('hour', now() AT TIME ZONE 'UTC') AS "hour",
        coalesce(fresh_clicks."clicks", 0) AS "clicks",
        batch."people" - coalesce(fresh_clicks."clicks", 0) AS "repeats", batch."bots"
      FROM unnest(${links}::text[], ${people}::int[], ${bots}::int[])
        AS batch("urlCode", "people", "bots")
      JOIN links USING ("urlCode")
      LEFT JOIN fresh_clicks ON fresh_clicks."linkId" = links."id"
    ), link_history AS (
      INSERT INTO "LinkClickHour" AS history ("linkId", "hour", "affiliateId", "organizationId",
        "urlCode", "campaignId", "clicks", "repeats", "bots")
      SELECT "linkId", "hour", "affiliateId", "organizationId", "urlCode", "campaignId", "clicks",
        "repeats", "bots"
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

/**
 * Forgets the clients and address windows whose window has passed, and the networks that brought
 * sub-ID values before the previous hour (kept an hour more, so a statement that started in the
 * previous hour never misses them); returns how many rows went.
 */
export async function forgetExpiredClickClients(): Promise<number> {
  const clients = await prisma.$executeRaw`
    DELETE FROM "RecentClick"
    WHERE "countedAt" < now() AT TIME ZONE 'UTC' - make_interval(secs => ${CLICK_REPEAT_WINDOW_S})`;
  const addresses = await prisma.$executeRaw`
    DELETE FROM "RecentClickAddress"
    WHERE "windowStart" < now() AT TIME ZONE 'UTC' - make_interval(secs => ${CLICK_REPEAT_WINDOW_S})`;
  const networks = await prisma.$executeRaw`
    DELETE FROM "RecentSubIdNetwork"
    WHERE "hour" < date_trunc('hour', now() AT TIME ZONE 'UTC') - interval '1 hour'`;
  return clients + addresses + networks;
}

/**
 * An app's click counter: `count(urlCode, click)` records one click on an active link and returns
 * where it leads (null when there is none). One statement at a time: a statement's fixed cost (its
 * round trip, the socket write waking PostgreSQL) dwarfs its rows', and statements sharing a hot
 * link only queue on its row lock anyway (bench/results/changes.md). After a write, at most once a
 * window, it forgets the expired clients in the background.
 */
export function clickCounter(): (urlCode: string, click: Click) => Promise<string | null> {
  let lastSweep = 0;
  const writeClicks: WriteClicks<Click> = async (clicksByCode) => {
    const rows = await prisma.$queryRaw<{ urlCode: string; originalUrl: string }[]>(
      clickStatement(clicksByCode),
    );
    const now = Date.now();
    if (now - lastSweep >= CLICK_REPEAT_WINDOW_S * 1000) {
      lastSweep = now;
      forgetExpiredClickClients().catch((error: unknown) =>
        logger.warn({ err: error }, 'forgetting expired click clients failed'),
      );
    }
    return new Map(rows.map((row) => [row.urlCode, row.originalUrl]));
  };
  return clickBatches(writeClicks, { maxWritesInFlight: 1, maxLinksPerBatch: 500 });
}
