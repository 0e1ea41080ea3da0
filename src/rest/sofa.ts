// The service's one Sofa (the facade's, made once per schema): it turns each route of the route table into the GraphQL
// operation that answers it (every field of the result, as Sofa's router builds it) and writes the
// routes' OpenAPI document. It sees a schema filtered to the route table, so no other field (and
// no `/webhook`) gets a route or an operation.
import { buildOperationNodeForField, filterSchema, pruneSchema } from '@graphql-tools/utils';
import {
  Kind,
  OperationTypeNode,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import { createSofa as sofaSettings, createSofaRouter } from 'sofa-api';
import { isGraphqlOnly } from '../schema/fieldPolicy';
import { SCALARS } from './scalars';
import type { RestRoute } from './routes';

export interface Sofa {
  /** The schema Sofa sees: only the root fields of the route table. */
  schema: GraphQLSchema;
  /** Sofa's router over that schema; the facade asks it for its OpenAPI document only. */
  router: ReturnType<typeof createSofaRouter>;
  /** The operation that answers a route: the same document Sofa's router would run. */
  operationOf(route: Pick<RestRoute, 'field'>): DocumentNode;
}

/** The schema Sofa sees: only the root fields of the route table. */
export function restSchema(schema: GraphQLSchema, routes: readonly RestRoute[]): GraphQLSchema {
  const routed = new Set<string>(routes.map((route) => route.field));
  return pruneSchema(
    filterSchema({
      schema,
      rootFieldFilter: (operation, fieldName) => routed.has(`${operation}.${fieldName}`),
    }),
  );
}

/**
 * The operation without the fields declared `graphqlOnly` (a list that has a route of its own): a REST answer leaves them out.
 */
function withoutGraphqlOnlyFields(schema: GraphQLSchema, document: DocumentNode): DocumentNode {
  const typeInfo = new TypeInfo(schema);
  return visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: () => {
        const field = typeInfo.getFieldDef();
        return field && isGraphqlOnly(field) ? null : undefined;
      },
    }),
  );
}

export function createSofa(fullSchema: GraphQLSchema, routes: readonly RestRoute[]): Sofa {
  const schema = restSchema(fullSchema, routes);
  const settings = sofaSettings({
    basePath: '',
    schema,
    routes: Object.fromEntries(
      routes.map(({ field, method, path, responseStatus }) => [
        field,
        { method, path, responseStatus },
      ]),
    ),
    customScalars: { DateTime: SCALARS.DateTime, UUID: SCALARS.UUID },
    openAPI: { openapi: '3.1.0' },
  });
  const operations = new Map<string, DocumentNode>();
  return {
    schema: settings.schema,
    router: createSofaRouter(settings),
    operationOf({ field }) {
      let document = operations.get(field);
      if (!document) {
        const [type, name] = field.split('.') as ['Query' | 'Mutation', string];
        const operation = buildOperationNodeForField({
          kind: type === 'Query' ? OperationTypeNode.QUERY : OperationTypeNode.MUTATION,
          schema: settings.schema,
          field: name,
          models: settings.models,
          ignore: settings.ignore,
          circularReferenceDepth: settings.depthLimit,
        });
        document = withoutGraphqlOnlyFields(settings.schema, {
          kind: Kind.DOCUMENT,
          definitions: [operation],
        });
        operations.set(field, document);
      }
      return document;
    },
  };
}
