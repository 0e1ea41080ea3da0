// Every feature of the service, gathered once: importing a module registers its GraphQL types and
// fields; its index hands the app the rest (routes, edge routes, reference, GraphiQL tabs,
// workers). This list is the only one: app.ts and server.ts read everything from here.
import { RouteTable } from '../rest/routes';
import { buildSchema } from '../schema/build';
import { catalog } from './catalog';
import type { FeatureModule } from './feature';
import { keys } from './keys';
import { links } from './links';
import { orders } from './orders';
import { payouts } from './payouts';
import { postbacks } from './postbacks';
import { reports } from './reports';
import { trigger } from './trigger';
import { webhooks } from './webhooks';

export const FEATURES: readonly FeatureModule[] = [
  catalog,
  orders,
  links,
  keys,
  webhooks,
  postbacks,
  reports,
  payouts,
  trigger,
];

/** The GraphQL schema of every feature. */
export const schema = buildSchema();

/** Every documented REST route. */
export const ROUTES = FEATURES.flatMap((feature) => feature.routes ?? []);
export const ROUTE_TABLE = new RouteTable(ROUTES);

export const EDGE_ROUTES = FEATURES.flatMap((feature) => feature.edgeRoutes ?? []);
export const GRAPHIQL_TABS = FEATURES.flatMap((feature) => feature.graphiqlTabs ?? []);
export const WORKERS = FEATURES.flatMap((feature) => feature.workers ?? []);

/** What the reference documents beyond the routes. */
export const openApiFragments = () => FEATURES.flatMap((feature) => feature.openApi?.() ?? []);
