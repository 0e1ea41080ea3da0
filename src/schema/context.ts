import type { DashboardToken } from '../auth/dashboardToken';
import type { ApiScope, KeyType } from '../auth/scopes';
import type { ServiceIdentity } from '../auth/serviceIdentity';
import type { ApiKeys, VerifiedKey } from '../auth/verifyApiKey';
import type { RequestRecord } from '../requestRecord';
import type { ListTotals } from './listTotals';

/** What an app keeps for the resolvers of its requests: the app's own, never the process's. */
export interface AppServices {
  keys: ApiKeys;
  totals: ListTotals;
}

/** Who a GraphQL execution acts for: the verified API key and dashboard token. */
export interface Identity {
  /** The verified `x-api-key`, or null when it is absent or invalid. */
  apiKey: VerifiedKey | null;
  /** The dashboard JWT (`x-api-token`) as checked: its user, or why it opens nothing. */
  dashboardToken: DashboardToken;
}

/** What the caller may open: the key type and scopes scope-auth checks. */
export interface Grant {
  type: KeyType;
  scopes: ReadonlySet<ApiScope>;
}

/** What every resolver may know. Prisma is imported from src/platform/db.ts, not put here. */
export interface Context extends Identity {
  app: AppServices;
  /** The verified key's type and scopes, or a service identity's; null for neither. */
  grant: Grant | null;
  /** The service reading for itself (webhooks), when it is not a request's key. */
  service?: string;
  /** The HTTP request answered; null when the service runs an operation of its own (webhooks). */
  record: RequestRecord | null;
  /** The key's affiliate: its owner, when an affiliate whose account is open; else null. */
  affiliateId: string | null;
  /** The user id of a valid dashboard JWT (`x-api-token`), or null. */
  dashboardUserId: string | null;
  /** What the REST facade tells the execution, and learns from it; absent on /graphql. */
  rest?: RestExecution;
}

/** A REST request's execution: the facade's parsed variables, and what the resolver found. */
export interface RestExecution {
  /** GET (HEAD is answered as GET) or POST. */
  method: 'GET' | 'POST';
  variables: Record<string, unknown>;
  /** Set by a creation that found its resource already there: 200 instead of the route's 201. */
  foundExisting?: boolean;
}

/** No dashboard token: what the REST surfaces (keys only) and the service's own runs present. */
export const NO_DASHBOARD_TOKEN: DashboardToken = {
  refused: 'absent',
  reason: 'no x-api-token header',
};

/** The one way a context is made, for /graphql, the REST facade and the service's own runs. */
export function contextFor(
  identity: Identity | ServiceIdentity,
  app: AppServices,
  record: RequestRecord | null,
  rest?: RestExecution,
): Context {
  if ('service' in identity) {
    return {
      app,
      record,
      apiKey: null,
      dashboardToken: NO_DASHBOARD_TOKEN,
      grant: { type: 'affiliate', scopes: identity.scopes },
      service: identity.service,
      affiliateId: identity.affiliateId,
      dashboardUserId: null,
      ...(rest && { rest }),
    };
  }
  const { apiKey, dashboardToken } = identity;
  return {
    app,
    record,
    apiKey,
    dashboardToken,
    grant: apiKey,
    affiliateId: apiKey?.affiliateId ?? null,
    dashboardUserId: 'userId' in dashboardToken ? dashboardToken.userId : null,
    ...(rest && { rest }),
  };
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
