// Why a key is refused by a route, saying what the caller should do instead: its type (401), its
// scopes (403), its affiliate account (the contract's 404), in the order scope-auth checks them.
import {
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  type HttpError,
} from '../platform/errors';
import { keyTypeInWords, type ApiScope, type KeyType } from './scopes';
import type { VerifiedKey } from './verifyApiKey';

/** The 401 of a route that takes `wanted` keys, given what the request presented. */
export function keyRefusal(
  headers: Headers | undefined,
  key: VerifiedKey | null,
  wanted: KeyType,
): UnauthorizedError {
  if (key) {
    return new UnauthorizedError(
      `This route takes ${keyTypeInWords(wanted)}; the x-api-key sent is ${keyTypeInWords(key.type)}`,
    );
  }
  if (headers?.has('x-api-key')) {
    return new UnauthorizedError('The x-api-key is not a valid key: unknown, revoked or expired');
  }
  if (/^bearer\s/i.test(headers?.get('authorization') ?? '')) {
    return new UnauthorizedError('Send the API key in the x-api-key header, not in Authorization');
  }
  return new UnauthorizedError(
    `An API key is required: send ${keyTypeInWords(wanted)} in the x-api-key header`,
  );
}

/** The 403 of a key without the scope a route needs. */
export function missingScope(scope: string): ForbiddenError {
  return new ForbiddenError(`This API key lacks the scope ${scope}`);
}

/** The contract's 404 for a key whose affiliate account is closed. */
export function closedAffiliate(): NotFoundError {
  return new NotFoundError('Affiliate not found');
}

/**
 * What scope-auth would refuse a key of the route's type for, checked where no resolver runs (an
 * Idempotency-Key replay); null when the key may use the route.
 */
export function accessRefusal(
  key: VerifiedKey,
  route: { keyType: KeyType; scope: ApiScope },
): HttpError | null {
  if (!key.scopes.has(route.scope)) return missingScope(route.scope);
  if (route.keyType === 'affiliate' && key.affiliateId === null) return closedAffiliate();
  return null;
}
