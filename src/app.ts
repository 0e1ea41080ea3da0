// createApp(): the HTTP edge (src/http/edge.ts: the request record, health, quota, payload limit,
// deadline, legacy-host headers, access log) in front of the REST facade and the yoga instance
// with its plugins, composed from the feature modules (src/modules): their schema, routes, edge
// routes, reference and GraphiQL tabs; the app starts their workers. The server (src/server.ts)
// gives it a port; tests call `app.fetch()` directly.
import { createServerAdapter } from '@whatwg-node/server';
import { createYoga, type Plugin } from 'graphql-yoga';
import { ApiKeys } from './auth/verifyApiKey';
import { config } from './platform/config';
import { graphqlArmor, type GraphqlSettings } from './graphql/armor';
import { useFiniteFloatLiterals } from './graphql/finiteFloats';
import { logYogaError, maskErrors, useFaultLog } from './graphql/errorMasking';
import { graphiqlOptions } from './graphql/graphiql';
import { useJsonAnswers } from './graphql/jsonAnswers';
import { useManagementLimit } from './graphql/managementLimit';
import { createEdge, type EdgeSettings } from './http/edge';
import { FAILED_AUTH_LIMIT } from './limits/requestQuota';
import { createRedisClient, type RedisClient } from './platform/redis';
import { logger } from './platform/logger';
import { MAX_BODY_BYTES } from './limits/bodyLimit';
import { Counters } from './limits/counters';
import { responseCache } from './rest/responseCache';
import { createRestFacade, type RestFacade } from './rest/facade';
import {
  openApiSettingsFromConfig,
  SECURITY_SCHEMES,
  useApiReference,
  type ReferenceKeys,
} from './rest/openapi';
import { DEMO_KEYS } from './auth/demoIdentities';
import { useUnknownPathAnswer } from './rest/unknownPaths';
import type { RequestRecord } from './requestRecord';
import { contextFor, type AppServices, type Context } from './schema/context';
import { ListTotals } from './schema/listTotals';
import {
  EDGE_ROUTES,
  GRAPHIQL_TABS,
  openApiFragments,
  ROUTE_TABLE,
  schema,
  WORKERS,
} from './modules';
import type { RunningWorker } from './modules/feature';
import { DueDeliveries } from './outbox/wakeUp';
import { graphqlTracing } from './platform/tracing';

const GRAPHQL_ENDPOINT = '/graphql';

function edgeSettingsFromConfig(): EdgeSettings {
  return {
    max: config.rateLimitMax,
    windowSeconds: config.rateLimitWindowSeconds,
    failedAuthMax: FAILED_AUTH_LIMIT.max,
    failedAuthWindowSeconds: FAILED_AUTH_LIMIT.windowSeconds,
    trustProxy: config.trustProxy,
    maxBodyBytes: MAX_BODY_BYTES,
    requestTimeoutMs: config.requestTimeoutMs,
    legacyHosts: config.legacyHosts,
    sunset: config.legacySunset,
    publicBaseUrl: config.publicBaseUrl,
    corsOrigins: config.corsOrigins,
    metricsEnabled: config.metricsEnabled,
    metricsToken: config.metricsToken,
  };
}

function graphqlSettingsFromConfig(): GraphqlSettings {
  return { introspection: config.graphqlIntrospection, graphiql: config.graphiql };
}

export interface AppOptions {
  /** Overrides of the configured limits (tests lower them). */
  settings?: Partial<EdgeSettings>;
  /** Overrides of the configured GraphQL settings (tests turn introspection and GraphiQL off). */
  graphql?: Partial<GraphqlSettings>;
  /** The Redis shared with other replicas; default: a client for REDIS_URL, or none. */
  redis?: RedisClient | null;
  /** Overrides RESPONSE_CACHE_TTL (seconds; 0 = off). */
  responseCacheTtlSeconds?: number;
}

export function createApp(options: AppOptions = {}) {
  const redis =
    options.redis !== undefined
      ? options.redis
      : config.redisUrl
        ? createRedisClient(config.redisUrl)
        : null;
  // Everything an app remembers is its own: two apps in one process share no state.
  const keys = new ApiKeys();
  const stopHearingKeyChanges = keys.listen();
  const dueDeliveries = new DueDeliveries();
  const stopHearingDueDeliveries = dueDeliveries.listen();
  const services: AppServices = { keys, totals: new ListTotals() };
  const counters = new Counters(redis);
  const cache = responseCache(
    options.responseCacheTtlSeconds ?? config.responseCacheTtlSeconds,
    redis,
  );
  const rest = createRestFacade(services, cache, ROUTE_TABLE.routes);
  const yoga = createYogaServer(
    { ...graphqlSettingsFromConfig(), ...options.graphql },
    services,
    rest,
    counters,
    cache ? [cache.plugin] : [],
  );
  const edge = createEdge(
    {
      routes: ROUTE_TABLE,
      rest,
      edgeRoutes: EDGE_ROUTES.map(({ makeAnswer, ...route }) => ({
        ...route,
        answer: makeAnswer(),
      })),
      yoga,
    },
    { ...edgeSettingsFromConfig(), ...options.settings },
    { keys, counters, redis },
  );
  return Object.assign(createServerAdapter<Record<string, unknown>>(edge), {
    /** The app's key verification: what it remembers, and the record of key uses. */
    keys,
    /** Runs a route's operation for the service's own reads (workers, and tests of them). */
    runRoute: rest.runRoute,
    /**
     * Starts the features' workers (src/modules/index.ts: WORKERS), the dispatchers woken by the
     * app's announcements of due deliveries; `stop()` them at shutdown.
     */
    startWorkers: (): RunningWorker[] =>
      WORKERS.map((worker) => wokenOnDue(worker.start({ runRoute: rest.runRoute }), dueDeliveries)),
    /**
     * Stops hearing key changes and due deliveries, and waits for the key-use records under way
     * (shutdown).
     */
    async close(): Promise<void> {
      stopHearingKeyChanges();
      stopHearingDueDeliveries();
      await keys.usage.settled();
    },
  });
}

/** A worker that looks for due work when woken hears `dueDeliveries` until it stops. */
function wokenOnDue(running: RunningWorker, dueDeliveries: DueDeliveries): RunningWorker {
  if (!running.wake) return running;
  const wake = running.wake.bind(running);
  const stopWaking = dueDeliveries.onDue(wake);
  return {
    wake,
    stop: () => {
      stopWaking();
      return running.stop();
    },
  };
}

/** The demo keys the reference page is authorized with: a development installation's only. */
function referenceKeys(): ReferenceKeys {
  if (config.isProduction || config.keyEnv !== 'test') return null;
  return {
    [SECURITY_SCHEMES.affiliate]: DEMO_KEYS.affiliate,
    [SECURITY_SCHEMES.partner]: DEMO_KEYS.partner,
  };
}

/** Execution stops at the request's deadline: no further resolvers start once its signal fires. */
function useDeadlineCancellation(): Plugin<Context> {
  return {
    onExecute({ args }) {
      const signal = args.contextValue.record?.signal;
      // graphql-tools' executor reads the signal from the execution arguments.
      if (signal) (args as { signal?: AbortSignal }).signal = signal;
    },
  };
}

function createYogaServer(
  graphqlSettings: GraphqlSettings,
  services: AppServices,
  rest: RestFacade,
  counters: Counters,
  cachePlugins: Plugin<Context>[],
) {
  const tracing = graphqlTracing();
  const openApiSettings = openApiSettingsFromConfig();
  return createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: GRAPHQL_ENDPOINT,
    landingPage: false,
    // The edge answers CORS for every route (src/http/cors.ts).
    cors: false,
    maskedErrors: { maskError: maskErrors },
    graphiql: graphqlSettings.graphiql ? graphiqlOptions(GRAPHIQL_TABS) : false,
    // GraphiQL's code inlined from the package: the page loads nothing from a CDN. Its 11 MB of
    // strings are loaded on the page's first request, so a replica that serves no GraphiQL
    // (production's default) holds none of it; the build leaves the package out of the bundle.
    renderGraphiQL: async (options) =>
      (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    // One operation per request (yoga's default, stated): a batch would multiply every limit below
    // and the quota, which counts HTTP requests.
    batching: false,
    logging: {
      debug: (...args) => logger.debug(args.map(String).join(' ')),
      info: (...args) => logger.info(args.map(String).join(' ')),
      warn: (...args) => logger.warn(args.map(String).join(' ')),
      error: logYogaError,
    },
    // /graphql's context, from the edge's record of the request (the REST facade makes its own
    // the same way).
    context: async (initialContext) => {
      const record = initialContext.record as RequestRecord;
      const [apiKey, dashboardToken] = await Promise.all([
        record.apiKey(),
        record.dashboardToken(),
      ]);
      return contextFor({ apiKey, dashboardToken }, services, record);
    },
    // The edge enforces the payload limit for every route before yoga reads a byte.
    maxRequestBodySize: false,
    plugins: [
      // Parse and validation limits first: a refused operation costs no context, key check or
      // resolver (see src/graphql/armor.ts). REST executions meet only the execution hooks.
      ...graphqlArmor(graphqlSettings),
      useFiniteFloatLiterals(),
      useDeadlineCancellation(),
      useFaultLog(),
      useManagementLimit(counters),
      rest.plugin,
      useApiReference(
        () => rest.openApiDocument(openApiSettings, openApiFragments()),
        openApiSettings,
        referenceKeys(),
      ),
      useUnknownPathAnswer(GRAPHQL_ENDPOINT),
      useJsonAnswers(),
      ...cachePlugins,
      ...(tracing ? [tracing] : []),
    ],
  });
}

export type App = ReturnType<typeof createApp>;
