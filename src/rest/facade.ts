// The REST facade: Sofa serves the route table's GraphQL fields at the contract's paths.
// Before Sofa, the facade answers what Sofa would get wrong: unknown paths and methods (contract
// error bodies instead of an empty 404), the key type of the surface (401 before any 400), the
// partner surface's refusal of dashboard credentials, strict query-string and JSON-body parsing,
// `Idempotency-Key` replays on POST routes. After Sofa, GET answers get their `ETag`.
import type { ExecutionArgs, GraphQLSchema } from 'graphql';
import type { Plugin, YogaInitialContext } from 'graphql-yoga';
import { apiKeyOf, keyRefusal } from '../auth/requestAuth';
import type { VerifiedKey } from '../auth/verifyApiKey';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  parseIdempotencyKey,
  runIdempotently,
} from '../idempotency';
import type { Context, RestExecution } from '../schema/context';
import { buildOpenApiDocument, type OpenApiSettings } from './openapi';
import { createSofa, type Sofa } from './sofa';
import {
  BadRequestError,
  errorResponse,
  jsonResponse,
  MethodNotAllowedError,
  NotFoundError,
  shown,
  toHttpError,
  withHeaders,
} from '../errors';
import { parseJsonBody, variablesFromBody } from './body';
import { conditionalAnswer } from './conditional';
import { IGNORED_PARAMETERS_HEADER, ignoredParameters, variablesFromQuery } from './queryParams';
import { lookupRoute, routeField, surfaceOf, type RestRoute } from './routes';
import {
  CSV_CONTENT_TYPE,
  csvColumns,
  csvOf,
  prefersCsv,
  rowTypeOf,
  TOTAL_COUNT_HEADER,
} from './csv';
import { textRefusal } from '../schema/inputLimits';
import { Headers, Request, Response } from '../fetchApi';

type GetEnveloped = Parameters<NonNullable<Plugin['onYogaInit']>>[0]['yoga']['getEnveloped'];
type Enveloped = ReturnType<GetEnveloped>;

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

/** Whether a header was sent at all, even empty (the fetch adapter drops empty ones). */
function wasSent(request: Request, serverContext: Record<string, unknown>, name: string): boolean {
  const nodeHeaders = (serverContext.req as { headers?: Record<string, unknown> } | undefined)
    ?.headers;
  return request.headers.has(name) || (nodeHeaders !== undefined && name in nodeHeaders);
}

/**
 * Checks a REST request up to the point Sofa takes over; returns the key, the variables and the
 * query parameters the route ignores.
 */
async function admitRestRequest(
  request: Request,
  serverContext: Record<string, unknown>,
  url: URL,
  route: RestRoute,
  rawParams: Record<string, string>,
  schema: GraphQLSchema,
): Promise<{ apiKey: VerifiedKey; variables: Record<string, unknown>; ignored: string[] }> {
  const surface = surfaceOf(url.pathname)!;
  const sent = (name: string) => wasSent(request, serverContext, name);
  if (surface.keyType === 'partner' && (sent('x-api-token') || sent('x-auth-key'))) {
    throw new BadRequestError(
      'The partner surface takes only x-api-key; do not send x-api-token or x-auth-key',
    );
  }
  const apiKey = await apiKeyOf(request);
  if (!apiKey || apiKey.type !== surface.keyType) {
    throw keyRefusal(request, apiKey, surface.keyType);
  }
  // Path parameters are bound from the path; the other arguments come from the query or body.
  const args = routeField(schema, route).args.filter((arg) => !route.path.includes(`:${arg.name}`));
  // A POST takes its arguments from the body only; its query string is ignored whole.
  const fromQuery = route.method === 'POST' ? [] : args;
  const variables =
    route.method === 'POST'
      ? variablesFromBody(args, parseJsonBody(await request.text()))
      : variablesFromQuery(args, url.searchParams);
  return {
    apiKey,
    variables: { ...variables, ...decodePathParams(rawParams) },
    ignored: ignoredParameters(fromQuery, url.searchParams),
  };
}

/** Answers a POST carrying an Idempotency-Key: once per key and body, replayed after that. */
async function idempotentResponse(
  key: string,
  apiKey: VerifiedKey,
  route: RestRoute,
  variables: Record<string, unknown>,
  respond: () => Promise<Response>,
): Promise<Response> {
  const { answer, replayed } = await runIdempotently(
    {
      scope: `api-key:${apiKey.id}`,
      key: parseIdempotencyKey(key),
      fingerprint: { route: `${route.method} ${route.path}`, variables },
    },
    async () => {
      const response = await respond();
      return { status: response.status, body: await response.json() };
    },
  );
  return jsonResponse(answer.body, {
    status: answer.status,
    headers: replayed ? { [IDEMPOTENT_REPLAYED_HEADER]: 'true' } : {},
  });
}

/**
 * A CSV route's answer as the client negotiated it: a successful JSON list becomes its rows in CSV
 * (the same rows; the total in a header). `Vary: Accept` either way, so a cache keeps both apart.
 */
async function negotiated(
  request: Request,
  route: RestRoute,
  schema: GraphQLSchema,
  response: Response,
): Promise<Response> {
  if (!route.csv) return response;
  if (response.status !== 200 || !prefersCsv(request.headers.get('accept'))) {
    return withHeaders(response, { Vary: 'Accept' });
  }
  const body = (await response.json()) as { data: unknown[]; meta?: { total: number } };
  const headers = new Headers(response.headers);
  headers.set('Content-Type', CSV_CONTENT_TYPE);
  headers.set('Vary', 'Accept');
  headers.delete('Content-Length');
  if (body.meta) headers.set(TOTAL_COUNT_HEADER, String(body.meta.total));
  const columns = csvColumns(rowTypeOf(routeField(schema, route)));
  return new Response(csvOf(columns, body.data), { status: 200, headers });
}

/**
 * The REST facade's yoga plugin, wired as @graphql-yoga/plugin-sofa wires Sofa: one Sofa for the
 * schema, executing through yoga's envelop (the context factory and the plugins' execute hooks).
 * The facade's parsed variables and the found-existing answer travel on the execution's context
 * (`context.rest`). Sofa is handed the route's request without its query string and body: its own
 * parsing (qs, scalar serialization) would refuse or bend what the contract accepts.
 */
export function useRestFacade() {
  let sofa: Sofa;
  let fullSchema: GraphQLSchema;
  let getEnveloped: GetEnveloped;
  const envelopedByContext = new WeakMap<object, Enveloped>();

  /** Sofa's answer to an admitted request; 200 when the resolver found what it would create. */
  async function answerThroughSofa(
    request: Request,
    url: URL,
    serverContext: Record<string, unknown>,
    variables: Record<string, unknown>,
  ): Promise<Response> {
    const rest: RestExecution = { request, variables };
    const routeRequest = new Request(`${url.origin}${url.pathname}`, {
      // Sofa's router knows GET; a HEAD is answered as the GET (the edge drops the body).
      method: request.method === 'HEAD' ? 'GET' : request.method,
      headers: request.headers,
    });
    const response = await sofa.handleRequest(routeRequest, { ...serverContext, rest });
    // The route table is Sofa's list of routes too; a miss here would be a bug.
    if (!response) throw new Error(`Sofa has no route for ${request.method} ${url.pathname}`);
    if (response.status === 201 && rest.foundExisting) {
      return new Response(response.body, { status: 200, headers: response.headers });
    }
    return response;
  }

  const plugin: Plugin<Context> = {
    onYogaInit({ yoga }) {
      getEnveloped = yoga.getEnveloped;
    },
    onSchemaChange({ schema }) {
      fullSchema = schema;
      sofa = createSofa(schema, {
        async context(initialContext: YogaInitialContext) {
          const enveloped = getEnveloped(initialContext);
          const contextValue = await enveloped.contextFactory(initialContext);
          envelopedByContext.set(contextValue, enveloped);
          return contextValue;
        },
        execute: ((args: ExecutionArgs) => {
          const context = args.contextValue as Context;
          return envelopedByContext
            .get(context)!
            .execute({ ...args, variableValues: context.rest!.variables });
        }) as never,
        // The first error decides the answer. (Sofa types its answers as fets Responses.)
        errorHandler: ((errors: readonly unknown[]) =>
          errorResponse(toHttpError(errors[0]))) as never,
      });
    },
    async onRequest({ request, url, serverContext, endResponse }) {
      if (!surfaceOf(url.pathname)) return;
      const found = lookupRoute(request.method, url.pathname);
      if (found.kind === 'not-found') {
        endResponse(
          errorResponse(new NotFoundError(`No route ${request.method} ${shown(url.pathname)}`)),
        );
        return;
      }
      if (found.kind === 'method-not-allowed') {
        endResponse(errorResponse(new MethodNotAllowedError(request.method, found.allow)));
        return;
      }
      try {
        const { apiKey, variables, ignored } = await admitRestRequest(
          request,
          serverContext,
          url,
          found.route,
          found.params,
          fullSchema,
        );
        const answer = async () =>
          negotiated(
            request,
            found.route,
            fullSchema,
            await answerThroughSofa(request, url, serverContext, variables),
          );
        const idempotencyKey = request.headers.get(IDEMPOTENCY_KEY_HEADER);
        const response =
          found.route.method === 'GET'
            ? await conditionalAnswer(request, await answer())
            : idempotencyKey !== null
              ? await idempotentResponse(idempotencyKey, apiKey, found.route, variables, answer)
              : await answer();
        endResponse(
          ignored.length
            ? withHeaders(response, { [IGNORED_PARAMETERS_HEADER]: ignored.join(', ') })
            : response,
        );
      } catch (error) {
        endResponse(errorResponse(toHttpError(error)));
      }
    },
  };
  /** The OpenAPI document of the routes, from the Sofa that mounts them. */
  const openApiDocument = (settings: OpenApiSettings) =>
    buildOpenApiDocument(fullSchema, settings, sofa);
  return { plugin, openApiDocument };
}
