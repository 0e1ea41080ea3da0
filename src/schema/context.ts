import type { DashboardToken } from '../auth/dashboardToken';
import type { VerifiedKey } from '../auth/verifyApiKey';

/** What every resolver may know about the request. Prisma is imported from src/db.ts, not put here. */
export interface Context {
  request: Request;
  /** The verified `x-api-key`, or null when it is absent or invalid. */
  apiKey: VerifiedKey | null;
  /** The key's affiliate: its owner, when an affiliate whose account is open; else null. */
  affiliateId: string | null;
  /** The user id of a valid dashboard JWT (`x-api-token`), or null. */
  dashboardUserId: string | null;
  /** The dashboard JWT as checked: its user, or why it opens nothing. */
  dashboardToken: DashboardToken;
  /** What the REST facade tells the execution, and learns from it; absent on /graphql. */
  rest?: RestExecution;
}

/** A REST request's execution: the facade's parsed variables, and what the resolver found. */
export interface RestExecution {
  /** The request as the client sent it (Sofa is handed the route's request without query or body). */
  request: Request;
  variables: Record<string, unknown>;
  /** Set by a creation that found its resource already there: 200 instead of the route's 201. */
  foundExisting?: boolean;
}

/** The context of a field whose `openAffiliate` scope held. */
export type AffiliateContext = Context & { affiliateId: string };

/**
 * The affiliate a field of an affiliate type filters by. Only affiliate routes lead to those
 * types, behind the `openAffiliate` scope, so the id is there; its absence is a bug, not a 404.
 */
export function affiliateOf(context: Context): string {
  if (context.affiliateId === null) throw new Error('An affiliate type was reached without one');
  return context.affiliateId;
}
