// Authentication of one HTTP request, done once however many layers ask (REST gate, GraphQL context).
import { verifyDashboardToken } from './dashboardToken';
import { storableIp } from './keyUsage';
import { verifyApiKey, type VerifiedKey } from './verifyApiKey';

const apiKeys = new WeakMap<Request, Promise<VerifiedKey | null>>();
const clientIps = new WeakMap<Request, string>();

/**
 * The edge tells which client address a request comes from (src/limits/clientIp.ts, the address
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

/** The user id of the request's valid dashboard JWT (`x-api-token`), or null. */
export function dashboardUserOf(request: Request): Promise<string | null> {
  return verifyDashboardToken(request.headers.get('x-api-token'));
}
