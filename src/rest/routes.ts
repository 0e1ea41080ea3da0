// The route table's shape and its matcher: each documented REST path and the GraphQL root field
// that answers it. The feature modules declare their routes (src/modules/*/index.ts); the app hands
// the gathered list to the facade, Sofa (src/rest/sofa.ts) and the reference. No other field gets a
// REST route.
import type { GraphQLField, GraphQLSchema } from 'graphql';
import type { KeyType } from '../auth/scopes';

export type HttpMethod = 'GET' | 'POST';

export interface RestRoute {
  method: HttpMethod;
  /** Contract path; `:name` binds the field argument of that name. */
  path: string;
  /** `Query.field` or `Mutation.field`. */
  field: `${'Query' | 'Mutation'}.${string}`;
  responseStatus?: 200 | 201;
  /** `Accept: text/csv` answers the list's rows as CSV (src/rest/csv.ts). */
  csv?: true;
}

/** The root field of `schema` that answers `route`. */
export function routeField(
  schema: GraphQLSchema,
  route: RestRoute,
): GraphQLField<unknown, unknown> {
  const [operation, name] = route.field.split('.') as [string, string];
  const type = operation === 'Query' ? schema.getQueryType() : schema.getMutationType();
  const field = type?.getFields()[name];
  if (!field) throw new Error(`The route table names ${route.field}, which the schema lacks`);
  return field;
}

/** The surfaces and the key type each one takes (contract, Authentication 3). */
export const SURFACES = [
  { prefix: '/affiliate/', keyType: 'affiliate' },
  { prefix: '/api/partner/', keyType: 'partner' },
] as const satisfies readonly { prefix: string; keyType: KeyType }[];

export function surfaceOf(pathname: string) {
  return SURFACES.find((surface) => pathname.startsWith(surface.prefix));
}

export type Surface = (typeof SURFACES)[number];

/** Where a path under a surface leads; every outcome names its surface. */
export type RouteLookup = { surface: Surface } & (
  | { kind: 'found'; route: RestRoute; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' }
);

interface CompiledRoute {
  route: RestRoute;
  pattern: RegExp;
  paramNames: string[];
}

function compile(route: RestRoute): CompiledRoute {
  const paramNames: string[] = [];
  const source = route.path.replace(/:(\w+)/g, (_match, name: string) => {
    paramNames.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}$`), paramNames };
}

/** The route table's path of a lookup (`/affiliate/orders/{orderId}`), or null. */
export function routeTemplate(found: RouteLookup): string | null {
  return found.kind === 'found' ? found.route.path.replace(/:(\w+)/g, '{$1}') : null;
}

/** The routes the feature modules declare, matched against requests. */
export class RouteTable {
  private readonly compiled: CompiledRoute[];

  constructor(readonly routes: readonly RestRoute[]) {
    this.compiled = routes.map(compile);
  }

  /**
   * The route for a method and path under a surface, with its path parameters still
   * percent-encoded; null for a path under no surface. HEAD takes the GET route (the edge drops
   * the body).
   */
  lookup(method: string, pathname: string): RouteLookup | null {
    const surface = surfaceOf(pathname);
    if (!surface) return null;
    const matches = this.compiled.flatMap((compiled) => {
      const found = compiled.pattern.exec(pathname);
      return found ? [{ compiled, values: found.slice(1) }] : [];
    });
    const wanted = method === 'HEAD' ? 'GET' : method;
    const match = matches.find(({ compiled }) => compiled.route.method === wanted);
    if (match) {
      const params = Object.fromEntries(
        match.compiled.paramNames.map((name, index) => [name, match.values[index]!]),
      );
      return { surface, kind: 'found', route: match.compiled.route, params };
    }
    if (matches.length) {
      return {
        surface,
        kind: 'method-not-allowed',
        allow: matches.flatMap(({ compiled }) =>
          compiled.route.method === 'GET' ? ['GET', 'HEAD'] : [compiled.route.method],
        ),
      };
    }
    return { surface, kind: 'not-found' };
  }
}
