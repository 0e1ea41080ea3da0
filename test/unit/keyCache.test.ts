// The remembered keys: trusted for a minute while changes are heard, 1 s otherwise; forgotten per
// key on a change; bounded.
import { KeyCache, TRUSTED_FOR_MS, TRUSTED_UNHEARD_FOR_MS } from '../../src/auth/keyCache';

function cacheWith({ hears = true, maxEntries = 100 } = {}) {
  const state = { hears };
  const cache = new KeyCache<string>({ maxEntries, hearsChanges: () => state.hears });
  return { cache, state };
}

describe('KeyCache', () => {
  test('a remembered key is trusted for a minute while changes are heard', () => {
    const { cache } = cacheWith();
    cache.remember('prefix:hash', 'key-1', 'row', 0);
    expect(cache.get('prefix:hash', TRUSTED_FOR_MS - 1)).toBe('row');
    expect(cache.get('prefix:hash', TRUSTED_FOR_MS)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  test('for 1 s only while changes may go unheard', () => {
    const { cache, state } = cacheWith();
    cache.remember('prefix:hash', 'key-1', 'row', 0);
    state.hears = false;
    expect(cache.get('prefix:hash', TRUSTED_UNHEARD_FOR_MS - 1)).toBe('row');
    expect(cache.get('prefix:hash', TRUSTED_UNHEARD_FOR_MS)).toBeUndefined();
  });

  test('only the exact presented key hits', () => {
    const { cache } = cacheWith();
    cache.remember('prefix:hash', 'key-1', 'row', 0);
    expect(cache.get('prefix:other-hash', 1)).toBeUndefined();
  });

  test('forgetting a key forgets each of its presentations (current and previous secret)', () => {
    const { cache } = cacheWith();
    cache.remember('prefix:new', 'key-1', 'row', 0);
    cache.remember('prefix:old', 'key-1', 'row', 0);
    cache.remember('other:hash', 'key-2', 'other row', 0);
    cache.forgetKey('key-1');
    expect(cache.get('prefix:new', 1)).toBeUndefined();
    expect(cache.get('prefix:old', 1)).toBeUndefined();
    expect(cache.get('other:hash', 1)).toBe('other row');
    cache.forgetAll();
    expect(cache.size).toBe(0);
  });

  test('past its size the oldest remembered key goes first', () => {
    const { cache } = cacheWith({ maxEntries: 2 });
    cache.remember('a', 'key-a', 'A', 0);
    cache.remember('b', 'key-b', 'B', 0);
    cache.remember('c', 'key-c', 'C', 0);
    expect([cache.get('a', 1), cache.get('b', 1), cache.get('c', 1)]).toEqual([
      undefined,
      'B',
      'C',
    ]);
  });
});
