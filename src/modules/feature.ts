// What a feature module hands the app: its routes, the paths the edge answers for it, its part of
// the reference and of GraphiQL, and its background workers. Its GraphQL types and fields are
// registered on the schema builder when the module is imported. src/modules/index.ts gathers them.
import type { GraphiqlTab } from '../graphql/graphiql';
import type { EdgeRoute } from '../http/edge';
import type { OpenApiFragment } from '../rest/openapi/fragment';
import type { RestRoute } from '../rest/routes';
import type { RouteRunner } from '../rest/facade';

/** What a worker is started with. */
export interface WorkerContext {
  /** Runs a route's operation for the service's own reads. */
  runRoute: RouteRunner;
}

/** A worker started. */
export interface RunningWorker {
  /**
   * Looks for due work now: an outbox dispatcher's, which its app calls on every announcement of
   * due deliveries (src/outbox/wakeUp.ts).
   */
  wake?(): void;
  stop(): Promise<void>;
}

/** Work a replica does beside answering requests (the webhook dispatcher, the sub-ID click history). */
export interface Worker {
  name: string;
  start(context: WorkerContext): RunningWorker;
}

/**
 * A public path the edge answers for a feature. `makeAnswer` is called once per app, so what the
 * answer remembers (the redirect's click batches) is that app's own.
 */
export interface EdgeRouteOf extends Omit<EdgeRoute, 'answer'> {
  makeAnswer(): EdgeRoute['answer'];
}

export interface FeatureModule {
  name: string;
  /** Documented REST paths, each answered by a root field of the module. */
  routes?: readonly RestRoute[];
  /** Public paths the edge answers itself, without a key, a quota or GraphQL. */
  edgeRoutes?: readonly EdgeRouteOf[];
  /** What the OpenAPI document says beyond the routes (the redirect, the webhooks sent). */
  openApi?: () => OpenApiFragment;
  /** GraphiQL tabs with example operations. */
  graphiqlTabs?: readonly GraphiqlTab[];
  workers?: readonly Worker[];
}
