// Clicks of the redirect, counted in batches: a click that arrives while earlier ones are being
// written joins the next write, so a busy replica writes one statement per batch instead of one
// per click (the row lock of a popular link, the round trip and the statement's own cost are paid
// once per batch). A click is answered only after the statement holding it has committed, so no
// acknowledged click is ever lost; an idle replica writes each click at once, without waiting.
//
// Counted is what affiliate networks count: one click per client (address and user agent) and
// link within CLICK_REPEAT_WINDOW_S, at most MAX_CLICKS_PER_ADDRESS clients of one address on a
// link per window, bots never. A click not counted is redirected all the same.
import { createHash } from 'node:crypto';
import { prisma } from '../db';
import { addressBucket } from '../limits/addressBucket';
import { logger } from '../logger';
import { clickBatchLag, clickBatchSize } from '../metrics';

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

/** A visitor to count; null for a bot (never counted). */
export type ClickClient = ClickVisitor | null;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function clickVisitorOf(clientIp: string, userAgent: string): ClickVisitor {
  return { client: sha256(`${clientIp}\n${userAgent}`), address: sha256(addressBucket(clientIp)) };
}

/** Records each link's clicks; returns where each active link leads (inactive or unknown: absent). */
export type WriteClicks<Click> = (
  clicksByCode: ReadonlyMap<string, readonly Click[]>,
) => Promise<Map<string, string>>;

interface Pending<Click> {
  /** When the first of these clicks arrived (performance.now()). */
  since: number;
  clicks: Click[];
  waiters: { resolve(target: string | null): void; reject(error: unknown): void }[];
}

export interface ClickBatchSettings {
  /** Batches being written at once (each holds a pooled connection). */
  maxWritesInFlight: number;
  /** Links per statement; more wait for the next batch. */
  maxLinksPerBatch: number;
}

/** `count(urlCode, click)`: records one click; resolves to the link's target, null when none is active. */
export function clickBatches<Click>(
  write: WriteClicks<Click>,
  { maxWritesInFlight, maxLinksPerBatch }: ClickBatchSettings,
): (urlCode: string, click: Click) => Promise<string | null> {
  const pending = new Map<string, Pending<Click>>();
  let writesInFlight = 0;

  function takeBatch(): Map<string, Pending<Click>> {
    const batch = new Map<string, Pending<Click>>();
    for (const [code, clicks] of pending) {
      if (batch.size === maxLinksPerBatch) break;
      batch.set(code, clicks);
      pending.delete(code);
    }
    return batch;
  }

  function writeWhileAllowed(): void {
    while (pending.size > 0 && writesInFlight < maxWritesInFlight) {
      const batch = takeBatch();
      writesInFlight += 1;
      const clicksByCode = new Map([...batch].map(([code, { clicks }]) => [code, clicks]));
      write(clicksByCode)
        .then(
          (targets) => {
            observeBatch(batch);
            for (const [code, { waiters }] of batch) {
              for (const waiter of waiters) waiter.resolve(targets.get(code) ?? null);
            }
          },
          (error: unknown) => {
            for (const { waiters } of batch.values()) {
              for (const waiter of waiters) waiter.reject(error);
            }
          },
        )
        .finally(() => {
          writesInFlight -= 1;
          writeWhileAllowed();
        });
    }
  }

  return (urlCode, click) =>
    new Promise((resolve, reject) => {
      const entry = pending.get(urlCode) ?? { since: performance.now(), clicks: [], waiters: [] };
      entry.clicks.push(click);
      entry.waiters.push({ resolve, reject });
      pending.set(urlCode, entry);
      writeWhileAllowed();
    });
}

function observeBatch<Click>(batch: ReadonlyMap<string, Pending<Click>>): void {
  let clicks = 0;
  let since = Infinity;
  for (const pending of batch.values()) {
    clicks += pending.clicks.length;
    since = Math.min(since, pending.since);
  }
  clickBatchSize.observe(clicks);
  clickBatchLag.observe((performance.now() - since) / 1000);
}

/**
 * What a batch asks of the database: each link's distinct clients with their addresses (a client
 * twice in one batch is one candidate and one repeat), and each link's clicks by people and by
 * bots, for the hourly history (the database tells which candidates count; the other people's
 * clicks are repeats).
 */
export function clickBatchRows(clicksByCode: ReadonlyMap<string, readonly ClickClient[]>) {
  const codes: string[] = [];
  const clients: string[] = [];
  const addresses: string[] = [];
  const links: string[] = [];
  const people: number[] = [];
  const bots: number[] = [];
  for (const [code, clicks] of clicksByCode) {
    const distinct = new Map<string, string>();
    let botClicks = 0;
    for (const visitor of clicks) {
      if (visitor === null) botClicks += 1;
      else if (!distinct.has(visitor.client)) distinct.set(visitor.client, visitor.address);
    }
    for (const [client, address] of distinct) {
      codes.push(code);
      clients.push(client);
      addresses.push(address);
    }
    links.push(code);
    people.push(clicks.length - botClicks);
    bots.push(botClicks);
  }
  return { codes, clients, addresses, links, people, bots };
}

/**
 * One statement for a batch. Rows are locked in id order, so two batches sharing links (two
 * writes of this replica, or another replica's) wait for each other instead of deadlocking. A
 * client is fresh if its last counted click on the link is older than the window (the unique
 * (link, client) row decides, so concurrent replicas never both count one client); an address's
 * fresh clients count while its window on the link holds fewer than MAX_CLICKS_PER_ADDRESS (the
 * unique (link, address) row keeps the window: `clients` is how many fresh clients it has seen,
 * so of a batch's `n` the first `max - (clients - n)` count, none once the window is full).
 * The same statement adds the batch to the links' hourly history (counted, repeats, bots) and to
 * their affiliates' hours, so the counter and the history never disagree; history rows are
 * written in key order too.
 * The transaction commits without waiting for the WAL flush (`synchronous_commit` off for it
 * alone): clicks on one link queue on its row lock, held until the commit, and a flush per commit
 * capped a popular link at one batch per disk flush. The counts stay exact and survive any crash of
 * the service; only a crash of PostgreSQL itself could lose its last few hundred milliseconds of
 * clicks (docs/decisions.md, "Short links").
 */
const writeClicks: WriteClicks<ClickClient> = async (clicksByCode) => {
  const { codes, clients, addresses, links, people, bots } = clickBatchRows(clicksByCode);
  const rows = await prisma.$queryRaw<{ urlCode: string; originalUrl: string }[]>`
    WITH links AS MATERIALIZED (
      SELECT link."id", link."urlCode", link."originalUrl", link."affiliateId", link."organizationId"
      FROM "ShortUrl" link
      WHERE link."urlCode" = ANY(${links}::text[]) AND link."active"
      ORDER BY link."id" FOR UPDATE OF link
    ), candidates AS MATERIALIZED (
      SELECT links."id" AS "linkId", batch."client", batch."address"
      FROM unnest(${codes}::text[], ${clients}::text[], ${addresses}::text[])
        AS batch("urlCode", "client", "address")
      JOIN links USING ("urlCode")
    ), fresh AS (
      INSERT INTO "RecentClick" ("linkId", "client", "countedAt")
      SELECT "linkId", "client", now() AT TIME ZONE 'UTC' FROM candidates
      ORDER BY "linkId", "client"
      ON CONFLICT ("linkId", "client") DO UPDATE SET "countedAt" = excluded."countedAt"
      WHERE "RecentClick"."countedAt"
        <= excluded."countedAt" - make_interval(secs => ${CLICK_REPEAT_WINDOW_S})
      RETURNING "linkId", "client"
    ), fresh_by_address AS (
      SELECT "linkId", candidates."address", count(*)::int AS "clients"
      FROM fresh JOIN candidates USING ("linkId", "client")
      GROUP BY 1, 2
    ), address_windows AS (
      INSERT INTO "RecentClickAddress" AS held ("linkId", "address", "windowStart", "clients")
      SELECT "linkId", "address", now() AT TIME ZONE 'UTC', "clients" FROM fresh_by_address
      ORDER BY "linkId", "address"
      ON CONFLICT ("linkId", "address") DO UPDATE SET
        "clients" = CASE WHEN held."windowStart"
            <= excluded."windowStart" - make_interval(secs => ${CLICK_REPEAT_WINDOW_S})
          THEN excluded."clients" ELSE held."clients" + excluded."clients" END,
        "windowStart" = CASE WHEN held."windowStart"
            <= excluded."windowStart" - make_interval(secs => ${CLICK_REPEAT_WINDOW_S})
          THEN excluded."windowStart" ELSE held."windowStart" END
      RETURNING "linkId", "address", "clients"
    ), fresh_clicks AS (
      SELECT "linkId", sum(greatest(0, least(held."clients", ${MAX_CLICKS_PER_ADDRESS})
          - (held."clients" - batch."clients")))::int AS "clicks"
      FROM address_windows held JOIN fresh_by_address batch USING ("linkId", "address")
      GROUP BY "linkId"
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
    )
    SELECT "urlCode", "originalUrl", set_config('synchronous_commit', 'off', true) AS "commit"
    FROM links`;
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
