// Authentication of one HTTP request, done once however many layers ask (REST gate, GraphQL context).
import { verifyDashboardToken } from './dashboardToken';
import { verifyApiKey, type VerifiedKey } from './verifyApiKey';

const apiKeys = new WeakMap<Request, Promise<VerifiedKey | null>>();

/** The request's verified `x-api-key`, or null when it is absent or invalid. */
export function apiKeyOf(request: Request): Promise<VerifiedKey | null> {
  let verified = apiKeys.get(request);
  if (!verified) {
    verified = verifyApiKey(request.headers.get('x-api-key'));
    apiKeys.set(request, verified);
  }
  return verified;
}

/** The user id of the request's valid dashboard JWT (`x-api-token`), or null. */
export function dashboardUserOf(request: Request): Promise<string | null> {
  return verifyDashboardToken(request.headers.get('x-api-token'));
}
