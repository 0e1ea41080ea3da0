// The remembered keys: trusted for a minute while changes are heard, 1 s otherwise; forgotten per
// key or per account on a change; bounded.
import { KeyCache, TRUSTED_FOR_MS, TRUSTED_UNHEARD_FOR_MS } from '../../src/auth/keyCache';

const row = (id: string, ownerId = 'owner-1') => ({ id, ownerId });

function cacheWith({ hears = true, maxEntries = 100 } = {}) {
  const cache = new KeyCache<{ id: string; ownerId: string }>(maxEntries);
  cache.hearsChanges = hears;
  return cache;
}

describe('KeyCache', () => {
  test('a remembered key is trusted for a minute while changes are heard', () => {
    const cache = cacheWith();
    cache.remember('prefix:hash', row('key-1'), 0);
    expect(cache.get('prefix:hash', TRUSTED_FOR_MS - 1)).toEqual(row('key-1'));
    expect(cache.get('prefix:hash', TRUSTED_FOR_MS)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  test('for 1 s only while changes may go unheard', () => {
    const cache = cacheWith();
    cache.remember('prefix:hash', row('key-1'), 0);
    cache.hearsChanges = false;
    expect(cache.get('prefix:hash', TRUSTED_UNHEARD_FOR_MS - 1)).toEqual(row('key-1'));
    expect(cache.get('prefix:hash', TRUSTED_UNHEARD_FOR_MS)).toBeUndefined();
  });

  test('a new cache trusts for 1 s until it is known to hear changes', () => {
    const cache = new KeyCache<{ id: string; ownerId: string }>(10);
    cache.remember('prefix:hash', row('key-1'), 0);
    expect(cache.get('prefix:hash', TRUSTED_UNHEARD_FOR_MS)).toBeUndefined();
  });

  test('only the exact presented key hits', () => {
    const cache = cacheWith();
    cache.remember('prefix:hash', row('key-1'), 0);
    expect(cache.get('prefix:other-hash', 1)).toBeUndefined();
  });

  test('forgetting a key forgets each of its presentations (current and previous secret)', () => {
    const cache = cacheWith();
    cache.remember('prefix:new', row('key-1'), 0);
    cache.remember('prefix:old', row('key-1'), 0);
    cache.remember('other:hash', row('key-2'), 0);
    cache.forgetKey('key-1');
    expect(cache.get('prefix:new', 1)).toBeUndefined();
    expect(cache.get('prefix:old', 1)).toBeUndefined();
    expect(cache.get('other:hash', 1)).toEqual(row('key-2'));
    cache.forgetAll();
    expect(cache.size).toBe(0);
  });

  test("forgetting an account forgets all of its keys and nobody else's", () => {
    const cache = cacheWith();
    cache.remember('a', row('key-a', 'closed'), 0);
    cache.remember('b', row('key-b', 'closed'), 0);
    cache.remember('c', row('key-c', 'open'), 0);
    cache.forgetOwner('closed');
    expect([cache.get('a', 1), cache.get('b', 1), cache.get('c', 1)]).toEqual([
      undefined,
      undefined,
      row('key-c', 'open'),
    ]);
  });

  test('past its size the oldest remembered key goes first', () => {
    const cache = cacheWith({ maxEntries: 2 });
    cache.remember('a', row('key-a'), 0);
    cache.remember('b', row('key-b'), 0);
    cache.remember('c', row('key-c'), 0);
    expect([cache.get('a', 1), cache.get('b', 1), cache.get('c', 1)]).toEqual([
      undefined,
      row('key-b'),
      row('key-c'),
    ]);
  });
});
