// createApp(): the HTTP edge (src/http/edge.ts: request id, health, quota, payload limit, deadline,
// legacy-host headers, access log) around the yoga instance with its plugins. The server
// (src/server.ts) gives it a port; tests call `app.fetch()` directly.
import { useRateLimiter } from '@envelop/rate-limiter';
import { createServerAdapter } from '@whatwg-node/server';
import {
  createYoga,
  maskError,
  useExecutionCancellation,
  type MaskError,
  type Plugin,
} from 'graphql-yoga';
import { hearKeyChanges } from './auth/keyChanges';
import { apiKeyOf, dashboardTokenOf } from './auth/requestAuth';
import { config } from './config';
import { isDatabaseOutage } from './databaseOutage';
import { graphqlArmor, type GraphqlSettings } from './graphql/armor';
import { graphiqlOptions } from './graphql/graphiql';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { useJsonAnswers } from './graphql/jsonAnswers';
import { isMutation } from './graphql/operationType';
import { responseCache } from './graphql/responseCache';
import { createEdge, type EdgeSettings } from './http/edge';
import { createRedisClient, type RedisClient } from './redis';
import { logger } from './logger';
import { databaseUnavailable, TooManyRequestsError } from './errors';
import { useRestFacade } from './rest/facade';
import { useApiReference } from './rest/openapi';
import { useUnknownPathAnswer } from './rest/unknownPaths';
import type { Context, RestExecution } from './schema/context';
import { schema } from './schema';
import { graphqlTracing } from './tracing';

const GRAPHQL_ENDPOINT = '/graphql';

/** The contract's payload limit: 1 MB, counted as 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;

function edgeSettingsFromConfig(): EdgeSettings {
  return {
    max: config.rateLimitMax,
    windowSeconds: config.rateLimitWindowSeconds,
    failedAuthMax: 30,
    failedAuthWindowSeconds: 60,
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
  hearKeyChanges();
  const yoga = createYogaServer(
    { ...graphqlSettingsFromConfig(), ...options.graphql },
    responseCache(options.responseCacheTtlSeconds ?? config.responseCacheTtlSeconds, redis),
  );
  const edge = createEdge(yoga, { ...edgeSettingsFromConfig(), ...options.settings }, redis);
  return createServerAdapter<Record<string, unknown>>(edge);
}

/**
 * Key and webhook management per dashboard user: each of these mutations at most 10 times a minute
 * (sendTestWebhook and redeliverWebhook send requests to the user's receiver).
 */
const MANAGEMENT_LIMIT = { max: 10, window: '1m' };
const MANAGEMENT_LIMIT_WINDOW_S = 60;
const LIMITED_MANAGEMENT_MUTATIONS = [
  'createApiKey',
  'rotateApiKey',
  'revokeApiKey',
  'createWebhookEndpoint',
  'updateWebhookEndpoint',
  'deleteWebhookEndpoint',
  'rotateWebhookSecret',
  'redeliverWebhook',
  'sendTestWebhook',
];

function useManagementLimit() {
  const limiter = useRateLimiter({
    // Unauthenticated calls share one bucket; scope-auth refuses them anyway.
    identifyFn: (context) => (context as Context).dashboardUserId ?? 'anonymous',
    configByField: LIMITED_MANAGEMENT_MUTATIONS.map((field) => ({
      type: 'Mutation',
      field,
      ...MANAGEMENT_LIMIT,
    })),
    transformError: () =>
      new TooManyRequestsError(
        MANAGEMENT_LIMIT_WINDOW_S,
        `At most ${MANAGEMENT_LIMIT.max} calls of each key or webhook management mutation a minute: retry later`,
      ),
  });
  // The limiter walks the whole document with type information on every execution; only a
  // mutation can hold a limited field, so queries (every REST read) skip the walk.
  const limitMutation = limiter.onExecute!;
  return {
    ...limiter,
    onExecute: (payload: Parameters<typeof limitMutation>[0]) =>
      isMutation(payload.args) ? limitMutation(payload) : undefined,
  };
}

/** Yoga's masking, except that a database outage is told as such (503 on REST, its code on GraphQL). */
const maskUnlessOutage: MaskError = (error, message, isDev) =>
  isDatabaseOutage(error) ? databaseUnavailable(error) : maskError(error, message, isDev);

function createYogaServer(graphqlSettings: GraphqlSettings, answerCache: Plugin<Context>[]) {
  const restFacade = useRestFacade();
  const tracing = graphqlTracing();
  return createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: GRAPHQL_ENDPOINT,
    landingPage: false,
    // The edge answers CORS for every route (src/http/cors.ts).
    cors: false,
    maskedErrors: { maskError: maskUnlessOutage },
    graphiql: graphqlSettings.graphiql ? graphiqlOptions() : false,
    // GraphiQL's code inlined from the package: the page loads nothing from a CDN.
    renderGraphiQL,
    // One operation per request (yoga's default, stated): a batch would multiply every limit below
    // and the quota, which counts HTTP requests.
    batching: false,
    logging: {
      debug: (...args) => logger.debug(args.map(String).join(' ')),
      info: (...args) => logger.info(args.map(String).join(' ')),
      warn: (...args) => logger.warn(args.map(String).join(' ')),
      error: (...args) => logger.error(args.map(String).join(' ')),
    },
    // A REST execution brings the request as its client sent it (src/rest/facade.ts).
    context: async (initialContext) => {
      const rest = initialContext.rest as RestExecution | undefined;
      const request = rest?.request ?? initialContext.request;
      const dashboardToken = await dashboardTokenOf(request);
      const apiKey = await apiKeyOf(request);
      return {
        request,
        apiKey,
        affiliateId: apiKey?.affiliateId ?? null,
        dashboardUserId: 'userId' in dashboardToken ? dashboardToken.userId : null,
        dashboardToken,
        ...(rest && { rest }),
      };
    },
    // The edge enforces the payload limit for every route before yoga reads a byte.
    maxRequestBodySize: false,
    // At the deadline the request's signal fires: no further resolvers start.
    plugins: [
      // Parse and validation limits first: a refused operation costs no context, key check or
      // resolver. The REST facade answers in onRequest, before any of them (see src/graphql/armor.ts).
      ...graphqlArmor(graphqlSettings, GRAPHQL_ENDPOINT),
      useExecutionCancellation(),
      useManagementLimit(),
      restFacade.plugin,
      useApiReference(restFacade.openApiDocument),
      useUnknownPathAnswer(GRAPHQL_ENDPOINT),
      useJsonAnswers(),
      ...answerCache,
      ...(tracing ? [tracing] : []),
    ],
  });
}

export type App = ReturnType<typeof createApp>;
