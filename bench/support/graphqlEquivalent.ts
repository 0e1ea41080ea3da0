// The GraphQL operation a REST route runs, as the facade's Sofa builds it from the service's schema
// (src/rest/sofa.ts), so POST /graphql runs the same query.
import { print } from 'graphql';
import { ROUTES, schema } from '../../src/modules';
import { type RestRoute } from '../../src/rest/routes';
import { createSofa, type Sofa } from '../../src/rest/sofa';
import { sameAnswer } from './sideBySide';

let sofa: Sofa | undefined;

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
  sofa ??= createSofa(schema, ROUTES);
  return print(sofa.operationOf(route));
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
  const graphqlBody = (await graphql.json()) as { data?: Record<string, unknown> };
  const answer = JSON.stringify(graphqlBody.data?.[rootFieldOf(route)]);
  // The orders' watermark follows the clock: the two answers may name it a few ms apart.
  return sameAnswer(Buffer.from(await rest.text()), Buffer.from(answer))
    ? null
    : 'the bodies differ';
}
