// List totals: exact up to 10,000 rows; above, counted once and remembered (30 s fresh, then
// refreshed in the background while served).
import { EXACT_UP_TO, FRESH_FOR_MS, listKey, ListTotals } from '../../src/schema/listTotals';

const totals = new ListTotals();
const listTotal = totals.total.bind(totals);

/** A list of `rows` rows whose counts are recorded (`take` of each call). */
function listOf(rows: number) {
  const state = { rows, calls: [] as Array<number | undefined> };
  const count = async (take?: number) => {
    state.calls.push(take);
    return take === undefined ? state.rows : Math.min(state.rows, take);
  };
  return { state, count };
}

let lists = 0;
const freshKey = () => listKey('affiliateOrders', `affiliate-${++lists}`, { status: ['PAID'] });

test('a list key ignores the page and the limit, and tells affiliates and filters apart', () => {
  const key = listKey('affiliateOrders', 'a', { page: 3, limit: 50, status: ['PAID'] });
  expect(listKey('affiliateOrders', 'a', { page: 1, status: ['PAID'] })).toBe(key);
  expect(listKey('affiliateOrders', 'b', { status: ['PAID'] })).not.toBe(key);
  expect(listKey('affiliateOrders', 'a', { status: ['PENDING'] })).not.toBe(key);
});

test('up to 10,000 rows the total is exact on every request, from a bounded count', async () => {
  const key = freshKey();
  const { state, count } = listOf(EXACT_UP_TO);
  expect(await listTotal(key, count)).toBe(EXACT_UP_TO);
  state.rows = 42;
  expect(await listTotal(key, count)).toBe(42);
  expect(state.calls).toEqual([EXACT_UP_TO + 1, EXACT_UP_TO + 1]);
});

test('a larger list is counted in full once, then remembered while fresh', async () => {
  const key = freshKey();
  const { state, count } = listOf(500_000);
  expect(await listTotal(key, count)).toBe(500_000);
  state.rows = 500_001;
  expect(await listTotal(key, count, Date.now() + FRESH_FOR_MS - 1_000)).toBe(500_000);
  expect(state.calls).toEqual([EXACT_UP_TO + 1, undefined]);
});

test('once stale, the remembered total is served while one background count refreshes it', async () => {
  const key = freshKey();
  const { state, count } = listOf(500_000);
  await listTotal(key, count);
  state.rows = 600_000;
  const later = Date.now() + FRESH_FOR_MS;
  expect(await Promise.all([listTotal(key, count, later), listTotal(key, count, later)])).toEqual([
    500_000, 500_000,
  ]);
  await new Promise((resolve) => setImmediate(resolve));
  expect(await listTotal(key, count)).toBe(600_000);
  expect(state.calls).toEqual([EXACT_UP_TO + 1, undefined, undefined]);
});

test('concurrent first requests share one full count', async () => {
  const key = freshKey();
  const { state, count } = listOf(20_000);
  expect(await Promise.all([listTotal(key, count), listTotal(key, count)])).toEqual([
    20_000, 20_000,
  ]);
  expect(state.calls.filter((take) => take === undefined)).toHaveLength(1);
});

test('a list that shrinks below 10,000 is exact again after its refresh', async () => {
  const key = freshKey();
  const { state, count } = listOf(20_000);
  await listTotal(key, count);
  state.rows = 9_000;
  await listTotal(key, count, Date.now() + FRESH_FOR_MS);
  await new Promise((resolve) => setImmediate(resolve));
  state.rows = 8_000;
  expect(await listTotal(key, count)).toBe(8_000);
});

test("a request that joined another's count, which failed for that one (its statement cancelled at its deadline), counts again itself", async () => {
  const key = freshKey();
  const { state, count } = listOf(42);
  let cancel!: (error: Error) => void;
  const first = listTotal(key, () => new Promise<number>((_, reject) => (cancel = reject)));
  const joined = listTotal(key, count);
  cancel(new Error('canceling statement due to statement timeout'));
  await expect(first).rejects.toThrow('statement timeout');
  expect(await joined).toBe(42);
  expect(state.calls).toEqual([EXACT_UP_TO + 1]);
});

test('a count that fails for the request that started it fails that request, once', async () => {
  const key = freshKey();
  let calls = 0;
  const failing = async () => {
    calls += 1;
    throw new Error('database unavailable');
  };
  await expect(listTotal(key, failing)).rejects.toThrow('database unavailable');
  expect(calls).toBe(1);
});
