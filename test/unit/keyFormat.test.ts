// API key formats, docs/decisions.md "Keys": v2 `svc_{env}_{prefix}_{secret}` with a CRC32 checksum
// in the secret's last 6 characters; v1 legacy keys are 32 alphanumeric characters.
import { createHash } from 'node:crypto';
import { BASE62, toBase62 } from '../../src/platform/base62';
import {
  generateApiKey,
  hashesEqual,
  keyChecksum,
  parseApiKey,
  sha256Hex,
} from '../../src/auth/keyFormat';

/** A well-formed v2 key with a correct checksum, built from its parts. */
function keyFrom(env: string, prefix: string, secretBody: string): string {
  const body = `svc_${env}_${prefix}_${secretBody}`;
  return body + keyChecksum(body);
}

/** The same character class, but a different character, at `index`. */
function withCharacterChanged(key: string, index: number): string {
  const current = key[index]!;
  const alphabet =
    /[a-z0-9]/.test(current) && index < 17 ? 'abcdefghijklmnopqrstuvwxyz0123456789' : BASE62;
  const replacement = alphabet[(alphabet.indexOf(current) + 1) % alphabet.length]!;
  return key.slice(0, index) + replacement + key.slice(index + 1);
}

describe('generateApiKey', () => {
  test('a live key reads svc_live_{8-char prefix}_{32-char base62 secret}', () => {
    const { apiKey } = generateApiKey('live');
    expect(apiKey).toMatch(/^svc_live_[a-z0-9]{8}_[0-9A-Za-z]{32}$/);
  });

  test('a test key carries the test env', () => {
    expect(generateApiKey('test').apiKey).toMatch(/^svc_test_[a-z0-9]{8}_[0-9A-Za-z]{32}$/);
  });

  test('returns the prefix and the secret that appear in the key', () => {
    const { apiKey, prefix, secret } = generateApiKey('live');
    expect(apiKey).toBe(`svc_live_${prefix}_${secret}`);
    expect(prefix).toMatch(/^[a-z0-9]{8}$/);
    expect(secret).toHaveLength(32);
  });

  test("the secret's last 6 characters are the checksum of everything before them", () => {
    const { apiKey, secret } = generateApiKey('live');
    expect(secret.slice(-6)).toBe(keyChecksum(apiKey.slice(0, -6)));
  });

  test('keeps a given prefix (rotation keeps the public identity)', () => {
    const { apiKey, prefix } = generateApiKey('test', 'k3ep1t00');
    expect(prefix).toBe('k3ep1t00');
    expect(apiKey.startsWith('svc_test_k3ep1t00_')).toBe(true);
  });

  test('two keys never share a prefix or a secret', () => {
    const first = generateApiKey('live');
    const second = generateApiKey('live');
    expect(second.prefix).not.toBe(first.prefix);
    expect(second.secret).not.toBe(first.secret);
  });
});

describe('parseApiKey', () => {
  test('accepts a generated live key and returns its env, prefix and secret', () => {
    const { apiKey, prefix, secret } = generateApiKey('live');
    expect(parseApiKey(apiKey)).toEqual({ version: 'v2', env: 'live', prefix, secret });
  });

  test('accepts a generated test key', () => {
    const { apiKey, prefix, secret } = generateApiKey('test');
    expect(parseApiKey(apiKey)).toEqual({ version: 'v2', env: 'test', prefix, secret });
  });

  test('accepts a hand-built key whose checksum is right', () => {
    const key = keyFrom('live', 'abcd1234', 'A'.repeat(26));
    expect(parseApiKey(key)).toEqual({
      version: 'v2',
      env: 'live',
      prefix: 'abcd1234',
      secret: key.slice(-32),
    });
  });

  test('refuses a key with any one character of its prefix or secret changed', () => {
    const { apiKey } = generateApiKey('live');
    const start = 'svc_live_'.length;
    const refused = [];
    for (let index = start; index < apiKey.length; index += 1) {
      if (apiKey[index] === '_') continue;
      const changed = withCharacterChanged(apiKey, index);
      expect(changed).not.toBe(apiKey);
      refused.push(parseApiKey(changed));
    }
    expect(refused).toHaveLength(8 + 32);
    expect(refused.every((parsed) => parsed === null)).toBe(true);
  });

  test('refuses a live key presented as a test key (the env is under the checksum)', () => {
    const { apiKey } = generateApiKey('live');
    expect(parseApiKey(apiKey.replace('svc_live_', 'svc_test_'))).toBeNull();
  });

  test('refuses an env other than live or test, even with a matching checksum', () => {
    expect(parseApiKey(keyFrom('prod', 'abcd1234', 'A'.repeat(26)))).toBeNull();
    expect(parseApiKey(keyFrom('LIVE', 'abcd1234', 'A'.repeat(26)))).toBeNull();
  });

  test('refuses a prefix of 7 or 9 characters', () => {
    expect(parseApiKey(keyFrom('live', 'abcd123', 'A'.repeat(26)))).toBeNull();
    expect(parseApiKey(keyFrom('live', 'abcd12345', 'A'.repeat(26)))).toBeNull();
  });

  test('refuses a secret of 31 or 33 characters', () => {
    expect(parseApiKey(keyFrom('live', 'abcd1234', 'A'.repeat(25)))).toBeNull();
    expect(parseApiKey(keyFrom('live', 'abcd1234', 'A'.repeat(27)))).toBeNull();
  });

  test('refuses an upper-case prefix', () => {
    expect(parseApiKey(keyFrom('live', 'ABCD1234', 'A'.repeat(26)))).toBeNull();
  });

  test('refuses a secret with characters outside base62', () => {
    expect(parseApiKey(keyFrom('live', 'abcd1234', `${'A'.repeat(25)}-`))).toBeNull();
    expect(parseApiKey(keyFrom('live', 'abcd1234', `${'A'.repeat(25)}_`))).toBeNull();
  });

  test('refuses a key with surrounding whitespace', () => {
    const { apiKey } = generateApiKey('live');
    expect(parseApiKey(` ${apiKey}`)).toBeNull();
    expect(parseApiKey(`${apiKey}\n`)).toBeNull();
  });

  test('refuses the empty string', () => {
    expect(parseApiKey('')).toBeNull();
  });

  test('accepts a 32-character alphanumeric legacy key as v1', () => {
    const legacy = 'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE';
    expect(legacy).toHaveLength(32);
    expect(parseApiKey(legacy)).toEqual({ version: 'v1', key: legacy });
  });

  test('refuses a legacy key of 31 or 33 characters', () => {
    expect(parseApiKey('a'.repeat(31))).toBeNull();
    expect(parseApiKey('a'.repeat(33))).toBeNull();
  });

  test('refuses a 32-character legacy key containing a symbol', () => {
    expect(parseApiKey(`${'a'.repeat(31)}-`)).toBeNull();
    expect(parseApiKey(`${'a'.repeat(31)}_`)).toBeNull();
    expect(parseApiKey(`${'a'.repeat(31)}=`)).toBeNull();
  });
});

describe('toBase62', () => {
  test('zero-pads to the requested width', () => {
    expect(toBase62(0, 6)).toBe('000000');
    expect(toBase62(61, 6)).toBe('00000z');
    expect(toBase62(62, 6)).toBe('000010');
  });

  test('uses digits, then upper case, then lower case', () => {
    expect(toBase62(9, 1)).toBe('9');
    expect(toBase62(10, 1)).toBe('A');
    expect(toBase62(35, 1)).toBe('Z');
    expect(toBase62(36, 1)).toBe('a');
  });

  test('the largest CRC32 value fits in 6 characters', () => {
    expect(toBase62(2 ** 32 - 1, 6)).toBe('4gfFC3');
  });

  test('does not truncate a value wider than the width', () => {
    expect(toBase62(62 ** 2, 2)).toBe('100');
  });
});

describe('keyChecksum', () => {
  test('is the CRC32 of its input in 6 base62 characters', () => {
    // 0xCBF43926 is the standard CRC32 check value of "123456789".
    expect(keyChecksum('123456789')).toBe(toBase62(0xcbf43926, 6));
  });

  test('is always 6 characters, even when the CRC32 is small', () => {
    // CRC32("") is 0.
    expect(keyChecksum('')).toBe('000000');
  });
});

describe('sha256Hex', () => {
  test('matches the standard SHA-256 test vector for "abc"', () => {
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  test("matches node's crypto for a non-ASCII input, hashed as UTF-8", () => {
    const value = 'clé-secrète-🔑';
    expect(sha256Hex(value)).toBe(createHash('sha256').update(value, 'utf8').digest('hex'));
  });
});

describe('hashesEqual', () => {
  test('is true for the same digest', () => {
    expect(hashesEqual(sha256Hex('secret'), sha256Hex('secret'))).toBe(true);
  });

  test('is false for different digests of the same length', () => {
    expect(hashesEqual(sha256Hex('secret'), sha256Hex('Secret'))).toBe(false);
  });

  test('is false for digests of different lengths', () => {
    const digest = sha256Hex('secret');
    expect(hashesEqual(digest, digest.slice(0, 62))).toBe(false);
    expect(hashesEqual(digest, `${digest}00`)).toBe(false);
    expect(hashesEqual(digest, '')).toBe(false);
  });
});
