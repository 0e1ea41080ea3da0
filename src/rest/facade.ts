// The REST facade: each contract path is answered by its route's GraphQL operation. Sofa turns a
// route's root field into that operation (the one its router would run, src/rest/sofa.ts) and
// documents the routes (src/rest/openapi); the facade runs the operation through the server's
// GraphQL pipeline (envelop's execute: its plugins, tracing, cancellation at the deadline) with the
// context of the edge's request record, unless the answer cache (src/rest/answerCache.ts) has it. Sofa's own router is not asked per request: it would match
// the path the edge already matched and parse the query string with `qs`, which bends what the
// contract accepts (stack notes, "Sofa").
//
// Before execution the facade answers what the contract fixes: unknown paths and methods, the key
// type of the surface (401 before any 400), the partner surface's refusal of dashboard
// credentials, strict query-string and JSON-body parsing, and `Idempotency-Key` replays on POST
// routes. After it: CSV where a route offers it, and `ETag`/304 on GET answers.
import type { DocumentNode, ExecutionResult, GraphQLArgument, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { accessRefusal, keyRefusal } from '../auth/keyRefusal';
import type { ServiceIdentity } from '../auth/serviceIdentity';
import type { VerifiedKey } from '../auth/verifyApiKey';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  parseIdempotencyKey,
  runIdempotently,
} from '../platform/idempotency';
import type { RequestRecord } from '../requestRecord';
import {
  contextFor,
  NO_DASHBOARD_TOKEN,
  type AppServices,
  type Context,
  type RestExecution,
} from '../schema/context';
import { buildOpenApiDocument, keyAuthOf, type OpenApiSettings } from './openapi';
import type { OpenApiFragment } from './openapi/fragment';
import { createSofa, type Sofa } from './sofa';
import {
  BadRequestError,
  errorBody,
  errorResponse,
  MethodNotAllowedError,
  NotFoundError,
  shown,
  toHttpError,
} from '../platform/errors';
import { parseJsonBody, variablesFromBody } from './body';
import { entityTag, ifNoneMatchHolds } from './conditional';
import { IGNORED_PARAMETERS_HEADER, ignoredParameters, variablesFromQuery } from './queryParams';
import { routeField, type RestRoute, type RouteLookup, type Surface } from './routes';
import {
  CSV_CONTENT_TYPE,
  csvColumns,
  csvOf,
  prefersCsv,
  rowTypeOf,
  TOTAL_COUNT_HEADER,
} from './csv';
import { textRefusal } from '../schema/inputLimits';
import { Response } from '../platform/fetchApi';
import type { AnswerCache, CachedAnswer } from './answerCache';

type GetEnveloped = Parameters<NonNullable<Plugin['onYogaInit']>>[0]['yoga']['getEnveloped'];

/** A route made ready once per schema: its operation, and what its answers need to know. */
interface PreparedRoute {
  route: RestRoute;
  /** The root field's name: the answer is `data[fieldName]`. */
  fieldName: string;
  document: DocumentNode;
  /** Arguments read from the query string or the body (path parameters are bound from the path). */
  args: readonly GraphQLArgument[];
  /** CSV column paths, for routes that offer CSV. */
  csvColumns?: string[][];
  /** The key type and scope the route's field declares. */
  auth: ReturnType<typeof keyAuthOf>;
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

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

/** The operation's variables: path parameters, and the query string (GET) or the body (POST). */
async function variablesOf(
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

/** A JSON answer with the record's headers and the route's own. */
function jsonAnswer(
  record: RequestRecord,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(body, {
    status,
    headers: { 'Content-Type': JSON_CONTENT_TYPE, ...record.answerHeaders, ...headers },
  });
}

/** Whether a GET of the route is answered in CSV (the route offers it and the client prefers it). */
function formOf(record: RequestRecord, prepared: PreparedRoute): 'csv' | 'json' {
  return prepared.csvColumns && prefersCsv(record.request.headers.get('accept')) ? 'csv' : 'json';
}

/** A GET answer's bytes in the negotiated form, with its ETag and the headers that describe it. */
function composeAnswer(prepared: PreparedRoute, form: 'csv' | 'json', data: unknown): CachedAnswer {
  const page = data as { data: unknown[]; meta?: { total: number } };
  const body = form === 'csv' ? csvOf(prepared.csvColumns!, page.data) : JSON.stringify(data);
  return {
    body,
    etag: entityTag(body),
    headers: {
      'Content-Type': form === 'csv' ? CSV_CONTENT_TYPE : JSON_CONTENT_TYPE,
      // Where a route answers two forms, a cache must keep them apart.
      ...(prepared.csvColumns && { Vary: 'Accept' }),
      ...(form === 'csv' && page.meta && { [TOTAL_COUNT_HEADER]: String(page.meta.total) }),
    },
  };
}

/** A GET's answer to this request: 304 when the client already holds the bytes. */
function sendAnswer(
  record: RequestRecord,
  answer: CachedAnswer,
  headers: Record<string, string>,
): Response {
  if (ifNoneMatchHolds(record.request.headers.get('if-none-match'), answer.etag)) {
    // What a 304 repeats of the 200 it stands for (RFC 9110 §15.4.5): Cache-Control, Vary, ETag.
    const vary = answer.headers.Vary;
    return new Response(null, {
      status: 304,
      headers: { ...record.answerHeaders, ...(vary && { Vary: vary }), ETag: answer.etag },
    });
  }
  return new Response(answer.body, {
    status: 200,
    headers: { ...answer.headers, ...record.answerHeaders, ...headers, ETag: answer.etag },
  });
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
  cache: AnswerCache | null,
  routes: readonly RestRoute[],
) {
  let schema: GraphQLSchema;
  let sofa: Sofa;
  let getEnveloped: GetEnveloped;
  const prepared = new Map<RestRoute, PreparedRoute>();

  /** Each route's operation, from Sofa, and what its answers need: once per schema. */
  function prepare(fullSchema: GraphQLSchema): void {
    sofa = createSofa(fullSchema, routes);
    schema = sofa.schema;
    prepared.clear();
    for (const route of routes) {
      const field = routeField(schema, route);
      prepared.set(route, {
        route,
        fieldName: field.name,
        document: sofa.operationOf(route),
        args: field.args.filter((arg) => !route.path.includes(`:${arg.name}`)),
        ...(route.csv && { csvColumns: csvColumns(rowTypeOf(field)) }),
        auth: keyAuthOf(field),
      });
    }
  }

  /**
   * The route's operation run in `contextValue`: the field's value, or its first error. Stopped at
   * the request's deadline by the app's cancellation plugin, which reads the context's record.
   */
  async function execute(
    route: PreparedRoute,
    contextValue: Context,
    variables: Record<string, unknown>,
  ): Promise<unknown> {
    const record = contextValue.http;
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

  /** A GET's answer: from the cache, or executed (and then kept in the cache). */
  async function readAnswer(
    record: RequestRecord,
    route: PreparedRoute,
    apiKey: VerifiedKey,
    rest: RestExecution,
  ): Promise<CachedAnswer> {
    const form = formOf(record, route);
    const question = { route: route.route.path, variables: rest.variables, form };
    const cached = await cache?.get(question, apiKey);
    if (cached) return cached;
    const answer = composeAnswer(route, form, await executeForKey(record, route, apiKey, rest));
    await cache?.set(question, apiKey, answer);
    return answer;
  }

  /** A POST's answer: 201 for what it made, 200 for what it found. */
  async function writeAnswer(
    record: RequestRecord,
    route: PreparedRoute,
    apiKey: VerifiedKey,
    rest: RestExecution,
  ): Promise<{ status: number; body: string }> {
    const data = await executeForKey(record, route, apiKey, rest);
    const status = rest.foundExisting ? 200 : (route.route.responseStatus ?? 200);
    return { status, body: JSON.stringify(data) };
  }

  /**
   * A POST's answer once per Idempotency-Key and request: a retry gets the recorded status and the
   * very same bytes. The resolver's refusals (a 400) are answers too, and recorded. A replay runs no
   * resolver, so the key is authorized first, as the route's scope check would: a key that has
   * lost the scope, or whose account is closed, is refused as a fresh request would be.
   */
  async function idempotentAnswer(
    record: RequestRecord,
    route: PreparedRoute,
    apiKey: VerifiedKey,
    rest: RestExecution,
    idempotencyKey: string,
  ): Promise<{ status: number; body: string; replayed: boolean }> {
    const refusal = accessRefusal(apiKey, route.auth);
    if (refusal) throw refusal;
    const { answer, replayed } = await runIdempotently(
      {
        scope: `api-key:${apiKey.id}`,
        key: parseIdempotencyKey(idempotencyKey),
        fingerprint: {
          route: `${route.route.method} ${route.route.path}`,
          variables: rest.variables,
        },
      },
      async () => {
        try {
          return await writeAnswer(record, route, apiKey, rest);
        } catch (error) {
          const refusal = toHttpError(error, record.log);
          return { status: refusal.status, body: JSON.stringify(errorBody(refusal, record.id)) };
        }
      },
    );
    // Answers recorded as JSON values rather than the bytes sent are written out again.
    const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    return { status: answer.status, body, replayed };
  }

  /** A POST's response, replayed when it carries an Idempotency-Key already answered. */
  async function writeResponse(
    record: RequestRecord,
    route: PreparedRoute,
    apiKey: VerifiedKey,
    rest: RestExecution,
    headers: Record<string, string>,
  ): Promise<Response> {
    const idempotencyKey = record.request.headers.get(IDEMPOTENCY_KEY_HEADER);
    if (idempotencyKey === null) {
      const { status, body } = await writeAnswer(record, route, apiKey, rest);
      return jsonAnswer(record, status, body, headers);
    }
    const written = await idempotentAnswer(record, route, apiKey, rest, idempotencyKey);
    return jsonAnswer(record, written.status, written.body, {
      ...headers,
      ...(written.replayed && { [IDEMPOTENT_REPLAYED_HEADER]: 'true' }),
    });
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
      const ignored =
        route.route.method === 'GET' ? ignoredParameters(route.args, record.url.searchParams) : [];
      const headers: Record<string, string> = ignored.length
        ? { [IGNORED_PARAMETERS_HEADER]: ignored.join(', ') }
        : {};
      if (route.route.method === 'POST') {
        return await writeResponse(record, route, apiKey, rest, headers);
      }
      return sendAnswer(record, await readAnswer(record, route, apiKey, rest), headers);
    } catch (error) {
      return errorResponse(toHttpError(error, record.log), record.id, record.answerHeaders);
    }
  }

  const plugin: Plugin<Context> = {
    onYogaInit({ yoga }) {
      getEnveloped = yoga.getEnveloped;
    },
    onSchemaChange({ schema: fullSchema }) {
      prepare(fullSchema);
    },
  };

  /** The OpenAPI document of the routes, from the Sofa that made their operations. */
  const openApiDocument = (settings: OpenApiSettings, fragments: readonly OpenApiFragment[]) =>
    buildOpenApiDocument(sofa, routes, fragments, settings);
  return { plugin, answer, runRoute, openApiDocument };
}

export type RestFacade = ReturnType<typeof createRestFacade>;
