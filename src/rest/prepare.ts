// A route made ready once per schema (its operation, the arguments it reads, its CSV columns, its
// key policy, held to its surface's key type), and a request's variables for it: path parameters,
// and the query string or the body.
import type { DocumentNode, GraphQLArgument, GraphQLField, GraphQLSchema } from 'graphql';
import { NotFoundError } from '../platform/errors';
import { Response } from '../platform/fetchApi';
import type { RequestRecord } from '../requestRecord';
import { textRefusal } from '../schema/inputLimits';
import { keyAuthOf, type KeyPolicy } from '../schema/fieldPolicy';
import { parseJsonBody, variablesFromBody } from './body';
import { csvColumns, rowTypeOf } from './csv';
import { variablesFromQuery } from './queryParams';
import { routeField, surfaceOf, type RestRoute } from './routes';
import type { Sofa } from './sofa';

export interface PreparedRoute {
  route: RestRoute;
  /** The root field's name: the answer is `data[fieldName]`. */
  fieldName: string;
  document: DocumentNode;
  /** Arguments read from the query string or the body (path parameters are bound from the path). */
  args: readonly GraphQLArgument[];
  /** CSV column paths, for routes that offer CSV. */
  csvColumns?: string[][];
  /** The key type and scope the route's field declares. */
  auth: KeyPolicy;
}

/**
 * The field's key policy, which must take the key type of the route's surface: the facade refuses
 * other keys by the surface before the field is reached, so a field of another key type under it
 * could never be answered.
 */
function surfaceKeyPolicy(route: RestRoute, field: GraphQLField<unknown, unknown>): KeyPolicy {
  const policy = keyAuthOf(field);
  const surface = surfaceOf(route.path);
  const name = `${route.method} ${route.path}`;
  if (!surface) throw new Error(`${name} lies under no REST surface`);
  if (surface.keyType !== policy.keyType) {
    throw new Error(
      `${name} is under ${surface.prefix}, which takes ${surface.keyType} keys, but ${route.field} takes ${policy.keyType} keys`,
    );
  }
  return policy;
}

/** Each route's operation, from Sofa, and what its answers need. */
export function prepareRoutes(
  sofa: Sofa,
  routes: readonly RestRoute[],
): Map<RestRoute, PreparedRoute> {
  const schema: GraphQLSchema = sofa.schema;
  return new Map(
    routes.map((route) => {
      const field = routeField(schema, route);
      const prepared: PreparedRoute = {
        route,
        fieldName: field.name,
        document: sofa.operationOf(route),
        args: field.args.filter((arg) => !route.path.includes(`:${arg.name}`)),
        ...(route.csv && { csvColumns: csvColumns(rowTypeOf(field)) }),
        auth: surfaceKeyPolicy(route, field),
      };
      return [route, prepared];
    }),
  );
}

/**
 * Path parameters decoded; one that cannot name anything (bad escape, control character, longer
 * than any text input) is 404.
 */
function decodePathParams(params: Record<string, string>): Record<string, string> {
  let decoded: Record<string, string>;
  try {
    decoded = Object.fromEntries(
      Object.entries(params).map(([name, value]) => [name, decodeURIComponent(value)]),
    );
  } catch {
    throw new NotFoundError('Resource not found');
  }
  if (Object.values(decoded).some((value) => textRefusal('id', value) !== null)) {
    throw new NotFoundError('Resource not found');
  }
  return decoded;
}

/** The operation's variables: path parameters, and the query string (GET) or the body (POST). */
export async function variablesOf(
  record: RequestRecord,
  prepared: PreparedRoute,
  pathParams: Record<string, string>,
  body: ReadableStream<Uint8Array> | null,
): Promise<Record<string, unknown>> {
  const variables =
    prepared.route.method === 'POST'
      ? variablesFromBody(prepared.args, parseJsonBody(body ? await new Response(body).text() : ''))
      : variablesFromQuery(prepared.args, record.url.searchParams);
  return { ...variables, ...decodePathParams(pathParams) };
}
