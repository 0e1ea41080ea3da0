// The pure rules of key management: names, scopes, rotation and its grace period. No I/O here.
import { isScopeOf, keyTypeInWords, SCOPES_BY_KEY_TYPE, type KeyType } from '../../auth/scopes';
import type { KeyVersion } from '../../auth/verifyApiKey';
import { BadRequestError, shown } from '../../platform/errors';

const KEY_NAME_MAX = 100;

/**
 * Keys one user may hold that are not revoked (expired ones included: revoking them makes room).
 * Each key has its own quota, so this also bounds what one user can spend: 10 keys, one per
 * integration and environment, is plenty (a rotation keeps its key).
 */
export const MAX_KEYS_PER_USER = 10;

/** The scopes a new key gets: all of its type unless narrowed; a scope of another type is refused. */
export function scopesForNewKey(type: KeyType, requested: string[] | null | undefined): string[] {
  if (requested === null || requested === undefined) return [...SCOPES_BY_KEY_TYPE[type]];
  if (requested.length === 0) throw new BadRequestError('scopes must name at least one scope');
  const unknown = requested.filter((scope) => !isScopeOf(type, scope));
  if (unknown.length) {
    throw new BadRequestError(
      `Not a scope of ${keyTypeInWords(type)}: ${unknown.map(shown).join(', ')}; ` +
        `the scopes are ${SCOPES_BY_KEY_TYPE[type].join(', ')}`,
    );
  }
  return [...new Set(requested)];
}

export function keyName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > KEY_NAME_MAX) {
    throw new BadRequestError(`name must be 1 to ${KEY_NAME_MAX} characters`);
  }
  return trimmed;
}

/** A day: long enough to roll a secret out to every deployment, short enough to stay an exception. */
export const MAX_GRACE_PERIOD_SECONDS = 86_400;

/** `gracePeriodSeconds`: an integer 0..86,400, default 0 (the old secret stops at once). */
export function gracePeriodSeconds(requested: number | null | undefined): number {
  if (requested === null || requested === undefined) return 0;
  if (!Number.isInteger(requested) || requested < 0 || requested > MAX_GRACE_PERIOD_SECONDS) {
    throw new BadRequestError(
      `gracePeriodSeconds must be an integer from 0 to ${MAX_GRACE_PERIOD_SECONDS}`,
    );
  }
  return requested;
}

export interface RotatedFrom {
  version: KeyVersion;
  secretHash: string;
  expiresAt: Date | null;
}

export interface PreviousSecret {
  previousSecretHash: string | null;
  previousSecretVersion: KeyVersion | null;
  previousSecretExpiresAt: Date | null;
}

/**
 * What a rotation keeps of the secret it replaces: nothing without a grace period; else that
 * secret (whatever came before it is dropped: only the newest previous secret is kept) until the
 * grace ends, and never past the key's own expiry, which rotation does not extend.
 */
export function previousSecretAfterRotation(
  key: RotatedFrom,
  graceSeconds: number,
  now: Date,
): PreviousSecret {
  if (graceSeconds === 0) {
    return { previousSecretHash: null, previousSecretVersion: null, previousSecretExpiresAt: null };
  }
  const graceEnds = new Date(now.getTime() + graceSeconds * 1000);
  return {
    previousSecretHash: key.secretHash,
    previousSecretVersion: key.version,
    previousSecretExpiresAt:
      key.expiresAt !== null && key.expiresAt < graceEnds ? key.expiresAt : graceEnds,
  };
}
