// The HTTP edge: every request comes in here. It makes the request's record once (id, client
// address, route, credentials verified at most once, the answer's headers) and hands it down.
// Order, for every route:
//   (a trace span, when tracing is on) record -> CORS preflight -> /healthz, /readyz, /metrics
//   -> deadline { /s/{code} redirect (public, no key, no body) | quota (one count per HTTP request,
//   before any parsing) -> payload limit -> the REST facade (paths under a surface) or yoga
//   (/graphql, the reference, anything else) } -> HEAD without body -> metrics and access log.
// The edge is a handler around yoga rather than yoga plugins because the deadline wraps the whole
// request. Every answer the service builds carries the record's headers from the start; yoga's
// answers get them here.
import type { ApiKeys } from '../auth/verifyApiKey';
import { raceDeadline, withDeadline } from '../platform/deadline';
import {
  errorResponse,
  PayloadTooLargeError,
  RequestTimeoutError,
  toHttpError,
} from '../platform/errors';
import { Headers, Response } from '../platform/fetchApi';
import { checkBody, type BodyCheck } from '../limits/bodyLimit';
import type { Counters } from '../limits/counters';
import { RequestQuota, type QuotaSettings } from '../limits/requestQuota';
import type { RedisClient } from '../platform/redis';
import { RequestRecord } from '../requestRecord';
import { requestIdOf } from '../platform/requestId';
import type { RestFacade } from '../rest/facade';
import { DOCS_PATH, isReferencePath, OPENAPI_PATH } from '../rest/openapi';
import { routeTemplate, type RouteLookup, type RouteTable } from '../rest/routes';
import { requestTracer } from '../platform/tracing';
import { recordAnswer } from './accessLog';
import { quotaRefusal } from './admission';
import type { TrustProxy } from '../platform/trustProxy';
import { clientIpOf } from './clientIp';
import { corsHeaders, preflightResponse, type CorsSettings } from './cors';
import { healthResponse, HEALTH_PATHS } from './health';
import { deprecationHeaders, isLegacyHost, type LegacyHostSettings } from './legacyHost';
import { METRICS_PATH, metricsResponse, type MetricsSettings } from './metricsEndpoint';
import { inSpan } from './requestSpan';

export interface EdgeSettings
  extends QuotaSettings, LegacyHostSettings, CorsSettings, MetricsSettings {
  trustProxy: TrustProxy;
  maxBodyBytes: number;
  requestTimeoutMs: number;
}

/** What the edge needs of yoga: its request handler, its endpoint and its fetch implementation. */
export interface YogaHandler {
  /** Where GraphQL is served, as the app set it. */
  graphqlEndpoint: string;
  handleRequest(
    request: Request,
    serverContext: Record<string, unknown>,
  ): Promise<Response> | Response;
  fetchAPI: { Request: typeof Request; TransformStream: typeof TransformStream };
}

/**
 * A public path a feature answers at the edge (the short-link redirect): no key, no quota, no body,
 * no GraphQL; within the deadline.
 */
export interface EdgeRoute {
  prefix: string;
  /** The route as logs, metrics and traces name it. */
  template: string;
  answer(record: RequestRecord): Promise<Response>;
}

/** Who answers what the edge lets through. */
export interface EdgeHandlers {
  /** The REST routes, looked up here once for the facade, the logs, metrics and traces. */
  routes: Pick<RouteTable, 'lookup'>;
  /** Every path under a REST surface. */
  rest: Pick<RestFacade, 'answer'>;
  /** The features' public paths. */
  edgeRoutes: readonly EdgeRoute[];
  /** /graphql, the API reference and paths nobody serves. */
  yoga: YogaHandler;
}

export type EdgeHandler = (
  request: Request,
  serverContext: Record<string, unknown>,
) => Promise<Response>;

/** Where a request goes: a REST route under a surface, a feature's edge route, or a fixed path. */
interface Destination {
  lookup: RouteLookup | null;
  edgeRoute: EdgeRoute | null;
  template: string | null;
}

/**
 * What every answer carries: no content sniffing (a JSON error echoing input is never HTML), and,
 * when the service is published over https, HSTS, so a browser never tries it in clear again.
 */
function securityHeaders(publicBaseUrl: string): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    ...(publicBaseUrl.startsWith('https://') && {
      'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
    }),
  };
}

/**
 * An answer to a request carrying a key or a dashboard token is that caller's alone: no shared
 * cache may keep it (one affiliate's earnings served to another from a URL-keyed cache).
 */
function carriesCredentials(request: Request): boolean {
  return request.headers.has('x-api-key') || request.headers.has('x-api-token');
}

/**
 * 413 before the body was read to its end: the connection closes with the answer (RFC 9110 15.5.14),
 * so a client does not send its next request after bytes nobody will read.
 */
function bodyRefused(record: RequestRecord, maxBytes: number): Response {
  return errorResponse(new PayloadTooLargeError(maxBytes), record.id, {
    ...record.answerHeaders,
    Connection: 'close',
  });
}

/** yoga's answer with the record's headers: copied into headers of the edge's own. */
function withRecordHeaders(record: RequestRecord, response: Response): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(record.answerHeaders)) {
    if (name !== 'Cache-Control' || !headers.has(name)) headers.set(name, value);
  }
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/** What the edge shares with the rest of the app: key verification, the limits' counters, Redis. */
export interface EdgeShared {
  keys: ApiKeys;
  counters: Counters;
  redis: RedisClient | null;
}

export function createEdge(
  handlers: EdgeHandlers,
  settings: EdgeSettings,
  { keys, counters, redis }: EdgeShared,
): EdgeHandler {
  const quota = new RequestQuota(settings, counters);
  /** Paths answered outside the route table, logged as they are. */
  const fixedPaths = new Set([
    handlers.yoga.graphqlEndpoint,
    ...HEALTH_PATHS,
    METRICS_PATH,
    OPENAPI_PATH,
    DOCS_PATH,
  ]);

  function destinationOf(method: string, pathname: string): Destination {
    const lookup = handlers.routes.lookup(method, pathname);
    if (lookup) return { lookup, edgeRoute: null, template: routeTemplate(lookup) };
    const edgeRoute = handlers.edgeRoutes.find((route) => pathname.startsWith(route.prefix));
    if (edgeRoute) return { lookup: null, edgeRoute, template: edgeRoute.template };
    return { lookup: null, edgeRoute: null, template: fixedPaths.has(pathname) ? pathname : null };
  }
  const security = securityHeaders(settings.publicBaseUrl);
  const { Request: YogaRequest, TransformStream: YogaTransformStream } = handlers.yoga.fetchAPI;

  /** The request for yoga: the client's own, or, with a body, one whose body is counted. */
  function yogaRequest(request: Request, body: ReadableStream<Uint8Array> | null): Request {
    if (!body) return request;
    return new YogaRequest(request.url, {
      method: request.method,
      headers: request.headers,
      body,
      duplex: 'half',
    } as RequestInit);
  }

  /**
   * The quota (the API reference is public like the probes), the payload limit and the request's
   * handler: everything within the deadline.
   */
  async function admitAndHandle(
    record: RequestRecord,
    lookup: RouteLookup | null,
    serverContext: Record<string, unknown>,
  ): Promise<Response> {
    if (!isReferencePath(record.url.pathname)) {
      const refusal = await quotaRefusal(quota, record);
      if (refusal) return refusal;
    }
    const body: BodyCheck = checkBody(record.request, settings.maxBodyBytes, YogaTransformStream);
    if (body.kind === 'too-large') return bodyRefused(record, settings.maxBodyBytes);

    try {
      const response = lookup
        ? await handlers.rest.answer(record, lookup, body.body)
        : withRecordHeaders(
            record,
            await handlers.yoga.handleRequest(yogaRequest(record.request, body.body), {
              ...serverContext,
              record,
            }),
          );
      if (!body.exceeded()) return response;
      await response.body?.cancel().catch(() => undefined);
    } catch (error) {
      if (!body.exceeded()) throw error;
    }
    // Whoever read the body saw it cut off; the answer is the limit, whatever they made of it.
    return bodyRefused(record, settings.maxBodyBytes);
  }

  /** The answer, within the deadline where the route has one. */
  async function answer(
    record: RequestRecord,
    { lookup, edgeRoute }: Destination,
    serverContext: Record<string, unknown>,
  ): Promise<Response> {
    const { request } = record;
    if (request.method === 'OPTIONS') return preflightResponse(record);
    const probe =
      (await healthResponse(record, redis)) ?? (await metricsResponse(record, settings, redis));
    if (probe) return probe;
    const outcome = edgeRoute
      ? await raceDeadline(settings.requestTimeoutMs, edgeRoute.answer(record))
      : await withDeadline(
          settings.requestTimeoutMs,
          request.signal,
          (reason) => record.stop(reason),
          () => admitAndHandle(record, lookup, serverContext),
        );
    if (outcome.kind === 'done') return outcome.value;
    record.log.warn({ timeoutMs: settings.requestTimeoutMs }, 'request timed out');
    const timeout = new RequestTimeoutError(settings.requestTimeoutMs);
    return errorResponse(timeout, record.id, record.answerHeaders);
  }

  /** The answer to a request, its record made: headers, then the answer, then metrics and log. */
  async function serve(
    record: RequestRecord,
    destination: Destination,
    serverContext: Record<string, unknown>,
    started: number,
  ): Promise<Response> {
    const { request, url } = record;
    Object.assign(
      record.answerHeaders,
      security,
      isLegacyHost(url, settings.legacyHosts) && deprecationHeaders(settings),
      corsHeaders(request, settings),
      carriesCredentials(request) && { 'Cache-Control': 'no-store' },
    );
    let response: Response;
    try {
      response = await answer(record, destination, serverContext);
    } catch (error) {
      // A database outage met by the quota's key check is a 503; anything else a logged 500.
      const failure = toHttpError(error, record.log);
      response = errorResponse(failure, record.id, record.answerHeaders);
    }
    // HEAD is answered as GET, without the body (RFC 9110).
    if (request.method === 'HEAD') {
      response = new Response(null, { status: response.status, headers: response.headers });
    }
    await recordAnswer(record, response.status, started);
    return response;
  }

  const tracer = requestTracer();
  return async (request, serverContext) => {
    const started = performance.now();
    const url = new URL(request.url);
    const destination = destinationOf(request.method, url.pathname);
    const record = new RequestRecord({
      request,
      url,
      id: requestIdOf(request),
      clientIp: clientIpOf(request, serverContext, settings.trustProxy),
      route: destination.template,
      rawHeaders: (serverContext.req as { headers?: Record<string, unknown> } | undefined)?.headers,
      keys,
    });
    const work = () => serve(record, destination, serverContext, started);
    return tracer ? inSpan(tracer, record, work) : work();
  };
}
