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

/** Each link's distinct clients: a client twice in one batch is one candidate and one repeat. */
function countableClicks(clicksByCode: ReadonlyMap<string, readonly ClickClient[]>) {
  const codes: string[] = [];
  const clients: string[] = [];
  for (const [code, clicks] of clicksByCode) {
    for (const client of new Set(clicks)) {
      if (client === null) continue;
      codes.push(code);
      clients.push(client);
    }
  }
  return { codes, clients };
}

/**
 * One statement for a batch. Rows are locked in id order, so two batches sharing links (two
 * writes of this replica, or another replica's) wait for each other instead of deadlocking; a
 * client's click counts only if its last counted click on the link is older than the window (the
 * unique (link, client) row decides, so concurrent replicas never both count one client).
 * The transaction commits without waiting for the WAL flush (`synchronous_commit` off for it
 * alone): clicks on one link queue on its row lock, held until the commit, and a flush per commit
 * capped a popular link at one batch per disk flush. The counts stay exact and survive any crash of
 * the service; only a crash of PostgreSQL itself could lose its last few hundred milliseconds of
 * clicks (docs/decisions.md, "Short links").
 */
const writeClicks: WriteClicks = async (clicksByCode) => {
  const { codes, clients } = countableClicks(clicksByCode);
  const rows = await prisma.$queryRaw<{ urlCode: string; originalUrl: string }[]>`
    WITH links AS MATERIALIZED (
      SELECT link."id", link."urlCode", link."originalUrl" FROM "ShortUrl" link
      WHERE link."urlCode" = ANY(${[...clicksByCode.keys()]}::text[]) AND link."active"
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
    ), counted AS (
      UPDATE "ShortUrl" link SET "clickCount" = link."clickCount" + fresh_clicks."clicks"
      FROM (SELECT "linkId", count(*)::int AS "clicks" FROM fresh GROUP BY "linkId") fresh_clicks
      WHERE link."id" = fresh_clicks."linkId"
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
