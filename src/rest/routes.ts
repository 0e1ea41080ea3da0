// The one route table: each documented REST path and the GraphQL root field that answers it.
// Sofa mounts exactly these fields (src/rest/sofa.ts); nothing else gets a REST route.
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

export const ROUTES: RestRoute[] = [
  { method: 'GET', path: '/api/partner/organizations', field: 'Query.partnerOrganizations' },
  { method: 'GET', path: '/api/partner/brands', field: 'Query.partnerBrands' },
  { method: 'GET', path: '/api/partner/brands/:brandId', field: 'Query.partnerBrand' },
  { method: 'GET', path: '/api/partner/campaigns', field: 'Query.partnerCampaigns' },
  { method: 'GET', path: '/api/partner/campaigns/:campaignId', field: 'Query.partnerCampaign' },
  // affiliate: brands and channels
  { method: 'GET', path: '/affiliate/brands', field: 'Query.affiliateBrands' },
  { method: 'GET', path: '/affiliate/brands/:brandId', field: 'Query.affiliateBrand' },
  { method: 'GET', path: '/affiliate/channels', field: 'Query.affiliateChannels' },
  { method: 'GET', path: '/affiliate/channels/:channelId', field: 'Query.affiliateChannel' },
  // affiliate: campaigns
  { method: 'GET', path: '/affiliate/campaigns', field: 'Query.affiliateCampaigns' },
  { method: 'GET', path: '/affiliate/campaigns/:campaignId', field: 'Query.affiliateCampaign' },
  // Removed (contract, Versioning 4): answers 410 pointing to /affiliate/campaigns?types=Offer.
  { method: 'GET', path: '/affiliate/offers', field: 'Query.affiliateOffers' },
  // affiliate: orders and products
  { method: 'GET', path: '/affiliate/orders', field: 'Query.affiliateOrders' },
  { method: 'GET', path: '/affiliate/orders/:orderId', field: 'Query.affiliateOrder' },
  { method: 'GET', path: '/affiliate/products', field: 'Query.affiliateProducts' },
  // affiliate: shortener
  {
    method: 'POST',
    path: '/affiliate/shortener/url',
    field: 'Mutation.createShortUrl',
    responseStatus: 201,
  },
  { method: 'GET', path: '/affiliate/shortener/urls', field: 'Query.affiliateShortUrls' },
  { method: 'GET', path: '/affiliate/shortener/urls/:urlCode', field: 'Query.affiliateShortUrl' },
  // affiliate: reports
  {
    method: 'GET',
    path: '/affiliate/reports/performance',
    field: 'Query.affiliatePerformanceReport',
    csv: true,
  },
];

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
export const SURFACES: { prefix: string; keyType: KeyType }[] = [
  { prefix: '/affiliate/', keyType: 'affiliate' },
  { prefix: '/api/partner/', keyType: 'partner' },
];

export function surfaceOf(pathname: string) {
  return SURFACES.find((surface) => pathname.startsWith(surface.prefix));
}

export type RouteLookup =
  | { kind: 'found'; route: RestRoute; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' };

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

const COMPILED = ROUTES.map(compile);

/** The route table's path of a lookup (`/affiliate/orders/{orderId}`), or null. */
export function routeTemplate(found: RouteLookup): string | null {
  return found.kind === 'found' ? found.route.path.replace(/:(\w+)/g, '{$1}') : null;
}

/**
 * The route for a method and path, with its path parameters still percent-encoded. HEAD takes the
 * GET route (the edge drops the body).
 */
export function lookupRoute(method: string, pathname: string): RouteLookup {
  const matches = COMPILED.flatMap((compiled) => {
    const found = compiled.pattern.exec(pathname);
    return found ? [{ compiled, values: found.slice(1) }] : [];
  });
  const wanted = method === 'HEAD' ? 'GET' : method;
  const match = matches.find(({ compiled }) => compiled.route.method === wanted);
  if (match) {
    const params = Object.fromEntries(
      match.compiled.paramNames.map((name, index) => [name, match.values[index]!]),
    );
    return { kind: 'found', route: match.compiled.route, params };
  }
  if (matches.length) {
    return {
      kind: 'method-not-allowed',
      allow: matches.flatMap(({ compiled }) =>
        compiled.route.method === 'GET' ? ['GET', 'HEAD'] : [compiled.route.method],
      ),
    };
  }
  return { kind: 'not-found' };
}
