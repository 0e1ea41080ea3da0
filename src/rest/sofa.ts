// The service's one Sofa: it mounts the route table's GraphQL fields at the contract's paths and
// writes their OpenAPI document. It sees a schema filtered to the route table, so no other field
// (and no `/webhook`) gets a route.
import { buildOperationNodeForField, filterSchema, pruneSchema } from '@graphql-tools/utils';
import { Kind, OperationTypeNode, type DocumentNode, type GraphQLSchema } from 'graphql';
import { createSofa as sofaSettings, useSofa } from 'sofa-api';
import { SCALARS } from './openapi/parameters';
import { ROUTES } from './routes';

export type Sofa = ReturnType<typeof useSofa>;

/** How Sofa's executions run: through the server's GraphQL pipeline (the facade wires it). */
export type SofaExecution = Pick<
  Parameters<typeof useSofa>[0],
  'context' | 'execute' | 'errorHandler'
>;

/** The schema Sofa sees: only the root fields of the route table. */
export function restSchema(schema: GraphQLSchema): GraphQLSchema {
  const routed = new Set<string>(ROUTES.map((route) => route.field));
  return pruneSchema(
    filterSchema({
      schema,
      rootFieldFilter: (operation, fieldName) => routed.has(`${operation}.${fieldName}`),
    }),
  );
}

export function createSofa(schema: GraphQLSchema, execution: SofaExecution = {}): Sofa {
  return useSofa({
    basePath: '',
    schema: restSchema(schema),
    routes: Object.fromEntries(
      ROUTES.map(({ field, method, path, responseStatus }) => [
        field,
        { method, path, responseStatus },
      ]),
    ),
    customScalars: { DateTime: SCALARS.DateTime, UUID: SCALARS.UUID },
    openAPI: { openapi: '3.1.0' },
    ...execution,
  });
}

/**
 * The GraphQL document Sofa runs for a query route (as its router builds it: the same models,
 * ignore list and depth), so another caller can answer exactly what the route answers.
 */
export function routeDocument(schema: GraphQLSchema, queryField: string): DocumentNode {
  const sofa = sofaSettings({ basePath: '', schema: restSchema(schema) });
  const operation = buildOperationNodeForField({
    kind: OperationTypeNode.QUERY,
    schema: sofa.schema,
    field: queryField,
    models: sofa.models,
    ignore: sofa.ignore,
    circularReferenceDepth: sofa.depthLimit,
  });
  return { kind: Kind.DOCUMENT, definitions: [operation] };
}
