// The REST facade: each contract path is answered by its route's GraphQL operation. Sofa turns a
// route's root field into that operation (the one its router would run, src/rest/sofa.ts) and
// documents the routes (src/rest/openapi); the facade runs the operation through the server's
// GraphQL pipeline (envelop's execute: its plugins, tracing, cancellation at the deadline) with the
// context of the edge's request record, unless the response cache (src/rest/responseCache.ts) has
// it. Sofa's own router is not asked per request: it would match the path the edge already matched
// and parse the query string with `qs`, which bends what the contract accepts (stack notes, "Sofa").
//
// Before execution the facade answers what the contract fixes: unknown paths and methods, the key
// type of the surface (401 before any 400), the partner surface's refusal of dashboard
// credentials, and strict query-string and JSON-body parsing (src/rest/prepare.ts). Then a GET
// (src/rest/read.ts: CSV where a route offers it, `ETag`/304) or a POST (src/rest/write.ts:
// `Idempotency-Key` replays).
import type { ExecutionResult, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { keyRefusal } from '../auth/keyRefusal';
import type { ServiceIdentity } from '../auth/serviceIdentity';
import type { VerifiedKey } from '../auth/verifyApiKey';
import {
  BadRequestError,
  errorResponse,
  MethodNotAllowedError,
  NotFoundError,
  shown,
  toHttpError,
} from '../platform/errors';
import type { RequestRecord } from '../requestRecord';
import {
  contextFor,
  NO_DASHBOARD_TOKEN,
  type AppServices,
  type Context,
  type RestExecution,
} from '../schema/context';
import { buildOpenApiDocument, type OpenApiSettings } from './openapi';
import type { OpenApiFragment } from './openapi/fragment';
import { prepareRoutes, variablesOf, type PreparedRoute } from './prepare';
import { IGNORED_PARAMETERS_HEADER, ignoredParameters } from './queryParams';
import { getResponse, negotiatedFormat, renderGet } from './read';
import type { CachedResponse, ResponseCache } from './responseCache';
import type { RestRoute, RouteLookup, Surface } from './routes';
import { createSofa, type Sofa } from './sofa';
import { postResponse } from './write';

type GetEnveloped = Parameters<NonNullable<Plugin['onYogaInit']>>[0]['yoga']['getEnveloped'];

/** The key of a request to a surface, of the surface's type; else the surface's 400 or 401. */
async function surfaceKey(record: RequestRecord, surface: Surface): Promise<VerifiedKey> {
  if (
    surface.keyType === 'partner' &&
    (record.wasSent('x-api-token') || record.wasSent('x-auth-key'))
  ) {
    throw new BadRequestError(
      'The partner surface takes only x-api-key; do not send x-api-token or x-auth-key',
    );
  }
  const apiKey = await record.apiKey();
  if (!apiKey || apiKey.type !== surface.keyType) {
    throw keyRefusal(record.request.headers, apiKey, surface.keyType);
  }
  return apiKey;
}

/** The header naming the query parameters a GET's route does not take. */
function ignoredParametersHeader(
  record: RequestRecord,
  prepared: PreparedRoute,
): Record<string, string> {
  if (prepared.route.method !== 'GET') return {};
  const ignored = ignoredParameters(prepared.args, record.url.searchParams);
  return ignored.length ? { [IGNORED_PARAMETERS_HEADER]: ignored.join(', ') } : {};
}

/**
 * A route's answer for the service's own reads (an order for its webhook): the route's operation,
 * run as a request's is, for a named service identity instead of a key.
 */
export type RouteRunner = (
  route: RestRoute,
  identity: ServiceIdentity,
  variables: Record<string, unknown>,
) => Promise<unknown>;

export function createRestFacade(
  app: AppServices,
  cache: ResponseCache | null,
  routes: readonly RestRoute[],
) {
  // Set when yoga starts and whenever its schema changes: the facade is also a yoga plugin.
  let schema: GraphQLSchema;
  let sofa: Sofa;
  let getEnveloped: GetEnveloped;
  let prepared = new Map<RestRoute, PreparedRoute>();

  /**
   * The route's operation run in `contextValue`: the field's value, or its first error. Stopped at
   * the request's deadline by the app's cancellation plugin, which reads the context's record.
   */
  async function execute(
    route: PreparedRoute,
    contextValue: Context,
    variables: Record<string, unknown>,
  ): Promise<unknown> {
    const { record } = contextValue;
    const { execute: run } = getEnveloped(record ? { request: record.request, record } : {});
    const result = (await run({
      schema,
      document: route.document,
      variableValues: variables,
      contextValue,
    } as Parameters<typeof run>[0])) as ExecutionResult;
    if (result.errors?.length) throw result.errors[0];
    return result.data![route.fieldName];
  }

  /** The route's operation run for the record's key. */
  function executeForKey(
    record: RequestRecord,
    route: PreparedRoute,
    apiKey: VerifiedKey,
    rest: RestExecution,
  ): Promise<unknown> {
    const context = contextFor({ apiKey, dashboardToken: NO_DASHBOARD_TOKEN }, app, record, rest);
    return execute(route, context, rest.variables);
  }

  /** Prepared from the same route table: a miss would be a bug. */
  function preparedOf(route: RestRoute): PreparedRoute {
    const found = prepared.get(route);
    if (!found) throw new Error(`No operation for ${route.method} ${route.path}`);
    return found;
  }

  const runRoute: RouteRunner = (route, identity, variables) =>
    execute(preparedOf(route), contextFor(identity, app, null), variables);

  /** A GET's bytes: from the response cache, or executed, rendered and then kept there. */
  async function renderedGet(
    record: RequestRecord,
    route: PreparedRoute,
    apiKey: VerifiedKey,
    rest: RestExecution,
  ): Promise<CachedResponse> {
    const format = negotiatedFormat(record, route);
    const question = { route: route.route.path, variables: rest.variables, form: format };
    const cached = await cache?.get(question, apiKey);
    if (cached) return cached;
    const rendered = renderGet(route, format, await executeForKey(record, route, apiKey, rest));
    await cache?.set(question, apiKey, rendered);
    return rendered;
  }

  /** The answer to a request under a REST surface, its route as the edge looked it up. */
  async function answer(
    record: RequestRecord,
    found: RouteLookup,
    body: ReadableStream<Uint8Array> | null,
  ): Promise<Response> {
    const { method } = record.request;
    try {
      if (found.kind === 'not-found') {
        throw new NotFoundError(`No route ${method} ${shown(record.url.pathname)}`);
      }
      if (found.kind === 'method-not-allowed') {
        throw new MethodNotAllowedError(method, found.allow);
      }
      const route = preparedOf(found.route);
      const apiKey = await surfaceKey(record, found.surface);
      const rest: RestExecution = {
        method: route.route.method,
        variables: await variablesOf(record, route, found.params, body),
      };
      const headers = ignoredParametersHeader(record, route);
      if (route.route.method === 'POST') {
        return await postResponse(record, route, apiKey, rest, headers, () =>
          executeForKey(record, route, apiKey, rest),
        );
      }
      return getResponse(record, await renderedGet(record, route, apiKey, rest), headers);
    } catch (error) {
      return errorResponse(toHttpError(error, record.log), record.id, record.answerHeaders);
    }
  }

  const plugin: Plugin<Context> = {
    onYogaInit({ yoga }) {
      getEnveloped = yoga.getEnveloped;
    },
    onSchemaChange({ schema: fullSchema }) {
      sofa = createSofa(fullSchema, routes);
      schema = sofa.schema;
      prepared = prepareRoutes(sofa, routes);
    },
  };

  /** The OpenAPI document of the routes, from the Sofa that made their operations. */
  const openApiDocument = (settings: OpenApiSettings, fragments: readonly OpenApiFragment[]) =>
    buildOpenApiDocument(sofa, routes, fragments, settings);
  return { plugin, answer, runRoute, openApiDocument };
}

export type RestFacade = ReturnType<typeof createRestFacade>;
