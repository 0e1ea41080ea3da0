// The retry schedule of failed deliveries, with its jitter, and an attempt's deadline.
import { loadConfig } from '../../src/platform/config';
import { attemptTimeoutMs } from '../../src/outbox/dispatcher';
import { retryDelayMs } from '../../src/outbox/retries';

const SCHEDULE = loadConfig({ DASHBOARD_JWT_SECRET: 'x'.repeat(32) }).webhookRetryDelaysS;

test('the default schedule is Standard Webhooks’: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
  expect(SCHEDULE).toEqual([5, 300, 1_800, 7_200, 18_000, 36_000, 36_000]);
  // About a day from the first attempt to the last.
  const totalHours = SCHEDULE.reduce((sum, seconds) => sum + seconds, 0) / 3_600;
  expect(totalHours).toBeCloseTo(27.6, 1);
});

test.each([
  [1, 5_000],
  [2, 300_000],
  [7, 36_000_000],
])('after %i failed attempts, the next comes after %i ms (no jitter at the middle)', (made, ms) => {
  expect(retryDelayMs(made, SCHEDULE, 0.5)).toBe(ms);
});

test('jitter moves a wait by at most a fifth either way', () => {
  expect(retryDelayMs(2, SCHEDULE, 0)).toBe(240_000);
  expect(retryDelayMs(2, SCHEDULE, 0.999_999)).toBeCloseTo(360_000, -1);
});

test('after the last retry, the delivery has failed', () => {
  expect(retryDelayMs(8, SCHEDULE, 0.5)).toBeNull();
  expect(retryDelayMs(2, [1], 0.5)).toBeNull();
});

test('an attempt lasts at most 10 s, and never beyond half its claim', () => {
  expect(attemptTimeoutMs(60)).toBe(10_000);
  expect(attemptTimeoutMs(4)).toBe(2_000);
});

test('WEBHOOK_RETRY_DELAYS_S takes a comma list of positive integers', () => {
  const base = { DASHBOARD_JWT_SECRET: 'x'.repeat(32) };
  expect(loadConfig({ ...base, WEBHOOK_RETRY_DELAYS_S: '1, 2,3' }).webhookRetryDelaysS).toEqual([
    1, 2, 3,
  ]);
  expect(() => loadConfig({ ...base, WEBHOOK_RETRY_DELAYS_S: '1,0' })).toThrow(
    'WEBHOOK_RETRY_DELAYS_S takes integers >= 1 separated by commas, got "1,0"',
  );
});
