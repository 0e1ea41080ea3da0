// API key formats (docs/decisions.md, "Keys"). v2: `svc_{env}_{prefix}_{secret}`, where the
// secret's last 6 characters are a CRC32 checksum of everything before them, so a mistyped or
// random key is refused without any lookup. v1 (legacy): 32 alphanumeric characters, affiliate keys
// only.
import { createHash, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { randomString, toBase62 } from '../platform/base62';

export type KeyEnv = 'live' | 'test';

export type ParsedApiKey =
  { version: 'v2'; env: KeyEnv; prefix: string; secret: string } | { version: 'v1'; key: string };

const PREFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const PREFIX_LENGTH = 8;
const SECRET_LENGTH = 32;
const CHECKSUM_LENGTH = 6;

const V2_KEY = /^svc_(live|test)_([a-z0-9]{8})_([A-Za-z0-9]{32})$/;
const V1_KEY = /^[A-Za-z0-9]{32}$/;

/** How a v2 key of each environment starts: `svc_live_`, `svc_test_`. */
export const KEY_ENV_PREFIX: Readonly<Record<KeyEnv, string>> = {
  live: 'svc_live_',
  test: 'svc_test_',
};

export function keyChecksum(body: string): string {
  return toBase62(crc32(body), CHECKSUM_LENGTH);
}

export interface NewApiKey {
  apiKey: string;
  prefix: string;
  secret: string;
}

/** A new v2 key; rotation passes the key's existing prefix to keep its public identity. */
export function generateApiKey(
  env: KeyEnv,
  prefix = randomString(PREFIX_LENGTH, PREFIX_ALPHABET),
): NewApiKey {
  const body = `${KEY_ENV_PREFIX[env]}${prefix}_${randomString(SECRET_LENGTH - CHECKSUM_LENGTH)}`;
  const apiKey = body + keyChecksum(body);
  return { apiKey, prefix, secret: apiKey.slice(-SECRET_LENGTH) };
}

/** Parses a presented key; null when it is malformed or its checksum does not match. */
export function parseApiKey(raw: string): ParsedApiKey | null {
  const v2 = V2_KEY.exec(raw);
  if (v2) {
    const body = raw.slice(0, -CHECKSUM_LENGTH);
    if (keyChecksum(body) !== raw.slice(-CHECKSUM_LENGTH)) return null;
    return { version: 'v2', env: v2[1] as KeyEnv, prefix: v2[2]!, secret: v2[3]! };
  }
  return V1_KEY.test(raw) ? { version: 'v1', key: raw } : null;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Compares two SHA-256 hex digests in constant time; anything else is never equal. */
export function hashesEqual(a: string, b: string): boolean {
  if (!SHA256_HEX.test(a) || !SHA256_HEX.test(b)) return false;
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

const V2_KEY_ANYWHERE = /svc_(?:live|test)_[a-z0-9]{8}_[A-Za-z0-9]{32}/g;

/** Every checksum-valid v2 key in a text (logs, dumps): how a leaked key is spotted. */
export function findApiKeys(text: string): string[] {
  return [...text.matchAll(V2_KEY_ANYWHERE)]
    .map((match) => match[0])
    .filter((candidate) => parseApiKey(candidate) !== null);
}
