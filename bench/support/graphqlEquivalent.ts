// The GraphQL operation a REST route runs: Sofa builds it from the route's root field with
// buildOperationNodeForField (every field of the result, depth limit 1, no models), over the schema
// the facade gives it (only the route table's root fields). Built here the same way from the
// committed SDL (schema.graphql, kept current by a test), so POST /graphql runs the same query.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { buildOperationNodeForField, filterSchema, pruneSchema } from '@graphql-tools/utils';
import { buildSchema, OperationTypeNode, print, type GraphQLSchema } from 'graphql';
import { ROUTES } from '../../src/modules';
import { type RestRoute } from '../../src/rest/routes';
import { REPO_ROOT } from './processes';

let restSchema: GraphQLSchema | undefined;

function routedSchema(): GraphQLSchema {
  if (!restSchema) {
    const full = buildSchema(readFileSync(path.join(REPO_ROOT, 'schema.graphql'), 'utf8'));
    const routed = new Set<string>(ROUTES.map((route) => route.field));
    restSchema = pruneSchema(
      filterSchema({
        schema: full,
        rootFieldFilter: (operation, fieldName) => routed.has(`${operation}.${fieldName}`),
      }),
    );
  }
  return restSchema;
}

/**
 * The arguments a route cannot be asked without (required in the schema), with the values the
 * bench asks with: query parameters of the REST request, variables of the GraphQL one.
 */
const REQUIRED_ARGUMENTS: Readonly<Record<string, Record<string, string>>> = {
  '/affiliate/reports/performance': { groupBy: 'day' },
};

export function requiredArgumentsOf(route: Pick<RestRoute, 'path'>): Record<string, string> {
  return REQUIRED_ARGUMENTS[route.path] ?? {};
}

/** The route's path with its required arguments and `query` as its query string. */
export function pathWithQuery(
  route: Pick<RestRoute, 'path'>,
  query: Record<string, string | number> = {},
): string {
  const search = new URLSearchParams(
    Object.entries({ ...requiredArgumentsOf(route), ...query }).map(([name, value]) => [
      name,
      String(value),
    ]),
  ).toString();
  return search ? `${route.path}?${search}` : route.path;
}

/** The root field a route runs, e.g. `affiliateOrders`. */
export function rootFieldOf(route: RestRoute): string {
  return route.field.split('.')[1]!;
}

/** The query document Sofa runs for a GET route. */
export function graphqlQueryOf(route: RestRoute): string {
  const operation = buildOperationNodeForField({
    kind: OperationTypeNode.QUERY,
    schema: routedSchema(),
    field: rootFieldOf(route),
    models: [],
    ignore: [],
    circularReferenceDepth: 1,
  });
  return print(operation);
}

/**
 * Whether POST /graphql answers the same list as the REST route (first page, default limit):
 * the check that the GraphQL scenarios load the same work. Null when equal, else what differs.
 */
export async function differenceFromRest(
  baseUrl: string,
  route: RestRoute,
  apiKey: string,
): Promise<string | null> {
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  const rest = await fetch(`${baseUrl}${pathWithQuery(route)}`, { headers });
  const graphql = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query: graphqlQueryOf(route), variables: requiredArgumentsOf(route) }),
  });
  if (rest.status !== 200 || graphql.status !== 200) {
    return `REST ${rest.status}, GraphQL ${graphql.status}`;
  }
  const restBody = await rest.json();
  const graphqlBody = (await graphql.json()) as { data?: Record<string, unknown> };
  const answer = graphqlBody.data?.[rootFieldOf(route)];
  return isDeepStrictEqual(restBody, answer) ? null : 'the bodies differ';
}
