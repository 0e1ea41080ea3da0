// Verifies a presented `x-api-key` against the stored keys. Only hashes are stored: v2 keys are
// found by prefix and their secret's SHA-256 compared in constant time; v1 keys by the SHA-256 of
// the whole key (current, or previous during a rotation's grace period).
//
// Every wrong key that passes the checksum costs the same (bench/keyTiming.ts measures it): one
// lookup, key and owner together, that answers exactly one row whether a key has the prefix or not
// (all nulls when none has), the same hash comparison (against a stand-in when nothing was found),
// and no early return before it. A malformed key, a bad checksum or a key of another environment
// than the installation's is refused before any I/O. A key presented with its correct secret is
// remembered for a while by the app that verified it (src/auth/keyCache.ts), so its next requests
// skip the lookup; a wrong secret never finds it there. A request's key is read (parsed and
// hashed) once: the quota's pre-check and the verification both use that reading.
import { Prisma } from '../generated/prisma/client';
import { config } from '../platform/config';
import { prisma } from '../platform/db';
import { keyCacheLookups } from '../platform/metrics';
import { DEMO_KEYS } from './demoIdentities';
import { KeyCache } from './keyCache';
import { hearKeyChanges } from './keyChanges';
import {
  hashesEqual,
  KEY_ENV_PREFIX,
  parseApiKey,
  sha256Hex,
  type KeyEnv,
  type ParsedApiKey,
} from './keyFormat';
import { KeyUsage } from './keyUsage';
import type { ApiScope, KeyType } from './scopes';

export type KeyVersion = 'v1' | 'v2';

export interface VerifiedKey {
  id: string;
  type: KeyType;
  version: KeyVersion;
  ownerId: string;
  /** The owner, when it is an affiliate whose account still exists: "the affiliate" of the key. */
  affiliateId: string | null;
  scopes: ReadonlySet<ApiScope>;
}

/** What the pure rules need of a stored key. */
export interface StoredKey {
  version: KeyVersion;
  secretHash: string;
  previousSecretHash: string | null;
  previousSecretExpiresAt: Date | null;
  previousSecretVersion: KeyVersion | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

// Compared against when no key has the presented prefix, so that an unknown prefix costs the same
// as a wrong secret.
const absentKey: StoredKey = {
  version: 'v2',
  secretHash: sha256Hex('no key has this prefix'),
  previousSecretHash: null,
  previousSecretExpiresAt: null,
  previousSecretVersion: null,
  expiresAt: null,
  revokedAt: null,
};

/**
 * Whether a presented secret (its SHA-256) opens the stored key: its current secret, or its
 * previous one until the grace period ends. The presented key's format must be the stored
 * secret's: a v2 secret's hash never opens a v1 key's record or the reverse (both are 32
 * alphanumerics). Both comparisons always run.
 */
export function secretMatches(
  stored: StoredKey,
  secretHash: string,
  now: Date,
  presentedVersion: KeyVersion = 'v2',
): boolean {
  const current = hashesEqual(stored.secretHash, secretHash);
  const previous =
    stored.previousSecretHash !== null && hashesEqual(stored.previousSecretHash, secretHash);
  const inGrace = stored.previousSecretExpiresAt !== null && stored.previousSecretExpiresAt > now;
  return (
    (current && stored.version === presentedVersion) ||
    (previous && inGrace && stored.previousSecretVersion === presentedVersion)
  );
}

/** Not revoked, and not expired: a key is refused from the instant `expiresAt` names. */
export function isUsable(stored: Pick<StoredKey, 'expiresAt' | 'revokedAt'>, now: Date): boolean {
  return stored.revokedAt === null && (stored.expiresAt === null || stored.expiresAt > now);
}

/** The outcome of a key check; `unknown` covers an unknown prefix and a wrong secret alike. */
export type KeyCheck =
  | { kind: 'malformed' }
  | { kind: 'unknown' }
  | { kind: 'revoked'; keyId: string }
  | { kind: 'expired'; keyId: string }
  | { kind: 'valid'; key: VerifiedKey };

const MALFORMED: KeyCheck = { kind: 'malformed' };
const UNKNOWN: KeyCheck = { kind: 'unknown' };

/** A stored key and its owner, as the lookup reads them. */
export type StoredKeyRow = StoredKey & {
  id: string;
  type: KeyType;
  ownerId: string;
  scopes: string[];
  /** Null if the owner is gone. */
  ownerRole: 'AFFILIATE' | 'PARTNER' | null;
  ownerDeletedAt: Date | null;
};
type AbsentRow = { [column in keyof StoredKeyRow]: null };

/** Keys an app remembers at most. */
const REMEMBERED_KEYS = 10_000;

/**
 * The key matching `condition`, read as exactly one row whether or not there is one (a LEFT JOIN
 * from a single row: all nulls when nothing matches), so that a found key and a missing one cost
 * the same to fetch and to decode. If two keys match (a v1 hash that is one key's current secret
 * and another's previous one), the current secret wins.
 */
async function lookUpKey(
  condition: Prisma.Sql,
  orderBy: Prisma.Sql = Prisma.empty,
): Promise<StoredKeyRow | null> {
  const rows = await prisma.$queryRaw<(StoredKeyRow | AbsentRow)[]>`
    SELECT k."id"::text AS "id", k."type"::text AS "type", k."version"::text AS "version",
      k."ownerId"::text AS "ownerId", k."scopes", k."secretHash", k."previousSecretHash",
      k."previousSecretExpiresAt", k."previousSecretVersion"::text AS "previousSecretVersion",
      k."expiresAt", k."revokedAt", u."role"::text AS "ownerRole", u."deletedAt" AS "ownerDeletedAt"
    FROM (SELECT 1) AS "one" LEFT JOIN "ApiKey" k ON ${condition}
      LEFT JOIN "User" u ON u."id" = k."ownerId"
    ${orderBy}
    LIMIT 1`;
  const row = rows[0];
  return row && row.id !== null ? (row as StoredKeyRow) : null;
}

const byPrefix = (prefix: string) => lookUpKey(Prisma.sql`k."prefix" = ${prefix}`);

// A v1 key rotated with a grace period lives on as the previous secret of a (now v2) key.
const byWholeKeyHash = (hash: string) =>
  lookUpKey(
    Prisma.sql`(k."secretHash" = ${hash} OR k."previousSecretHash" = ${hash})`,
    Prisma.sql`ORDER BY k."secretHash" = ${hash} DESC`,
  );

/**
 * Whether a presented key may open a key of an installation of `env` (KEY_ENV), by its text alone
 * (two string comparisons, before parsing it): a v2 key names its environment, which must be the
 * installation's. Legacy v1 keys name none and open either, except the published demo v1 key: a
 * test key, which a live installation refuses whatever its database holds.
 */
export function isOfEnvironment(raw: string, env: KeyEnv): boolean {
  if (raw.startsWith('svc_')) return raw.startsWith(KEY_ENV_PREFIX[env]);
  return env === 'test' || raw !== DEMO_KEYS.legacyAffiliate;
}

/**
 * A presented `x-api-key`, read once: whether its shape and checksum hold, whether it may be of
 * the installation's environment, its secret's hash, and the name it is remembered by.
 */
export type PresentedKey =
  | { kind: 'malformed' }
  | {
      kind: 'parsed';
      parsed: ParsedApiKey;
      /** False for a key of another environment: unknown here, like a key no row has. */
      ofEnvironment: boolean;
      secretHash: string;
      rememberedAs: string;
    };

function presentKey(raw: string, env: KeyEnv): PresentedKey {
  const parsed = parseApiKey(raw);
  if (!parsed) return { kind: 'malformed' };
  const secretHash = sha256Hex(parsed.version === 'v2' ? parsed.secret : parsed.key);
  return {
    kind: 'parsed',
    parsed,
    ofEnvironment: isOfEnvironment(raw, env),
    secretHash,
    rememberedAs: parsed.version === 'v2' ? `${parsed.prefix}:${secretHash}` : secretHash,
  };
}

/** What the quota may know of a presented key before any lookup. */
export interface KeyPrecheck {
  /** Shape and checksum hold: a malformed key can never verify. */
  wellFormed: boolean;
  /** It opened its key a moment ago: checking it needs no database lookup. */
  remembered: boolean;
}

export interface VerifyOptions {
  now?: Date;
  /** The caller's address, recorded as the key's last-used IP and in the audit trail. */
  clientIp?: string | null;
}

/**
 * An app's key verification: the keys it remembers (kept in step with the database's change
 * announcements once `listen` is called) and the record of their uses.
 */
export class ApiKeys {
  /** Keys presented with their correct secret a moment ago. */
  readonly remembered = new KeyCache<StoredKeyRow>(REMEMBERED_KEYS);
  readonly usage = new KeyUsage();

  /** Reads a presented key once (see PresentedKey), for the installation's KEY_ENV. */
  present(raw: string): PresentedKey {
    return presentKey(raw, config.keyEnv);
  }

  /** Hears changes of keys and accounts; returns how to stop. */
  listen(): () => void {
    return hearKeyChanges(this.remembered);
  }

  /** Forgets a key this app just changed, without waiting for the announcement. */
  forget(keyId: string): void {
    this.remembered.forgetKey(keyId);
  }

  precheck(presented: PresentedKey): KeyPrecheck {
    if (presented.kind === 'malformed') return { wellFormed: false, remembered: false };
    return {
      wellFormed: true,
      remembered: this.remembered.get(presented.rememberedAs) !== undefined,
    };
  }

  /** Checks a presented key without side effects (no usage is recorded). */
  async check(presented: PresentedKey, now = new Date()): Promise<KeyCheck> {
    if (presented.kind === 'malformed') return MALFORMED;
    const { parsed, secretHash, rememberedAs } = presented;
    if (!presented.ofEnvironment) return UNKNOWN;
    const remembered = this.remembered.get(rememberedAs);
    keyCacheLookups.inc({ result: remembered ? 'hit' : 'miss' });
    const stored =
      remembered ??
      (parsed.version === 'v2' ? await byPrefix(parsed.prefix) : await byWholeKeyHash(secretHash));
    const matches = secretMatches(stored ?? absentKey, secretHash, now, parsed.version);
    if (!stored || !matches || stored.ownerRole === null) return UNKNOWN;
    if (!remembered) this.remembered.remember(rememberedAs, stored);
    return verdictOf(stored, parsed, now);
  }

  /**
   * The key a request presents, or null when it is malformed, unknown, revoked or expired.
   * Afterwards, without delaying the answer: a valid key's last use is recorded (at most once a
   * minute), and a revoked key presented with its correct secret leaves an audit event.
   */
  async verify(
    presented: PresentedKey,
    { now = new Date(), clientIp = null }: VerifyOptions = {},
  ): Promise<VerifiedKey | null> {
    const check = await this.check(presented, now);
    if (check.kind === 'valid') {
      this.usage.noteUse(check.key.id, clientIp);
      return check.key;
    }
    if (check.kind === 'revoked') this.usage.noteRevokedUse(check.keyId, clientIp);
    return null;
  }
}

/** What a stored key, opened by its correct secret, answers. */
function verdictOf(stored: StoredKeyRow, parsed: ParsedApiKey, now: Date): KeyCheck {
  // Legacy keys are affiliate keys only; partner keys must be v2.
  if (parsed.version === 'v1' && stored.type !== 'affiliate') return UNKNOWN;
  // A closed account opens nothing: its partner keys are unknown; its affiliate keys still
  // authenticate, to answer the contract's 404 "affiliate not found" (affiliateId null below).
  if (stored.ownerDeletedAt !== null && stored.type === 'partner') return UNKNOWN;
  if (stored.revokedAt !== null) return { kind: 'revoked', keyId: stored.id };
  if (!isUsable(stored, now)) return { kind: 'expired', keyId: stored.id };
  return {
    kind: 'valid',
    key: {
      id: stored.id,
      type: stored.type,
      version: stored.version,
      ownerId: stored.ownerId,
      affiliateId:
        stored.ownerRole === 'AFFILIATE' && stored.ownerDeletedAt === null ? stored.ownerId : null,
      scopes: new Set(stored.scopes as ApiScope[]),
    },
  };
}
