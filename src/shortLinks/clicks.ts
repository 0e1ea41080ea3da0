// Clicks of the redirect, counted in batches: a click that arrives while earlier ones are being
// written joins the next write, so a busy replica writes one statement per batch instead of one
// per click (the row lock of a popular link, the round trip and the statement's own cost are paid
// once per batch). A click is answered only after the statement holding it has committed, so no
// acknowledged click is ever lost; an idle replica writes each click at once, without waiting.
//
// Counted is what affiliate networks count: one click per client (address and user agent) and
// link within CLICK_REPEAT_WINDOW_S, bots never. A repeat or a bot is redirected all the same.
import { createHash } from 'node:crypto';
import { prisma } from '../db';
import { logger } from '../logger';
import { clickBatchLag, clickBatchSize } from '../metrics';

/** A client's repeat on the same link within this window is not counted again. */
export const CLICK_REPEAT_WINDOW_S = 60;

/** Who followed a link: a hash of the address and user agent; null for a bot (never counted). */
export type ClickClient = string | null;

export function clickClientOf(clientIp: string, userAgent: string): string {
  return createHash('sha256').update(`${clientIp}\n${userAgent}`).digest('hex');
}

/** Records each link's clicks; returns where each active link leads (inactive or unknown: absent). */
export type WriteClicks = (
  clicksByCode: ReadonlyMap<string, readonly ClickClient[]>,
) => Promise<Map<string, string>>;

interface Pending {
  /** When the first of these clicks arrived (performance.now()). */
  since: number;
  clients: ClickClient[];
  waiters: { resolve(target: string | null): void; reject(error: unknown): void }[];
}

export interface ClickBatchSettings {
  /** Batches being written at once (each holds a pooled connection). */
  maxWritesInFlight: number;
  /** Links per statement; more wait for the next batch. */
  maxLinksPerBatch: number;
}

/** `count(urlCode, client)`: records one click; resolves to the link's target, null when none is active. */
export function clickBatches(
  write: WriteClicks,
  { maxWritesInFlight, maxLinksPerBatch }: ClickBatchSettings,
): (urlCode: string, client: ClickClient) => Promise<string | null> {
  const pending = new Map<string, Pending>();
  let writesInFlight = 0;

  function takeBatch(): Map<string, Pending> {
    const batch = new Map<string, Pending>();
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
      const clicksByCode = new Map([...batch].map(([code, { clients }]) => [code, clients]));
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

  return (urlCode, client) =>
    new Promise((resolve, reject) => {
      const entry = pending.get(urlCode) ?? { since: performance.now(), clients: [], waiters: [] };
      entry.clients.push(client);
      entry.waiters.push({ resolve, reject });
      pending.set(urlCode, entry);
      writeWhileAllowed();
    });
}

function observeBatch(batch: ReadonlyMap<string, Pending>): void {
  let clicks = 0;
  let since = Infinity;
  for (const pending of batch.values()) {
    clicks += pending.clients.length;
    since = Math.min(since, pending.since);
  }
  clickBatchSize.observe(clicks);
  clickBatchLag.observe((performance.now() - since) / 1000);
}

/**
 * What a batch asks of the database: each link's distinct clients (a client twice in one batch is
 * one candidate and one repeat), and each link's clicks by people and by bots, for the hourly
 * history (the database tells which candidates count; the other people's clicks are repeats).
 */
export function clickBatchRows(clicksByCode: ReadonlyMap<string, readonly ClickClient[]>) {
  const codes: string[] = [];
  const clients: string[] = [];
  const links: string[] = [];
  const people: number[] = [];
  const bots: number[] = [];
  for (const [code, clicks] of clicksByCode) {
    const distinct = new Set(clicks);
    for (const client of distinct) {
      if (client === null) continue;
      codes.push(code);
      clients.push(client);
    }
    const botClicks = clicks.filter((client) => client === null).length;
    links.push(code);
    people.push(clicks.length - botClicks);
    bots.push(botClicks);
  }
  return { codes, clients, links, people, bots };
}

/**
 * One statement for a batch. Rows are locked in id order, so two batches sharing links (two
 * writes of this replica, or another replica's) wait for each other instead of deadlocking; a
 * client's click counts only if its last counted click on the link is older than the window (the
 * unique (link, client) row decides, so concurrent replicas never both count one client).
 * The same statement adds the batch to the links' hourly history (counted, repeats, bots) and to
 * their affiliates' hours, so the counter and the history never disagree; history rows are
 * written in key order too.
 * The transaction commits without waiting for the WAL flush (`synchronous_commit` off for it
 * alone): clicks on one link queue on its row lock, held until the commit, and a flush per commit
 * capped a popular link at one batch per disk flush. The counts stay exact and survive any crash of
 * the service; only a crash of PostgreSQL itself could lose its last few hundred milliseconds of
 * clicks (docs/decisions.md, "Short links").
 */
const writeClicks: WriteClicks = async (clicksByCode) => {
  const { codes, clients, links, people, bots } = clickBatchRows(clicksByCode);
  const rows = await prisma.$queryRaw<{ urlCode: string; originalUrl: string }[]>`
    WITH links AS MATERIALIZED (
      SELECT link."id", link."urlCode", link."originalUrl", link."affiliateId", link."organizationId"
      FROM "ShortUrl" link
      WHERE link."urlCode" = ANY(${links}::text[]) AND link."active"
      ORDER BY link."id" FOR UPDATE OF link
    ), fresh AS (
      INSERT INTO "RecentClick" ("linkId", "client", "countedAt")
      SELECT links."id", batch."client", now() AT TIME ZONE 'UTC'
      FROM unnest(${codes}::text[], ${clients}::text[]) AS batch("urlCode", "client")
      JOIN links USING ("urlCode")
      ORDER BY links."id", batch."client"
      ON CONFLICT ("linkId", "client") DO UPDATE SET "countedAt" = excluded."countedAt"
      WHERE "RecentClick"."countedAt"
        <= excluded."countedAt" - make_interval(secs => ${CLICK_REPEAT_WINDOW_S})
      RETURNING "linkId"
    ), fresh_clicks AS (
      SELECT "linkId", count(*)::int AS "clicks" FROM fresh GROUP BY "linkId"
    ), counted AS (
      UPDATE "ShortUrl" link SET "clickCount" = link."clickCount" + fresh_clicks."clicks"
      FROM fresh_clicks
      WHERE link."id" = fresh_clicks."linkId"
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

/** Forgets the clients whose window has passed; returns how many. */
export function forgetExpiredClickClients(): Promise<number> {
  return prisma.$executeRaw`
    DELETE FROM "RecentClick"
    WHERE "countedAt" < now() AT TIME ZONE 'UTC' - make_interval(secs => ${CLICK_REPEAT_WINDOW_S})`;
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
