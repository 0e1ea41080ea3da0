// The pure rules of key verification: which secret a stored key accepts, and whether it is usable.
import { sha256Hex } from '../../src/auth/keyFormat';
import { generateApiKey } from '../../src/auth/keyFormat';
import { isOfEnvironment, isUsable, secretMatches } from '../../src/auth/verifyApiKey';
import { DEMO_KEYS } from '../../src/auth/demoIdentities';

type StoredKey = Parameters<typeof secretMatches>[0];

const NOW = new Date('2026-06-01T12:00:00.000Z');
const CURRENT = sha256Hex('current-secret');
const PREVIOUS = sha256Hex('previous-secret');
const OTHER = sha256Hex('some-other-secret');

function stored(overrides: Partial<StoredKey> = {}): StoredKey {
  return {
    version: 'v2',
    secretHash: CURRENT,
    previousSecretHash: null,
    previousSecretExpiresAt: null,
    previousSecretVersion: null,
    expiresAt: null,
    revokedAt: null,
    ...overrides,
  };
}

function secondsFromNow(seconds: number): Date {
  return new Date(NOW.getTime() + seconds * 1000);
}

describe('secretMatches', () => {
  test('accepts the current secret', () => {
    expect(secretMatches(stored(), CURRENT, NOW)).toBe(true);
  });

  test('refuses any other secret', () => {
    expect(secretMatches(stored(), OTHER, NOW)).toBe(false);
  });

  test('accepts the previous secret while its grace period runs', () => {
    const key = stored({
      previousSecretHash: PREVIOUS,
      previousSecretVersion: 'v2',
      previousSecretExpiresAt: secondsFromNow(60),
    });
    expect(secretMatches(key, PREVIOUS, NOW)).toBe(true);
  });

  test('still accepts the current secret during the grace period', () => {
    const key = stored({
      previousSecretHash: PREVIOUS,
      previousSecretVersion: 'v2',
      previousSecretExpiresAt: secondsFromNow(60),
    });
    expect(secretMatches(key, CURRENT, NOW)).toBe(true);
  });

  test('refuses the previous secret at the instant its grace period ends', () => {
    const key = stored({
      previousSecretHash: PREVIOUS,
      previousSecretVersion: 'v2',
      previousSecretExpiresAt: NOW,
    });
    expect(secretMatches(key, PREVIOUS, NOW)).toBe(false);
  });

  test('refuses the previous secret after its grace period', () => {
    const key = stored({
      previousSecretHash: PREVIOUS,
      previousSecretVersion: 'v2',
      previousSecretExpiresAt: secondsFromNow(-1),
    });
    expect(secretMatches(key, PREVIOUS, NOW)).toBe(false);
  });

  test('refuses the previous secret when it has no expiry recorded', () => {
    const key = stored({
      previousSecretHash: PREVIOUS,
      previousSecretVersion: 'v2',
      previousSecretExpiresAt: null,
    });
    expect(secretMatches(key, PREVIOUS, NOW)).toBe(false);
  });

  test('refuses an unrelated secret during the grace period', () => {
    const key = stored({
      previousSecretHash: PREVIOUS,
      previousSecretVersion: 'v2',
      previousSecretExpiresAt: secondsFromNow(60),
    });
    expect(secretMatches(key, OTHER, NOW)).toBe(false);
  });
});

describe('isUsable', () => {
  test('a key neither revoked nor expiring is usable', () => {
    expect(isUsable(stored(), NOW)).toBe(true);
  });

  test('a revoked key is not usable', () => {
    expect(isUsable(stored({ revokedAt: secondsFromNow(-1) }), NOW)).toBe(false);
  });

  test('a key revoked with a future timestamp is not usable either', () => {
    expect(isUsable(stored({ revokedAt: secondsFromNow(60) }), NOW)).toBe(false);
  });

  test('a key is usable until just before it expires', () => {
    expect(isUsable(stored({ expiresAt: new Date(NOW.getTime() + 1) }), NOW)).toBe(true);
  });

  test('a key is not usable at the instant it expires', () => {
    expect(isUsable(stored({ expiresAt: NOW }), NOW)).toBe(false);
  });

  test('a key is not usable after it expired', () => {
    expect(isUsable(stored({ expiresAt: secondsFromNow(-1) }), NOW)).toBe(false);
  });

  test('a revoked key is not usable even before its expiry', () => {
    expect(
      isUsable(stored({ revokedAt: secondsFromNow(-1), expiresAt: secondsFromNow(3600) }), NOW),
    ).toBe(false);
  });
});

describe('secretMatches: the presented format must be the stored secret’s', () => {
  test('a v1 key’s hash never opens a v2 key’s current secret (both are 32 alphanumerics)', () => {
    expect(secretMatches(stored(), CURRENT, NOW, 'v1')).toBe(false);
    expect(secretMatches(stored({ version: 'v1' }), CURRENT, NOW, 'v1')).toBe(true);
    expect(secretMatches(stored({ version: 'v1' }), CURRENT, NOW, 'v2')).toBe(false);
  });

  test('a rotated v1 key opens its previous secret as a v1 key only, during the grace', () => {
    const key = stored({
      previousSecretHash: PREVIOUS,
      previousSecretVersion: 'v1',
      previousSecretExpiresAt: secondsFromNow(60),
    });
    expect(secretMatches(key, PREVIOUS, NOW, 'v1')).toBe(true);
    expect(secretMatches(key, PREVIOUS, NOW, 'v2')).toBe(false);
    expect(secretMatches(key, PREVIOUS, secondsFromNow(60), 'v1')).toBe(false);
  });

  test('the previous v2 secret never opens as a v1 key', () => {
    const key = stored({
      previousSecretHash: PREVIOUS,
      previousSecretVersion: 'v2',
      previousSecretExpiresAt: secondsFromNow(60),
    });
    expect(secretMatches(key, PREVIOUS, NOW, 'v1')).toBe(false);
  });
});

describe('isOfEnvironment', () => {
  const live = generateApiKey('live').apiKey;
  const test_ = generateApiKey('test').apiKey;

  test('a v2 key opens only an installation of the environment it names', () => {
    expect(isOfEnvironment(live, 'live')).toBe(true);
    expect(isOfEnvironment(live, 'test')).toBe(false);
    expect(isOfEnvironment(test_, 'test')).toBe(true);
    expect(isOfEnvironment(test_, 'live')).toBe(false);
  });

  test('the published demo keys are test keys', () => {
    for (const key of Object.values(DEMO_KEYS)) {
      expect(isOfEnvironment(key, 'test')).toBe(true);
      expect(isOfEnvironment(key, 'live')).toBe(false);
    }
  });

  test('any other legacy v1 key names no environment and opens both', () => {
    expect(isOfEnvironment('A'.repeat(32), 'live')).toBe(true);
    expect(isOfEnvironment('A'.repeat(32), 'test')).toBe(true);
  });

  test('text that is no key is left to the format check', () => {
    expect(isOfEnvironment('not-a-key', 'live')).toBe(true);
    expect(isOfEnvironment('svc_prod_abcdefgh_x', 'live')).toBe(false);
  });
});
