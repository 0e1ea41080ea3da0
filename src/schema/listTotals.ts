// The `total` of a list envelope. An exact count reads every matching index entry: nothing for a
// few thousand rows, 100+ ms for an affiliate with 500,000 orders, on every page of every request.
// So a list is counted exactly up to EXACT_UP_TO rows (a bounded count: it stops there), and a
// larger one is counted in full once and remembered by the app per list as the client asked for it (field,
// affiliate, filters; any page): served for FRESH_FOR_MS, then served while one background count
// refreshes it. A large total may thus lag up to about 30 s behind the rows (docs/decisions.md,
// "Performance"). A count under way is shared by the requests for its list; one that fails is
// counted again by each request that joined it, under its own deadline: PostgreSQL cancels a
// statement at the deadline of the request that started it (statement_timeout), which is no
// other request's failure.
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

/** Names one list as a client asked for it, whatever the page. */
export function listKey(
  field: string,
  affiliateId: string | null,
  { page: _page, limit: _limit, ...filters }: PageArgs & Record<string, unknown>,
): string {
  return JSON.stringify([field, affiliateId, filters]);
}

/** An app's large totals, and the counts under way (concurrent requests for one list share one). */
export class ListTotals {
  private readonly large = new Map<string, LargeTotal>();
  private readonly counting = new Map<string, Promise<number>>();

  async total(key: string, count: CountRows, nowMs = Date.now()): Promise<number> {
    const remembered = this.large.get(key);
    if (remembered) {
      if (nowMs - remembered.countedAt >= FRESH_FOR_MS && !this.counting.has(key)) {
        this.countOnce(key, () => this.countAndRemember(key, count)).catch((error: unknown) => {
          logger.warn({ err: error }, 'refreshing a list total failed; the previous one is served');
        });
      }
      return remembered.value;
    }
    const joined = this.counting.get(key);
    if (joined) {
      try {
        return await joined;
      } catch {
        // Counted again below, where the count is this request's own or started after it failed.
      }
    }
    return this.countOnce(key, async () => {
      const bounded = await count(EXACT_UP_TO + 1);
      return bounded <= EXACT_UP_TO ? bounded : this.countAndRemember(key, count);
    });
  }

  private async countAndRemember(key: string, count: CountRows): Promise<number> {
    const value = await count();
    this.large.delete(key);
    if (value <= EXACT_UP_TO) return value;
    if (this.large.size >= REMEMBERED_LISTS) {
      const oldest = this.large.keys().next();
      if (!oldest.done) this.large.delete(oldest.value);
    }
    this.large.set(key, { value, countedAt: Date.now() });
    return value;
  }

  private countOnce(key: string, work: () => Promise<number>): Promise<number> {
    let pending = this.counting.get(key);
    if (!pending) {
      pending = work().finally(() => this.counting.delete(key));
      this.counting.set(key, pending);
    }
    return pending;
  }
}
