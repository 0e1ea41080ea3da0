// The `total` of a list envelope. An exact count reads every matching index entry: nothing for a
// few thousand rows, 100+ ms for an affiliate with 500,000 orders, on every page of every request.
// So a list is counted exactly up to EXACT_UP_TO rows (a bounded count: it stops there), and a
// larger one is counted in full once and remembered per list as the client asked for it (field,
// affiliate, filters; any page): served for FRESH_FOR_MS, then served while one background count
// refreshes it. A large total may thus lag up to about 30 s behind the rows (docs/decisions.md,
// "Performance").
import { logger } from '../platform/logger';
import type { PageArgs } from './pagination';

export const EXACT_UP_TO = 10_000;
export const FRESH_FOR_MS = 30_000;
const REMEMBERED_LISTS = 10_000;

/** Counts the list's rows, at most `take` of them when given. */
export type CountRows = (take?: number) => Promise<number>;

interface LargeTotal {
  value: number;
  countedAt: number;
}

const largeTotals = new Map<string, LargeTotal>();
const counting = new Map<string, Promise<number>>();

/** Names one list as a client asked for it, whatever the page. */
export function listKey(
  field: string,
  affiliateId: string | null,
  { page: _page, limit: _limit, ...filters }: PageArgs & Record<string, unknown>,
): string {
  return JSON.stringify([field, affiliateId, filters]);
}

async function countAndRemember(key: string, count: CountRows): Promise<number> {
  const value = await count();
  largeTotals.delete(key);
  if (value <= EXACT_UP_TO) return value;
  if (largeTotals.size >= REMEMBERED_LISTS) {
    const oldest = largeTotals.keys().next();
    if (!oldest.done) largeTotals.delete(oldest.value);
  }
  largeTotals.set(key, { value, countedAt: Date.now() });
  return value;
}

/** Counts under way: concurrent requests for one list share one. */
function countOnce(key: string, work: () => Promise<number>): Promise<number> {
  let pending = counting.get(key);
  if (!pending) {
    pending = work().finally(() => counting.delete(key));
    counting.set(key, pending);
  }
  return pending;
}

export async function listTotal(
  key: string,
  count: CountRows,
  nowMs = Date.now(),
): Promise<number> {
  const remembered = largeTotals.get(key);
  if (remembered) {
    if (nowMs - remembered.countedAt >= FRESH_FOR_MS && !counting.has(key)) {
      countOnce(key, () => countAndRemember(key, count)).catch((error: unknown) => {
        logger.warn({ err: error }, 'refreshing a list total failed; the previous one is served');
      });
    }
    return remembered.value;
  }
  return countOnce(key, async () => {
    const bounded = await count(EXACT_UP_TO + 1);
    return bounded <= EXACT_UP_TO ? bounded : countAndRemember(key, count);
  });
}
