// Authentication of one HTTP request, done once however many layers ask (REST gate, GraphQL context).
import { UnauthorizedError } from '../errors';
import { verifyDashboardToken, type DashboardToken } from './dashboardToken';
import { storableIp } from './keyUsage';
import { parseApiKey } from './keyFormat';
import { keyTypeInWords, type KeyType } from './scopes';
import { isRememberedKey, verifyApiKey, type VerifiedKey } from './verifyApiKey';

const apiKeys = new WeakMap<Request, Promise<VerifiedKey | null>>();
const dashboardTokens = new WeakMap<Request, Promise<DashboardToken>>();
const clientIps = new WeakMap<Request, string>();

/**
 * The edge tells which client address a request comes from (src/http/clientIp.ts, the address
 * the quota counts against), before anything authenticates it.
 */
export function rememberClientIp(request: Request, clientIp: string): void {
  clientIps.set(request, clientIp);
}

/** The request's client IP as the edge saw it; null when unknown (no socket, not an IP). */
export function clientIpOfRequest(request: Request): string | null {
  return storableIp(clientIps.get(request));
}

/** The request's verified `x-api-key`, or null when it is absent or invalid. */
export function apiKeyOf(request: Request): Promise<VerifiedKey | null> {
  let verified = apiKeys.get(request);
  if (!verified) {
    verified = verifyApiKey(request.headers.get('x-api-key'), {
      clientIp: clientIpOfRequest(request),
    });
    apiKeys.set(request, verified);
  }
  return verified;
}

/** What the request presents, as the quota weighs it before any lookup. */
export function presentedCredentials(request: Request) {
  const key = request.headers.get('x-api-key');
  return {
    key:
      key === null
        ? null
        : {
            wellFormed: parseApiKey(key) !== null,
            remembered: isRememberedKey(key),
            verify: async () => (await apiKeyOf(request))?.id ?? null,
          },
    token: request.headers.has('x-api-token')
      ? { verify: async () => 'userId' in (await dashboardTokenOf(request)) }
      : null,
  };
}

/** The 401 of a route that takes `wanted` keys, saying what the caller should do instead. */
export function keyRefusal(
  request: Request,
  key: VerifiedKey | null,
  wanted: KeyType,
): UnauthorizedError {
  if (key) {
    return new UnauthorizedError(
      `This route takes ${keyTypeInWords(wanted)}; the x-api-key sent is ${keyTypeInWords(key.type)}`,
    );
  }
  if (request.headers.has('x-api-key')) {
    return new UnauthorizedError('The x-api-key is not a valid key: unknown, revoked or expired');
  }
  if (/^bearer\s/i.test(request.headers.get('authorization') ?? '')) {
    return new UnauthorizedError('Send the API key in the x-api-key header, not in Authorization');
  }
  return new UnauthorizedError(
    `An API key is required: send ${keyTypeInWords(wanted)} in the x-api-key header`,
  );
}

/** Who a request was verified as, for the access log: ids only, and nothing looked up for it. */
export async function verifiedIdentityOf(
  request: Request,
): Promise<{ keyId?: string; userId?: string }> {
  const key = await apiKeys.get(request)?.catch(() => null);
  if (key) return { keyId: key.id, userId: key.ownerId };
  const token = await dashboardTokens.get(request)?.catch(() => undefined);
  return token && 'userId' in token ? { userId: token.userId } : {};
}

/** The request's dashboard JWT (`x-api-token`), checked once however many layers ask. */
export function dashboardTokenOf(request: Request): Promise<DashboardToken> {
  let verified = dashboardTokens.get(request);
  if (!verified) {
    verified = verifyDashboardToken(request.headers.get('x-api-token'));
    dashboardTokens.set(request, verified);
  }
  return verified;
}
