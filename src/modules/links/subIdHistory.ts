// How long the sub-ID click rollups are kept: rows of hours older than a report by sub-ID can
// read (./subIds.ts, SUB_ID_HISTORY_DAYS, plus a day) are deleted by a worker every replica runs,
// when it starts and hourly, off the redirect's path. The click statement writes only the current
// hour, so the deletion never waits on it, nor it on the deletion. The order sub-ID rollups follow
// the orders (kept by the order triggers, which take a changed order from the value it was added to).
import { Prisma } from '../../generated/prisma/client';
import { prisma } from '../../platform/db';
import { logger } from '../../platform/logger';
import type { Worker } from '../feature';
import { subIdClicksKeptFrom } from './subIds';

/** Rows per DELETE: a backlog is worked off without one long transaction. */
const DELETE_BATCH = 10_000;
const PRUNE_INTERVAL_MS = 3_600_000;

/** The click rollups by sub-ID, each with its primary key. */
const ROLLUPS = [
  { table: Prisma.sql`"LinkSubIdClickHour"`, key: Prisma.sql`"linkId", "hour", "slot", "value"` },
  {
    table: Prisma.sql`"AffiliateSubIdClickHour"`,
    key: Prisma.sql`"affiliateId", "slot", "hour", "value"`,
  },
];

/** Deletes the sub-ID click rollup rows of hours before what is kept at `now`; answers how many. */
export async function forgetOldSubIdClicks(now: Date): Promise<number> {
  const before = Prisma.sql`(${subIdClicksKeptFrom(now).toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
  let deleted = 0;
  for (const { table, key } of ROLLUPS) {
    for (;;) {
      const count = await prisma.$executeRaw`
        DELETE FROM ${table} WHERE (${key}) IN (
          SELECT ${key} FROM ${table} WHERE "hour" < ${before} LIMIT ${DELETE_BATCH})`;
      deleted += count;
      if (count < DELETE_BATCH) break;
    }
  }
  return deleted;
}

/** Forgets old sub-ID clicks when it starts, then every hour. */
export const subIdHistoryWorker: Worker = {
  name: 'sub-ID click history',
  start() {
    const prune = () =>
      forgetOldSubIdClicks(new Date()).catch((error: unknown) => {
        logger.warn({ err: error }, 'old sub-ID clicks could not be deleted');
        return 0;
      });
    let pruning = prune();
    const timer = setInterval(() => {
      pruning = prune();
    }, PRUNE_INTERVAL_MS);
    timer.unref();
    return {
      async stop() {
        clearInterval(timer);
        await pruning;
      },
    };
  },
};
