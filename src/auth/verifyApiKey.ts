// Verifies a presented `x-api-key` against the stored keys. Only hashes are stored: v2 keys are
// found by prefix and their secret's SHA-256 compared in constant time; v1 keys by the SHA-256 of
// the whole key.
import { prisma } from '../db';
import { hashesEqual, parseApiKey, sha256Hex } from './keyFormat';
import type { ApiScope, KeyType } from './scopes';

export interface VerifiedKey {
  id: string;
  type: KeyType;
  version: 'v1' | 'v2';
  ownerId: string;
  /** The owner, when it is an affiliate whose account still exists: "the affiliate" of the key. */
  affiliateId: string | null;
  scopes: ReadonlySet<ApiScope>;
}

const keyColumns = {
  id: true,
  type: true,
  version: true,
  ownerId: true,
  scopes: true,
  secretHash: true,
  previousSecretHash: true,
  previousSecretExpiresAt: true,
  expiresAt: true,
  revokedAt: true,
  owner: { select: { role: true, deletedAt: true } },
} as const;

// Compared against when no key has the presented prefix, so that an unknown prefix costs the same
// as a wrong secret.
const ABSENT_KEY_HASH = sha256Hex('no key has this prefix');

interface StoredKey {
  secretHash: string;
  previousSecretHash: string | null;
  previousSecretExpiresAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

const absentKey: StoredKey = {
  secretHash: ABSENT_KEY_HASH,
  previousSecretHash: null,
  previousSecretExpiresAt: null,
  expiresAt: null,
  revokedAt: null,
};

export function secretMatches(stored: StoredKey, secretHash: string, now: Date): boolean {
  const current = hashesEqual(stored.secretHash, secretHash);
  const previous =
    stored.previousSecretHash !== null &&
    stored.previousSecretExpiresAt !== null &&
    stored.previousSecretExpiresAt > now &&
    hashesEqual(stored.previousSecretHash, secretHash);
  return current || previous;
}

export function isUsable(stored: StoredKey, now: Date): boolean {
  return stored.revokedAt === null && (stored.expiresAt === null || stored.expiresAt > now);
}

/** The key a request presents, or null when it is missing, malformed, unknown, revoked or expired. */
export async function verifyApiKey(
  raw: string | null,
  now = new Date(),
): Promise<VerifiedKey | null> {
  const parsed = raw ? parseApiKey(raw) : null;
  if (!parsed) return null;

  let stored;
  if (parsed.version === 'v2') {
    stored = await prisma.apiKey.findUnique({
      where: { prefix: parsed.prefix },
      select: keyColumns,
    });
    const presentedHash = sha256Hex(parsed.secret);
    const matches = secretMatches(stored ?? absentKey, presentedHash, now);
    if (!stored || !matches || stored.version !== 'v2') return null;
  } else {
    stored = await prisma.apiKey.findUnique({
      where: { secretHash: sha256Hex(parsed.key) },
      select: keyColumns,
    });
    // Legacy keys are affiliate keys only; partner keys must be v2.
    if (!stored || stored.version !== 'v1' || stored.type !== 'affiliate') return null;
  }
  if (!isUsable(stored, now)) return null;

  return {
    id: stored.id,
    type: stored.type,
    version: stored.version,
    ownerId: stored.ownerId,
    affiliateId:
      stored.owner.role === 'AFFILIATE' && stored.owner.deletedAt === null ? stored.ownerId : null,
    scopes: new Set(stored.scopes as ApiScope[]),
  };
}
