// The scenario table: what the harness loads, built from the service's route table
// (src/rest/routes.ts), its page rules and the contract's filters, with values from the running
// service (fixtures.ts).
import { DEMO } from '../../prisma/seed/demo';
import { ROUTES } from '../../src/modules';
import { routeField, surfaceOf, type RestRoute } from '../../src/rest/routes';
import { schema } from '../../src/modules';
import { pageRuleOf, type PaginatedRule } from '../../src/schema/pagination';
import type { Fixtures } from './fixtures';
import {
  graphqlQueryOf,
  pathWithQuery,
  requiredArgumentsOf,
  rootFieldOf,
} from './graphqlEquivalent';
import type { LoadRequest, LoadSpec } from './load';

export type ScenarioKind =
  | 'list'
  | 'list-max'
  | 'page-500'
  | 'filter'
  | 'graphql'
  | 'single'
  | 'write'
  | 'redirect'
  | 'auth';

export interface Scenario {
  name: string;
  kind: ScenarioKind;
  /** The REST path it exercises, without the query (growth table and profile key). */
  route: string;
  spec: LoadSpec;
  /** redirect: the link whose click count must rise by exactly the number of 302 answers. */
  clickCode?: string;
}

/**
 * The page rule the service applies to a route: its root field's `limit` argument carries it
 * (`pageArgs` in src/schema/pagination.ts). Undefined: the route takes no `limit`.
 */
export function pageRuleOfRoute(route: RestRoute): PaginatedRule | undefined {
  const limit = routeField(schema, route).args.find((arg) => arg.name === 'limit');
  return limit && pageRuleOf(limit);
}

/** Removed route (contract, Versioning 4): answers 410, listed for the auth pair only. */
const REMOVED_ROUTE = '/affiliate/offers';

/** A path under the affiliate surface that no route serves: the facade answers 404 before auth. */
export const UNROUTED_PATH = '/affiliate/bench-unrouted';

export const DEEP_PAGE = 500;

/** `updatedSince` of a first sync: every order, oldest change first. */
const SYNC_FROM = '1970-01-01T00:00:00Z';

/** The GET routes without path parameters. */
export function listRoutes(): RestRoute[] {
  return ROUTES.filter(
    (route) => route.method === 'GET' && !route.path.includes(':') && route.path !== REMOVED_ROUTE,
  );
}

/** The demo key of the path's surface (the scale seed issues the same keys). */
export function keyFor(path: string): string {
  return surfaceOf(path)?.keyType === 'partner' ? DEMO.keys.partner : DEMO.keys.affiliate;
}

function get(path: string, expected = [200], key: string | null = keyFor(path)): LoadSpec {
  const headers = key ? { 'x-api-key': key } : undefined;
  return { requests: [{ method: 'GET', path, headers }], expected };
}

/** Each filter family of a list route, with a value that matches something in the data. */
function filterFamilies(path: string, f: Fixtures): Record<string, Record<string, string>> {
  const createdRange = { startAt: f.startAt, endAt: f.endAt };
  const brandFilters = {
    search: { search: f.brandSearch },
    categories: { categories: f.category },
    traits: { isHighlight: 'true', isPublic: 'true' },
    'created range': createdRange,
  };
  const campaignFilters = {
    types: { types: 'Offer', offerType: 'Url' },
    organizationId: { organizationId: f.brandIds[0]! },
    organizationIds: { organizationIds: f.brandIds.slice(0, 5).join(',') },
    name: { name: f.campaignSearch },
    status: { status: 'onTime' },
    categories: { categories: f.category },
    isHighlight: { isHighlight: 'true' },
    period: createdRange,
  };
  switch (path) {
    case '/api/partner/organizations':
      return { search: { search: f.organizationSearch } };
    case '/api/partner/brands':
      return brandFilters;
    case '/affiliate/brands':
      return { ...brandFilters, isFavorite: { isFavorite: 'true' } };
    case '/api/partner/campaigns':
    case '/affiliate/campaigns':
      return campaignFilters;
    case '/affiliate/orders':
      return {
        status: { status: 'PAID' },
        organizationId: { organizationId: f.orderBrandId },
        search: { search: f.orderSearch },
        'ordered range': createdRange,
        // Incremental sync from the start: the whole list by change time, first and deep page.
        updatedSince: { updatedSince: SYNC_FROM },
        'updatedSince page 500': { updatedSince: SYNC_FROM, page: String(DEEP_PAGE) },
      };
    case '/affiliate/products':
      return {
        available: { available: 'true' },
        categories: { categories: f.category },
        'price range': { minPrice: '10', maxPrice: '100' },
        organizationId: { organizationId: f.productBrandId },
        search: { search: f.productSearch },
      };
    case '/affiliate/reports/performance':
      return {
        'by brand': { groupBy: 'brand' },
        'by campaign': { groupBy: 'campaign' },
        'by link': { groupBy: 'link' },
        timezone: { timezone: 'America/Sao_Paulo' },
      };
    case '/affiliate/shortener/urls':
      return {
        active: { active: 'false' },
        type: { type: 'BrandPage' },
        organizationId: { organizationId: f.brandIds[0]! },
        search: { search: f.shortUrlSearch },
        'created range': createdRange,
      };
    default:
      return {};
  }
}

function listScenarios(route: RestRoute, f: Fixtures): Scenario[] {
  const { path } = route;
  const rule = pageRuleOfRoute(route);
  const scenarios: Scenario[] = [
    { name: `GET ${path}`, kind: 'list', route: path, spec: get(pathWithQuery(route)) },
  ];
  if (rule) {
    const max = pathWithQuery(route, { limit: rule.maxLimit });
    const deep = pathWithQuery(route, { page: DEEP_PAGE });
    scenarios.push(
      { name: `GET ${max}`, kind: 'list-max', route: path, spec: get(max) },
      { name: `GET ${deep}`, kind: 'page-500', route: path, spec: get(deep) },
    );
  }
  for (const [family, query] of Object.entries(filterFamilies(path, f))) {
    const filtered = pathWithQuery(route, query);
    scenarios.push({
      name: `GET ${path} [${family}]`,
      kind: 'filter',
      route: path,
      spec: get(filtered),
    });
  }
  return scenarios;
}

/** POST /graphql running the route's own query (same selection as the REST answer). */
export function graphqlRequest(route: RestRoute): LoadRequest {
  return {
    method: 'POST',
    path: '/graphql',
    headers: { 'x-api-key': keyFor(route.path) },
    body: JSON.stringify({ query: graphqlQueryOf(route), variables: requiredArgumentsOf(route) }),
  };
}

function graphqlScenario(route: RestRoute): Scenario {
  return {
    name: `POST /graphql ${rootFieldOf(route)}`,
    kind: 'graphql',
    route: route.path,
    spec: { requests: [graphqlRequest(route)], expected: [200] },
  };
}

function singleScenarios(f: Fixtures): Scenario[] {
  const singles: [string, string][] = [
    ['/api/partner/brands/:brandId', f.partnerBrandId],
    ['/api/partner/campaigns/:campaignId', f.partnerCampaignId],
    ['/affiliate/brands/:brandId', f.brandIds[0]!],
    ['/affiliate/campaigns/:campaignId', f.affiliateCampaignId],
    ['/affiliate/channels/:channelId', f.channelId],
    ['/affiliate/orders/:orderId', f.orderId],
    ['/affiliate/shortener/urls/:urlCode', f.urlCode],
  ];
  return singles.map(([route, id]) => {
    const path = route.replace(/:\w+$/, encodeURIComponent(id));
    return { name: `GET ${route}`, kind: 'single', route, spec: get(path) };
  });
}

/** Brand-page links for the first page of brands: 201 the first time for each, 200 after. */
function shortenerScenario(f: Fixtures): Scenario {
  const path = '/affiliate/shortener/url';
  return {
    name: `POST ${path} (${f.brandIds.length} brand pages)`,
    kind: 'write',
    route: path,
    spec: {
      requests: f.brandIds.map((organizationId) => ({
        method: 'POST',
        path,
        headers: { 'x-api-key': DEMO.keys.affiliate },
        body: JSON.stringify({ organizationId }),
      })),
      expected: [200, 201],
    },
  };
}

function redirectScenario(f: Fixtures): Scenario {
  return {
    name: 'GET /s/{urlCode}',
    kind: 'redirect',
    route: '/s/:urlCode',
    spec: get(`/s/${f.urlCode}`, [302], null),
    clickCode: f.urlCode,
  };
}

/** The redirect of a follow tagged with sub-IDs: counted per value, which the target gets. */
function taggedRedirectScenario(f: Fixtures): Scenario {
  return {
    name: 'GET /s/{urlCode}?sub1=…&sub2=… (tagged)',
    kind: 'redirect',
    route: '/s/:urlCode',
    spec: get(`/s/${f.urlCode}?sub1=newsletter-may&sub2=hero`, [302], null),
    clickCode: f.urlCode,
  };
}

/**
 * The auth + quota path alone. The unrouted path answers 404 in the facade before any auth, and
 * both requests are counted (a key's budget or the anonymous one), so with a key the added work is
 * the key's verification. The removed route is the cheapest routed one: 410 after auth and the
 * route's GraphQL execution, 401 without a key (so that pair also differs by the execution).
 */
export function authPairs(): Scenario[] {
  const pair = (path: string, withKey: number, without: number): Scenario[] => [
    {
      name: `GET ${path} with key`,
      kind: 'auth',
      route: path,
      spec: get(path, [withKey], DEMO.keys.affiliate),
    },
    {
      name: `GET ${path} without key`,
      kind: 'auth',
      route: path,
      spec: get(path, [without], null),
    },
  ];
  return [...pair(UNROUTED_PATH, 404, 404), ...pair(REMOVED_ROUTE, 410, 401)];
}

export function buildScenarios(f: Fixtures): Scenario[] {
  const lists = listRoutes();
  return [
    ...lists.flatMap((route) => listScenarios(route, f)),
    ...lists.map(graphqlScenario),
    ...singleScenarios(f),
    shortenerScenario(f),
    redirectScenario(f),
    taggedRedirectScenario(f),
    ...authPairs(),
  ];
}

/** The groups' requests spread evenly: each group's i-th request at (i + 0.5) / its size. */
function interleave(groups: LoadRequest[][]): LoadRequest[] {
  return groups
    .flatMap((group) => group.map((request, i) => ({ request, at: (i + 0.5) / group.length })))
    .sort((a, b) => a.at - b.at)
    .map(({ request }) => request);
}

const SOAK_SINGLES = [
  '/affiliate/orders/:orderId',
  '/affiliate/campaigns/:campaignId',
  '/affiliate/brands/:brandId',
];

/**
 * The soak's mixed traffic, which every connection cycles through: each list route once (9),
 * the redirect 4 times, 3 single GETs, 2 GraphQL lists and 2 shortener POSTs (20 requests).
 */
export function soakMix(f: Fixtures): LoadSpec {
  const lists = listRoutes();
  const first = (scenarios: Scenario[]) => scenarios.map((scenario) => scenario.spec.requests[0]!);
  const redirect = first([redirectScenario(f)])[0]!;
  const singles = first(singleScenarios(f).filter((s) => SOAK_SINGLES.includes(s.route)));
  const graphql = lists
    .filter((route) => ['/affiliate/orders', '/affiliate/campaigns'].includes(route.path))
    .map(graphqlRequest);
  const posts = shortenerScenario(f).spec.requests.slice(0, 2);
  const requests = interleave([
    lists.map((route) => get(pathWithQuery(route)).requests[0]!),
    [redirect, redirect, redirect, redirect],
    singles,
    graphql,
    posts,
  ]);
  return { requests, expected: [200, 201, 302] };
}
