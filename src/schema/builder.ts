// The schema builder: plugins, context and auth scopes. It defines no types; each resource file
// under src/schema does.
import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import PrismaPlugin from '@pothos/plugin-prisma';
import ScopeAuthPlugin, { type AuthFailure } from '@pothos/plugin-scope-auth';
import { closedAffiliate, keyRefusal, missingScope } from '../auth/keyRefusal';
import type { AffiliateScope, ApiScope, KeyType, PartnerScope } from '../auth/scopes';
import { config } from '../platform/config';
import { prisma } from '../platform/db';
import { ForbiddenError, UnauthorizedError } from '../platform/errors';
import type PrismaTypes from '../generated/pothos-types';
import { getDatamodel } from '../generated/pothos-types';
import { fieldComplexity } from './complexity';
import type { AffiliateContext, Context } from './context';
import {
  admitAffiliateUser,
  admitOpenUser,
  type AffiliateUserContext,
  type OpenUserContext,
} from './dashboardUser';
import { FIELD_POLICY_PLUGIN } from './fieldPolicy';
import { INPUT_LIMITS_PLUGIN } from './inputLimits';

export interface AuthScopes {
  /** The request carries a valid API key of this type. */
  apiKey: KeyType;
  /** The API key holds this scope. */
  keyScope: ApiScope;
  /** The key's affiliate account is open; a closed one is the contract's "affiliate not found". */
  openAffiliate: boolean;
  /** The request carries a valid dashboard JWT. */
  dashboardUser: boolean;
  /** The dashboard JWT's user is known and open. */
  openUser: boolean;
  /** The dashboard JWT's user is open and an affiliate, to use the feature named (plural). */
  affiliateUser: string;
}

/** The scopes a scope-auth failure tree says were not met, with what each asked for. */
function failedScopes(failure: AuthFailure): { scope: string; parameter?: unknown }[] {
  if ('failures' in failure) return failure.failures.flatMap(failedScopes);
  return 'scope' in failure ? [failure] : [];
}

/** Where a developer gets a dashboard token outside production. */
const DEVELOPMENT_TOKEN_HINT =
  '; on a development installation, `npm run token -- <userId>` prints one';

/** Why key management refuses the request's dashboard token, in words a dashboard developer can act on. */
function dashboardTokenRefusal(token: Context['dashboardToken']): UnauthorizedError {
  const hint = config.isProduction ? '' : DEVELOPMENT_TOKEN_HINT;
  if (!('refused' in token) || token.refused === 'absent') {
    return new UnauthorizedError(`A dashboard token is required: send it in x-api-token${hint}`);
  }
  if (token.refused === 'expired') {
    return new UnauthorizedError('The dashboard token has expired: sign in to the dashboard again');
  }
  return new UnauthorizedError(`The dashboard token is not valid: ${token.reason}${hint}`);
}

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: AuthScopes;
  AuthContexts: {
    openAffiliate: AffiliateContext;
    openUser: OpenUserContext;
    affiliateUser: AffiliateUserContext;
  };
  // A field's scopes must all hold, checked in the order they are written.
  DefaultAuthStrategy: 'all';
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    UUID: { Input: string; Output: string };
  };
}>({
  // Input limits wrap outermost: a malformed argument is a 400 before a missing scope's 403.
  // The field policy refuses, at build time, a root field that says nothing of who may call it.
  plugins: [
    INPUT_LIMITS_PLUGIN,
    FIELD_POLICY_PLUGIN,
    ScopeAuthPlugin,
    PrismaPlugin,
    ComplexityPlugin,
  ],
  defaultFieldNullability: false,
  complexity: {
    fieldComplexity,
    // Each /graphql operation is weighed once, before it executes (src/graphql/armor.ts), rather
    // than by the plugin in every root resolver.
    disabled: true,
  },
  scopeAuth: {
    defaultStrategy: 'all',
    authScopes: (context) => ({
      apiKey: (type) => context.grant?.type === type,
      keyScope: (scope) => context.grant?.scopes.has(scope) ?? false,
      // A function, like the two above: scope-auth checks plain values before functions, and the
      // order of the checks decides the status.
      openAffiliate: () => context.affiliateId !== null,
      dashboardUser: context.dashboardUserId !== null,
      openUser: () => admitOpenUser(context),
      affiliateUser: (feature) => admitAffiliateUser(context, feature),
    }),
    // Scopes are checked in the order keyAuth writes them, and the first one that fails decides:
    // the key's type (401), then its scope (403), then its affiliate account (404).
    unauthorizedError: (_parent, context, _info, result) => {
      const [failed] = failedScopes(result.failure);
      switch (failed?.scope) {
        case 'dashboardUser':
          return dashboardTokenRefusal(context.dashboardToken);
        case 'apiKey':
          return keyRefusal(
            context.record?.request.headers,
            context.apiKey,
            failed.parameter as KeyType,
          );
        case 'openAffiliate':
          return closedAffiliate();
        case 'keyScope':
          return missingScope(String(failed.parameter));
        default:
          return new ForbiddenError();
      }
    },
  },
  prisma: {
    client: prisma,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    onUnusedQuery: config.isProduction ? null : 'warn',
  },
});

/** An affiliate route's scopes: an affiliate key, holding the scope, of an open affiliate account. */
export interface AffiliateAuth {
  apiKey: 'affiliate';
  keyScope: AffiliateScope;
  openAffiliate: true;
}

/** A partner route's scopes: a partner key holding the scope. */
export interface PartnerAuth {
  apiKey: 'partner';
  keyScope: PartnerScope;
}

/** The scopes an API-key route declares, in the order they are checked. */
export type KeyAuth = AffiliateAuth | PartnerAuth;

/**
 * A dashboard field of the user's own (their keys): a dashboard token (401 without one), its user
 * known and open (401). The resolver reads the user from `context.openUser`.
 */
export const OPEN_USER_AUTH = { dashboardUser: true, openUser: true } as const;

/**
 * A dashboard field of an affiliate's feature (plural, as its refusal names it): a dashboard token
 * (401 without one), its user known and open (401), an affiliate (403). The resolver reads the
 * user from `context.affiliateUser`.
 */
export function affiliateUserAuth(feature: string) {
  return { dashboardUser: true, affiliateUser: feature } as const;
}

export function keyAuth(type: 'affiliate', scope: AffiliateScope): AffiliateAuth;
export function keyAuth(type: 'partner', scope: PartnerScope): PartnerAuth;
export function keyAuth(type: KeyType, scope: ApiScope): KeyAuth {
  return type === 'affiliate'
    ? { apiKey: type, keyScope: scope as AffiliateScope, openAffiliate: true }
    : { apiKey: type, keyScope: scope as PartnerScope };
}
