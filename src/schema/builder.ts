// The schema builder: plugins, context and auth scopes. It defines no types; each resource file
// under src/schema does.
import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import PrismaPlugin from '@pothos/plugin-prisma';
import ScopeAuthPlugin, { type AuthFailure } from '@pothos/plugin-scope-auth';
import { fieldComplexity } from './complexity';
import { INPUT_LIMITS_PLUGIN } from './inputLimits';
import type { ApiScope, KeyType } from '../auth/scopes';
import { config } from '../config';
import { prisma } from '../db';
import type PrismaTypes from '../generated/pothos-types';
import { getDatamodel } from '../generated/pothos-types';
import type { Context } from './context';
import { ForbiddenError, UnauthorizedError } from '../errors';

export interface AuthScopes {
  /** The request carries a valid API key of this type. */
  apiKey: KeyType;
  /** The API key holds this scope (checked after `apiKey`). */
  keyScope: ApiScope;
  /** The request carries a valid dashboard JWT. */
  dashboardUser: boolean;
}

/** Names of the scopes a scope-auth failure tree says were not met. */
export function failedScopes(failure: AuthFailure): string[] {
  if ('failures' in failure) return failure.failures.flatMap(failedScopes);
  return 'scope' in failure ? [failure.scope] : [];
}

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: AuthScopes;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    UUID: { Input: string; Output: string };
  };
}>({
  // Input limits wrap outermost: a malformed argument is a 400 before a missing scope's 403.
  plugins: [INPUT_LIMITS_PLUGIN, ScopeAuthPlugin, PrismaPlugin, ComplexityPlugin],
  defaultFieldNullability: false,
  complexity: {
    fieldComplexity,
    // Each /graphql operation is weighed once, before it executes (src/graphql/armor.ts), rather
    // than by the plugin in every root resolver.
    disabled: true,
  },
  scopeAuth: {
    authScopes: (context) => ({
      apiKey: (type) => context.apiKey?.type === type,
      keyScope: (scope) => context.apiKey?.scopes.has(scope) ?? false,
      dashboardUser: context.dashboardUserId !== null,
    }),
    // $all checks scopes in declaration order and stops at the first failure, so `apiKey` (401)
    // is always listed before `keyScope` (403); see keyAuth().
    unauthorizedError: (_parent, context, _info, result) => {
      const failed = failedScopes(result.failure);
      if (failed.includes('dashboardUser')) return dashboardTokenRefusal(context.dashboardToken);
      return failed.includes('apiKey') ? new UnauthorizedError() : new ForbiddenError();
    },
  },
  prisma: {
    client: prisma,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    onUnusedQuery: config.isProduction ? null : 'warn',
  },
});

/** Why key management refuses the request's dashboard token, in words a dashboard developer can act on. */
function dashboardTokenRefusal(token: Context['dashboardToken']): UnauthorizedError {
  if (!('refused' in token) || token.refused === 'absent') {
    return new UnauthorizedError('A dashboard token is required: send it in x-api-token');
  }
  if (token.refused === 'expired') {
    return new UnauthorizedError('The dashboard token has expired: sign in to the dashboard again');
  }
  return new UnauthorizedError(`The dashboard token is not valid: ${token.reason}`);
}

/** The auth rule of an API-key route: a key of this type, holding this scope. */
export function keyAuth(type: KeyType, scope: ApiScope): { $all: Partial<AuthScopes> } {
  return { $all: { apiKey: type, keyScope: scope } };
}
