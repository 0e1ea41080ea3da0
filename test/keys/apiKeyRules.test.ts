// Key-management rules: grace periods, what a rotation keeps, names, scopes.
import {
  gracePeriodSeconds,
  keyName,
  previousSecretAfterRotation,
  scopesForNewKey,
} from '../../src/modules/keys/rules';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const seconds = (n: number) => new Date(NOW.getTime() + n * 1000);

describe('gracePeriodSeconds', () => {
  test.each([
    [undefined, 0],
    [null, 0],
    [0, 0],
    [1, 1],
    [86_400, 86_400],
  ])('%p -> %p', (requested, grace) => {
    expect(gracePeriodSeconds(requested)).toBe(grace);
  });

  test.each([[-1], [86_401], [1.5], [Number.NaN], [Number.POSITIVE_INFINITY]])(
    '%p is a BAD_REQUEST',
    (requested) => {
      expect(() => gracePeriodSeconds(requested)).toThrow(
        expect.objectContaining({ code: 'BAD_REQUEST' }),
      );
    },
  );
});

describe('previousSecretAfterRotation', () => {
  const key = { version: 'v2' as const, secretHash: 'current', expiresAt: null };

  test('no grace: nothing of the old secret is kept', () => {
    expect(previousSecretAfterRotation(key, 0, NOW)).toEqual({
      previousSecretHash: null,
      previousSecretVersion: null,
      previousSecretExpiresAt: null,
    });
  });

  test('a grace keeps the replaced secret, and only it, until the grace ends', () => {
    expect(previousSecretAfterRotation(key, 3_600, NOW)).toEqual({
      previousSecretHash: 'current',
      previousSecretVersion: 'v2',
      previousSecretExpiresAt: seconds(3_600),
    });
  });

  test('a v1 key rotated keeps its format, so only a v1 key matches its hash', () => {
    expect(
      previousSecretAfterRotation({ ...key, version: 'v1' }, 60, NOW).previousSecretVersion,
    ).toBe('v1');
  });

  test('the grace never runs past the key’s own expiry', () => {
    const expiring = { ...key, expiresAt: seconds(600) };
    expect(previousSecretAfterRotation(expiring, 3_600, NOW).previousSecretExpiresAt).toEqual(
      seconds(600),
    );
    expect(previousSecretAfterRotation(expiring, 60, NOW).previousSecretExpiresAt).toEqual(
      seconds(60),
    );
  });
});

describe('keyName and scopesForNewKey', () => {
  test('names are trimmed, 1 to 100 characters', () => {
    expect(keyName('  CI  ')).toBe('CI');
    expect(() => keyName('   ')).toThrow('name');
    expect(() => keyName('x'.repeat(101))).toThrow('name');
    expect(keyName('x'.repeat(100))).toHaveLength(100);
  });

  test('scopes default to every scope of the type; others are refused; duplicates dropped', () => {
    expect(scopesForNewKey('partner', undefined)).toEqual([
      'organizations:read',
      'brands:read',
      'campaigns:read',
    ]);
    expect(scopesForNewKey('partner', ['brands:read', 'brands:read'])).toEqual(['brands:read']);
    expect(() => scopesForNewKey('partner', ['orders:read'])).toThrow('orders:read');
    expect(() => scopesForNewKey('partner', [])).toThrow('scopes');
  });
});
