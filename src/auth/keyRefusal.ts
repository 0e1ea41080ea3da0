// The 401 of a key route, saying what the caller should do instead.
import { UnauthorizedError } from '../errors';
import { keyTypeInWords, type KeyType } from './scopes';
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
