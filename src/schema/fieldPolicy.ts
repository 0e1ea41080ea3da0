// A root field's policy, declared on the field and checked when the schema is built: every Query
// and Mutation field names who may call it (scope-auth's `authScopes`), or the schema does not
// build. What the rest of the service reads of that policy is written into the field's
// `extensions`, so nothing keeps a list of fields beside the schema:
//   - `keyAuth`: the key type and scope of an API-key field (the REST facade refuses a replay by
//     it, the OpenAPI document states it);
//   - `directives.rateLimit`: a dashboard mutation's own limit (`managementLimit: true`), the
//     directive @envelop/rate-limiter reads (src/graphql/managementLimit.ts);
//   - `issuesSecret`: a mutation that answers a secret once (`issuesSecret: true`), which an
//     Idempotency-Key covers (src/modules/secrets/issuance.ts);
//   - `graphqlOnly`: a field of any type that REST answers leave out (`graphqlOnly: true`: a
//     list with a route of its own; src/rest/sofa.ts, the OpenAPI components).
import SchemaBuilder, {
  BasePlugin,
  PothosSchemaError,
  type FieldNullability,
  type InputFieldMap,
  type PothosOutputFieldConfig,
  type SchemaTypes,
  type TypeParam,
} from '@pothos/core';
import type { GraphQLField, GraphQLFieldExtensions } from 'graphql';
import type { ApiScope, KeyType } from '../auth/scopes';

/** Calls of each limited dashboard mutation per user and window. */
export const MANAGEMENT_LIMIT = { max: 10, windowSeconds: 60 } as const;

/** The key type and scope an API-key field declares. */
export interface KeyPolicy {
  keyType: KeyType;
  scope: ApiScope;
}

/** The `rateLimit` directive as @envelop/rate-limiter reads it from a field's extensions. */
export interface RateLimitDirective {
  max: number;
  window: string;
}

type WithExtensions = { extensions?: GraphQLFieldExtensions<unknown, unknown> | null };

/** The key policy a field's extensions carry, or null for a field no API key opens. */
export function keyPolicyOf(field: WithExtensions) {
  return (field.extensions?.keyAuth as KeyPolicy | undefined) ?? null;
}

/** The key type and scope of a field a REST route answers, which must declare them. */
export function keyAuthOf(field: GraphQLField<unknown, unknown>): KeyPolicy {
  const policy = keyPolicyOf(field);
  if (!policy) {
    throw new Error(`${field.name} declares no keyAuth(type, scope); every REST route needs one`);
  }
  return policy;
}

/** Whether a mutation answers a secret once (declared with `issuesSecret: true`). */
export function issuesSecret(field: WithExtensions): boolean {
  return field.extensions?.issuesSecret === true;
}

/** Whether REST answers leave the field out (declared with `graphqlOnly: true`). */
export function isGraphqlOnly(field: WithExtensions): boolean {
  return field.extensions?.graphqlOnly === true;
}

export class FieldPolicyPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): PothosOutputFieldConfig<Types> {
    const options = fieldConfig.pothosOptions as {
      authScopes?: { apiKey?: KeyType; keyScope?: ApiScope };
      managementLimit?: boolean;
      issuesSecret?: boolean;
      graphqlOnly?: boolean;
    };
    if (fieldConfig.kind !== 'Query' && fieldConfig.kind !== 'Mutation') {
      if (!options.graphqlOnly) return fieldConfig;
      return { ...fieldConfig, extensions: { ...fieldConfig.extensions, graphqlOnly: true } };
    }
    if (!options.authScopes) {
      throw new PothosSchemaError(
        `${fieldConfig.parentType}.${fieldConfig.name} declares no authScopes: every root field says who may call it`,
      );
    }
    const { apiKey, keyScope } = options.authScopes;
    const keyAuth: KeyPolicy | undefined =
      apiKey && keyScope ? { keyType: apiKey, scope: keyScope } : undefined;
    const rateLimit: RateLimitDirective | undefined = options.managementLimit
      ? { max: MANAGEMENT_LIMIT.max, window: `${MANAGEMENT_LIMIT.windowSeconds}s` }
      : undefined;
    const secret = fieldConfig.kind === 'Mutation' && options.issuesSecret === true;
    if (!keyAuth && !rateLimit && !secret) return fieldConfig;
    const extensions = fieldConfig.extensions ?? {};
    return {
      ...fieldConfig,
      extensions: {
        ...extensions,
        ...(keyAuth && { keyAuth }),
        ...(secret && { issuesSecret: true }),
        ...(rateLimit && {
          directives: { ...(extensions.directives as object | undefined), rateLimit },
        }),
      },
    };
  }
}

/** The plugin's name, as the builder's `plugins` list takes it. */
export const FIELD_POLICY_PLUGIN = 'fieldPolicy';
SchemaBuilder.registerPlugin(FIELD_POLICY_PLUGIN, FieldPolicyPlugin);

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      fieldPolicy: FieldPolicyPlugin<Types>;
    }
    export interface MutationFieldOptions<
      Types extends SchemaTypes,
      Type extends TypeParam<Types>,
      Nullable extends FieldNullability<Type>,
      Args extends InputFieldMap,
      ResolveReturnShape,
    > {
      /** A dashboard mutation limited per user (MANAGEMENT_LIMIT): it writes, or calls out. */
      managementLimit?: boolean;
      /**
       * A mutation that answers a secret once: an Idempotency-Key covers it, and one request with
       * the header may issue one secret (src/modules/secrets/issuance.ts).
       */
      issuesSecret?: boolean;
    }
    export interface FieldOptions<
      Types extends SchemaTypes = SchemaTypes,
      ParentShape = unknown,
      Type extends TypeParam<Types> = TypeParam<Types>,
      Nullable extends FieldNullability<Type> = FieldNullability<Type>,
      Args extends InputFieldMap = InputFieldMap,
      ResolveShape = unknown,
      ResolveReturnShape = unknown,
    > {
      /** Left out of REST answers: a list with a route of its own (src/rest/sofa.ts). */
      graphqlOnly?: boolean;
    }
  }
}
