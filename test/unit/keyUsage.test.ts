// The in-process half of "at most one usage write per key per minute", and which client
// addresses are worth storing.
import { PerKeyThrottle, storableIp, USAGE_INTERVAL_MS } from '../../src/auth/keyUsage';

describe('PerKeyThrottle', () => {
  test('lets a key act once per interval', () => {
    const throttle = new PerKeyThrottle(60_000);
    expect(throttle.tryAcquire('k', 0)).toBe(true);
    expect(throttle.tryAcquire('k', 1)).toBe(false);
    expect(throttle.tryAcquire('k', 59_999)).toBe(false);
    expect(throttle.tryAcquire('k', 60_000)).toBe(true);
    expect(throttle.tryAcquire('k', 60_001)).toBe(false);
  });

  test('keys are throttled independently', () => {
    const throttle = new PerKeyThrottle(60_000);
    expect(throttle.tryAcquire('a', 0)).toBe(true);
    expect(throttle.tryAcquire('b', 0)).toBe(true);
    expect(throttle.tryAcquire('a', 10)).toBe(false);
  });

  test('20 uses within a minute: one action', () => {
    const throttle = new PerKeyThrottle(USAGE_INTERVAL_MS);
    const acted = Array.from({ length: 20 }, (_, n) => throttle.tryAcquire('k', n * 1_000));
    expect(acted.filter(Boolean)).toHaveLength(1);
  });

  test('release lets the next use act again (a failed write is retried)', () => {
    const throttle = new PerKeyThrottle(60_000);
    throttle.tryAcquire('k', 0);
    throttle.release('k');
    expect(throttle.tryAcquire('k', 1)).toBe(true);
  });

  test('forgets keys idle for an interval once it remembers too many', () => {
    const throttle = new PerKeyThrottle(60_000, 3);
    for (const key of ['a', 'b', 'c']) throttle.tryAcquire(key, 0);
    expect(throttle.tryAcquire('d', 60_000)).toBe(true);
    expect(throttle.size).toBe(1);
    // A key still within its interval is remembered through a prune.
    const busy = new PerKeyThrottle(60_000, 2);
    busy.tryAcquire('a', 0);
    busy.tryAcquire('b', 59_000);
    busy.tryAcquire('c', 60_000);
    expect(busy.tryAcquire('b', 60_001)).toBe(false);
  });
});

describe('storableIp', () => {
  test.each([
    ['203.0.113.7', '203.0.113.7'],
    ['2001:db8::1', '2001:db8::1'],
    ['::ffff:127.0.0.1', '::ffff:127.0.0.1'],
    ['unknown', null],
    ['', null],
    [null, null],
    [undefined, null],
    ['203.0.113.7, 10.0.0.1', null],
    ['<script>', null],
  ])('%p -> %p', (ip, stored) => {
    expect(storableIp(ip)).toBe(stored);
  });
});
