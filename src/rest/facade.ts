// The REST facade: Sofa serves the route table's GraphQL fields at the contract's paths.
// Before Sofa, the facade answers what Sofa would get wrong: unknown paths and methods (contract
// error bodies instead of an empty 404), the key type of the surface (401 before any 400), the
// partner surface's refusal of dashboard credentials, and strict query-string parsing.
import { filterSchema, pruneSchema } from '@graphql-tools/utils';
import type { ExecutionArgs, GraphQLSchema } from 'graphql';
import type { Plugin, YogaInitialContext } from 'graphql-yoga';
import { useSofa } from 'sofa-api';
import { apiKeyOf } from '../auth/requestAuth';
import type { Context } from '../schema/context';
import { ApiError, BadRequestError, NotFoundError, UnauthorizedError } from '../schema/errors';
import { errorResponse, restErrorHandler } from './errors';
import { variablesFromQuery } from './queryParams';
import { lookupRoute, ROUTES, surfaceOf, type RestRoute } from './routes';

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

function fieldOf(schema: GraphQLSchema, route: RestRoute) {
  const [operation, name] = route.field.split('.') as [string, string];
  const type = operation === 'Query' ? schema.getQueryType() : schema.getMutationType();
  return type!.getFields()[name]!;
}

function decodePathParams(params: Record<string, string>): Record<string, string> {
  try {
    return Object.fromEntries(
      Object.entries(params).map(([name, value]) => [name, decodeURIComponent(value)]),
    );
  } catch {
    throw new NotFoundError('Resource not found');
  }
}

/** Checks a REST request up to the point Sofa takes over; returns the field's variables. */
async function admitRestRequest(
  request: Request,
  url: URL,
  route: RestRoute,
  rawParams: Record<string, string>,
  schema: GraphQLSchema,
): Promise<Record<string, unknown>> {
  const surface = surfaceOf(url.pathname)!;
  if (
    surface.keyType === 'partner' &&
    (request.headers.has('x-api-token') || request.headers.has('x-auth-key'))
  ) {
    throw new BadRequestError(
      'The partner surface takes only x-api-key; do not send x-api-token or x-auth-key',
    );
  }
  const apiKey = await apiKeyOf(request);
  if (apiKey?.type !== surface.keyType) throw new UnauthorizedError();
  return {
    ...variablesFromQuery(fieldOf(schema, route).args, url.searchParams),
    ...decodePathParams(rawParams),
  };
}

export function useRestFacade(): Plugin<Context> {
  let sofa: ReturnType<typeof useSofa>;
  let schema: GraphQLSchema;
  let getEnveloped: GetEnveloped;
  // Sofa gets a copy of the request without query or body, so its own parsing (qs, coercion)
  // finds nothing to trip on; the copy leads our context factory back to the original request
  // and to the facade's variables.
  const admittedBySofaRequest = new WeakMap<
    Request,
    { request: Request; variables: Record<string, unknown> }
  >();
  const executionByContext = new WeakMap<
    object,
    { enveloped: Enveloped; variables: Record<string, unknown> }
  >();

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
          const { request, variables } = admittedBySofaRequest.get(serverContext.request)!;
          const initialContext = { ...serverContext, request };
          const enveloped = getEnveloped(initialContext);
          const contextValue = await enveloped.contextFactory(initialContext);
          executionByContext.set(contextValue, { enveloped, variables });
          return contextValue;
        },
        // The facade's strictly parsed variables replace Sofa's.
        execute: ((args: ExecutionArgs) => {
          const execution = executionByContext.get(args.contextValue as object)!;
          return execution.enveloped.execute({ ...args, variableValues: execution.variables });
        }) as never,
        // Sofa types its answers as fets Responses; any fetch Response serves.
        errorHandler: restErrorHandler as never,
      });
    },
    async onRequest({ request, url, serverContext, endResponse }) {
      if (!surfaceOf(url.pathname)) return;
      const found = lookupRoute(request.method, url.pathname);
      if (found.kind === 'not-found') {
        endResponse(errorResponse(new NotFoundError(`No route ${request.method} ${url.pathname}`)));
        return;
      }
      if (found.kind === 'method-not-allowed') {
        endResponse(
          errorResponse(
            new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed here`),
            {
              Allow: found.allow.join(', '),
            },
          ),
        );
        return;
      }
      try {
        const variables = await admitRestRequest(request, url, found.route, found.params, schema);
        const sofaRequest = new Request(`${url.origin}${url.pathname}`, {
          method: request.method,
          headers: request.headers,
        });
        admittedBySofaRequest.set(sofaRequest, { request, variables });
        const response = await sofa.handleRequest(sofaRequest, serverContext);
        if (response) endResponse(response);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        endResponse(errorResponse(error));
      }
    },
  };
}
