// Authentication of one HTTP request, done once however many layers ask (REST gate, GraphQL context).
import { verifyDashboardToken, type DashboardToken } from './dashboardToken';
import { storableIp } from './keyUsage';
import { verifyApiKey, type VerifiedKey } from './verifyApiKey';

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

/** The request's dashboard JWT (`x-api-token`), checked once however many layers ask. */
export function dashboardTokenOf(request: Request): Promise<DashboardToken> {
  let verified = dashboardTokens.get(request);
  if (!verified) {
    verified = verifyDashboardToken(request.headers.get('x-api-token'));
    dashboardTokens.set(request, verified);
  }
  return verified;
}
