// Clicks of the redirect, counted in batches: a click that arrives while earlier ones are being
// written joins the next write, so a busy replica writes one statement per batch instead of one
// per click (the row lock of a popular link, the round trip and the statement's own cost are paid
// once per batch). A click is answered only after the statement holding it has committed, so no
// acknowledged click is ever lost; an idle replica writes each click at once, without waiting.
import { prisma } from '../db';

/** Adds each link's clicks; returns where each active link leads (inactive or unknown: absent). */
export type WriteClicks = (
  clicksByCode: ReadonlyMap<string, number>,
) => Promise<Map<string, string>>;

interface Pending {
  clicks: number;
  waiters: { resolve(target: string | null): void; reject(error: unknown): void }[];
}

export interface ClickBatchSettings {
  /** Batches being written at once (each holds a pooled connection). */
  maxWritesInFlight: number;
  /** Links per statement; more wait for the next batch. */
  maxLinksPerBatch: number;
}

/** `count(urlCode)`: counts one click and resolves to the link's target, null when none is active. */
export function clickBatches(
  write: WriteClicks,
  { maxWritesInFlight, maxLinksPerBatch }: ClickBatchSettings,
): (urlCode: string) => Promise<string | null> {
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
      const clicksByCode = new Map([...batch].map(([code, { clicks }]) => [code, clicks]));
      write(clicksByCode)
        .then(
          (targets) => {
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

  return (urlCode) =>
    new Promise((resolve, reject) => {
      const entry = pending.get(urlCode) ?? { clicks: 0, waiters: [] };
      entry.clicks += 1;
      entry.waiters.push({ resolve, reject });
      pending.set(urlCode, entry);
      writeWhileAllowed();
    });
}

/**
 * One statement for a batch. Rows are locked in id order, so two batches sharing links (two
 * writes of this replica, or another replica's) wait for each other instead of deadlocking.
 * The transaction commits without waiting for the WAL flush (`synchronous_commit` off for it
 * alone): clicks on one link queue on its row lock, held until the commit, and a flush per commit
 * capped a popular link at one batch per disk flush. The counts stay exact and survive any crash of
 * the service; only a crash of PostgreSQL itself could lose its last few hundred milliseconds of
 * clicks (docs/decisions.md).
 */
export const writeClicks: WriteClicks = async (clicksByCode) => {
  const codes = [...clicksByCode.keys()];
  const clicks = [...clicksByCode.values()];
  const rows = await prisma.$queryRaw<{ urlCode: string; originalUrl: string }[]>`
    WITH batch AS (
      SELECT * FROM unnest(${codes}::text[], ${clicks}::int[]) AS b("urlCode", "clicks")
    ), locked AS MATERIALIZED (
      SELECT link."id", batch."clicks" FROM "ShortUrl" link JOIN batch USING ("urlCode")
      WHERE link."active" ORDER BY link."id" FOR UPDATE OF link
    ), counted AS (
      UPDATE "ShortUrl" link SET "clickCount" = link."clickCount" + locked."clicks"
      FROM locked WHERE link."id" = locked."id"
      RETURNING link."urlCode", link."originalUrl"
    )
    SELECT "urlCode", "originalUrl", set_config('synchronous_commit', 'off', true) AS "commit"
    FROM counted`;
  return new Map(rows.map((row) => [row.urlCode, row.originalUrl]));
};

/**
 * Counts one click on an active link and returns where it leads; null when there is none.
 * One statement at a time: a statement's fixed cost (its round trip, the socket write waking
 * PostgreSQL) dwarfs its rows' (one hot link, 50 connections: 4 in flight wrote ~6 clicks per
 * statement, 1 writes ~21 and answers 1.6-1.8x the clicks per second; bench/results/changes.md),
 * and statements sharing a hot link only queue on its row lock anyway.
 */
export const countClick = clickBatches(writeClicks, {
  maxWritesInFlight: 1,
  maxLinksPerBatch: 500,
});
