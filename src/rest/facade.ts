// The REST facade: Sofa serves the route table's GraphQL fields at the contract's paths.
// Before Sofa, the facade answers what Sofa would get wrong: unknown paths and methods (contract
// error bodies instead of an empty 404), the key type of the surface (401 before any 400), the
// partner surface's refusal of dashboard credentials, strict query-string and JSON-body parsing,
// and `Idempotency-Key` replays on POST routes.
import { filterSchema, pruneSchema } from '@graphql-tools/utils';
import type { ExecutionArgs, GraphQLSchema } from 'graphql';
import type { Plugin, YogaInitialContext } from 'graphql-yoga';
import { useSofa } from 'sofa-api';
import { apiKeyOf } from '../auth/requestAuth';
import type { VerifiedKey } from '../auth/verifyApiKey';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  parseIdempotencyKey,
  runIdempotently,
} from '../idempotency';
import type { Context } from '../schema/context';
import {
  BadRequestError,
  errorResponse,
  MethodNotAllowedError,
  NotFoundError,
  shown,
  toApiError,
  UnauthorizedError,
} from '../errors';
import { parseJsonBody, variablesFromBody } from './body';
import { variablesFromQuery } from './queryParams';
import { lookupRoute, routeField, ROUTES, surfaceOf, type RestRoute } from './routes';
import { textRefusal } from '../schema/inputLimits';

type GetEnveloped = Parameters<NonNullable<Plugin['onYogaInit']>>[0]['yoga']['getEnveloped'];
type Enveloped = ReturnType<GetEnveloped>;

/** The schema Sofa sees: only the root fields of the route table, so no other field gets a route. */
export function restSchema(schema: GraphQLSchema): GraphQLSchema {
  const routed = new Set<string>(ROUTES.map((route) => route.field));
  return pruneSchema(
    filterSchema({
      schema,
      rootFieldFilter: (operation, fieldName) => routed.has(`${operation}.${fieldName}`),
    }),
  );
}

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

// A creation route answers its `responseStatus` (201); a resolver that found the thing already
// there says so here, and the facade answers 200 instead.
const foundExisting = new WeakSet<object>();

/** Marks this execution's answer as an existing resource: 200 rather than the route's 201. */
export function answerFoundExisting(context: object): void {
  foundExisting.add(context);
}

/** Whether a header was sent at all, even empty (the fetch adapter drops empty ones). */
function wasSent(request: Request, serverContext: Record<string, unknown>, name: string): boolean {
  const nodeHeaders = (serverContext.req as { headers?: Record<string, unknown> } | undefined)
    ?.headers;
  return request.headers.has(name) || (nodeHeaders !== undefined && name in nodeHeaders);
}

/** Checks a REST request up to the point Sofa takes over; returns the key and the variables. */
async function admitRestRequest(
  request: Request,
  serverContext: Record<string, unknown>,
  url: URL,
  route: RestRoute,
  rawParams: Record<string, string>,
  schema: GraphQLSchema,
): Promise<{ apiKey: VerifiedKey; variables: Record<string, unknown> }> {
  const surface = surfaceOf(url.pathname)!;
  const sent = (name: string) => wasSent(request, serverContext, name);
  if (surface.keyType === 'partner' && (sent('x-api-token') || sent('x-auth-key'))) {
    throw new BadRequestError(
      'The partner surface takes only x-api-key; do not send x-api-token or x-auth-key',
    );
  }
  const apiKey = await apiKeyOf(request);
  if (!apiKey || apiKey.type !== surface.keyType) throw new UnauthorizedError();
  const { args } = routeField(schema, route);
  // A POST takes its arguments from the body only; its query string is ignored like unknown
  // parameters are.
  const variables =
    route.method === 'POST'
      ? variablesFromBody(args, parseJsonBody(await request.text()))
      : variablesFromQuery(args, url.searchParams);
  return { apiKey, variables: { ...variables, ...decodePathParams(rawParams) } };
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
  return Response.json(answer.body, {
    status: answer.status,
    headers: replayed ? { [IDEMPOTENT_REPLAYED_HEADER]: 'true' } : {},
  });
}

/** A request the facade let through, as Sofa's context factory finds it. */
interface Admitted {
  /** The original request (Sofa sees a copy without query and body). */
  request: Request;
  variables: Record<string, unknown>;
  /** The execution's context, once made. */
  context?: object;
}

export function useRestFacade(): Plugin<Context> {
  let sofa: ReturnType<typeof useSofa>;
  let schema: GraphQLSchema;
  let getEnveloped: GetEnveloped;
  // Sofa gets a copy of the request without query or body, so its own parsing (qs, coercion)
  // finds nothing to trip on; the copy leads our context factory back to the original request
  // and to the facade's variables.
  const admittedBySofaRequest = new WeakMap<Request, Admitted>();
  const executionByContext = new WeakMap<
    object,
    { enveloped: Enveloped; variables: Record<string, unknown> }
  >();

  /** Sofa's answer to an admitted request; 200 when the resolver found what it would create. */
  async function answerThroughSofa(
    request: Request,
    url: URL,
    serverContext: Record<string, unknown>,
    variables: Record<string, unknown>,
  ): Promise<Response> {
    const sofaRequest = new Request(`${url.origin}${url.pathname}`, {
      // Sofa's router knows GET; a HEAD is answered as the GET (the edge drops the body).
      method: request.method === 'HEAD' ? 'GET' : request.method,
      headers: request.headers,
    });
    const admitted: Admitted = { request, variables };
    admittedBySofaRequest.set(sofaRequest, admitted);
    const response = await sofa.handleRequest(sofaRequest, serverContext);
    // The route table is Sofa's list of routes too; a miss here would be a bug.
    if (!response) throw new Error(`Sofa has no route for ${request.method} ${url.pathname}`);
    if (response.status === 201 && admitted.context && foundExisting.has(admitted.context)) {
      return new Response(response.body, { status: 200, headers: response.headers });
    }
    return response;
  }

  return {
    onYogaInit({ yoga }) {
      getEnveloped = yoga.getEnveloped;
    },
    onSchemaChange({ schema: fullSchema }) {
      schema = restSchema(fullSchema);
      sofa = useSofa({
        basePath: '',
        schema,
        routes: Object.fromEntries(
          ROUTES.map(({ field, method, path, responseStatus }) => [
            field,
            { method, path, responseStatus },
          ]),
        ),
        async context(serverContext: YogaInitialContext) {
          const admitted = admittedBySofaRequest.get(serverContext.request)!;
          const initialContext = { ...serverContext, request: admitted.request };
          const enveloped = getEnveloped(initialContext);
          const contextValue = await enveloped.contextFactory(initialContext);
          executionByContext.set(contextValue, { enveloped, variables: admitted.variables });
          admitted.context = contextValue;
          return contextValue;
        },
        // The facade's strictly parsed variables replace Sofa's.
        execute: ((args: ExecutionArgs) => {
          const execution = executionByContext.get(args.contextValue as object)!;
          return execution.enveloped.execute({ ...args, variableValues: execution.variables });
        }) as never,
        // Sofa types its answers as fets Responses; any fetch Response serves.
        // The first error decides the answer. (Sofa types its answers as fets Responses.)
        errorHandler: ((errors: readonly unknown[]) =>
          errorResponse(toApiError(errors[0]))) as never,
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
        const { apiKey, variables } = await admitRestRequest(
          request,
          serverContext,
          url,
          found.route,
          found.params,
          schema,
        );
        const answer = () => answerThroughSofa(request, url, serverContext, variables);
        const idempotencyKey = request.headers.get(IDEMPOTENCY_KEY_HEADER);
        endResponse(
          found.route.method === 'POST' && idempotencyKey !== null
            ? await idempotentResponse(idempotencyKey, apiKey, found.route, variables, answer)
            : await answer(),
        );
      } catch (error) {
        endResponse(errorResponse(toApiError(error)));
      }
    },
  };
}
