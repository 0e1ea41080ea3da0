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
import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { keyStanding } from '../auth/verifyApiKey';
import { raceDeadline, withDeadline } from '../platform/deadline';
import {
  errorResponse,
  PayloadTooLargeError,
  RequestTimeoutError,
  toHttpError,
  TooManyRequestsError,
} from '../platform/errors';
import { Headers, Response } from '../platform/fetchApi';
import { checkBody, type BodyCheck } from '../limits/bodyLimit';
import type { Counters } from '../limits/counters';
import {
  rateLimitHeaders,
  RequestQuota,
  retryAfterSeconds,
  type PresentedCredentials,
  type QuotaSettings,
} from '../limits/rateLimit';
import { logger } from '../platform/logger';
import { httpRequestDuration, httpRequests, quotaRefusals } from '../platform/metrics';
import type { RedisClient } from '../platform/redis';
import { RequestRecord } from '../requestRecord';
import { requestIdOf } from '../platform/requestId';
import type { RestFacade } from '../rest/facade';
import { isReferencePath } from '../rest/openapi';
import { routeTemplate, type RouteLookup, type RouteTable } from '../rest/routes';
import { requestTracer } from '../platform/tracing';
import type { TrustProxy } from '../platform/trustProxy';
import { clientIpOf } from './clientIp';
import { corsHeaders, preflightResponse, type CorsSettings } from './cors';
import { healthResponse, HEALTH_PATHS } from './health';
import { deprecationHeaders, isLegacyHost, type LegacyHostSettings } from './legacyHost';
import { METRICS_PATH, metricsResponse, type MetricsSettings } from './metricsEndpoint';

export interface EdgeSettings
  extends QuotaSettings, LegacyHostSettings, CorsSettings, MetricsSettings {
  trustProxy: TrustProxy;
  maxBodyBytes: number;
  requestTimeoutMs: number;
}

/** What the edge needs of yoga: its request handler and its fetch implementation. */
export interface YogaHandler {
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

const CLIENT_CLOSED_REQUEST = 499;

/** Paths answered outside the route table, logged as they are. */
const FIXED_PATHS = new Set(['/graphql', ...HEALTH_PATHS, METRICS_PATH, '/openapi.json', '/docs']);

/** Methods that are metric labels as they are; any other is `OTHER` (labels must stay few). */
const LABELLED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** How much of a user agent the access log keeps. */
const USER_AGENT_LOGGED = 256;

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
export function securityHeaders(publicBaseUrl: string): Record<string, string> {
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

/** What the request presents to the quota: its key (how far it is trusted before a lookup). */
function presentedCredentials(record: RequestRecord): PresentedCredentials {
  const key = record.request.headers.get('x-api-key');
  return {
    key:
      key === null
        ? null
        : {
            ...keyStanding(key),
            verify: async () => (await record.apiKey())?.id ?? null,
          },
    token: record.request.headers.has('x-api-token')
      ? {
          verify: async () => {
            const token = await record.dashboardToken();
            return 'userId' in token ? token.userId : null;
          },
        }
      : null,
  };
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

/** What the edge shares with the rest of the app: the limits' counters, and Redis for readiness. */
export interface EdgeShared {
  counters: Counters;
  redis: RedisClient | null;
}

export function createEdge(
  handlers: EdgeHandlers,
  settings: EdgeSettings,
  { counters, redis }: EdgeShared,
): EdgeHandler {
  const quota = new RequestQuota(settings, counters);

  function destinationOf(method: string, pathname: string): Destination {
    const lookup = handlers.routes.lookup(method, pathname);
    if (lookup) return { lookup, edgeRoute: null, template: routeTemplate(lookup) };
    const edgeRoute = handlers.edgeRoutes.find((route) => pathname.startsWith(route.prefix));
    if (edgeRoute) return { lookup: null, edgeRoute, template: edgeRoute.template };
    return { lookup: null, edgeRoute: null, template: FIXED_PATHS.has(pathname) ? pathname : null };
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
      const decision = await quota.admit(presentedCredentials(record), record.clientIp);
      Object.assign(record.answerHeaders, rateLimitHeaders(decision));
      if (!decision.allowed) {
        quotaRefusals.inc({ limit: decision.policy.name });
        const refusal = new TooManyRequestsError(retryAfterSeconds(decision));
        return errorResponse(refusal, record.id, record.answerHeaders);
      }
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
    // Nobody reads the answer to a request its client abandoned: logged as what it is.
    const clientClosed = request.signal.aborted;
    // HEAD is answered as GET, without the body (RFC 9110).
    if (request.method === 'HEAD') {
      response = new Response(null, { status: response.status, headers: response.headers });
    }
    // nginx's 499: the client closed the connection before the answer.
    const status = clientClosed ? CLIENT_CLOSED_REQUEST : response.status;
    const seconds = (performance.now() - started) / 1000;
    const labels = {
      method: LABELLED_METHODS.has(request.method) ? request.method : 'OTHER',
      route: record.route ?? 'unmatched',
    };
    httpRequests.inc({ ...labels, status });
    httpRequestDuration.observe(labels, seconds);
    if (logger.isLevelEnabled('info')) {
      logger.info(
        {
          requestId: record.id,
          method: request.method,
          path: url.pathname,
          route: record.route,
          status,
          durationMs: Math.round(seconds * 10_000) / 10,
          ...(await record.verifiedIdentity()),
          clientIp: record.clientIp,
          userAgent: request.headers.get('user-agent')?.slice(0, USER_AGENT_LOGGED) ?? null,
        },
        clientClosed ? 'request abandoned by the client' : 'request',
      );
    }
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
    });
    const work = () => serve(record, destination, serverContext, started);
    return tracer ? inSpan(tracer, record, work) : work();
  };
}

/** `work` inside a server span named by the request's route template. */
function inSpan(
  tracer: Tracer,
  record: RequestRecord,
  work: () => Promise<Response>,
): Promise<Response> {
  const route = record.route ?? 'unmatched';
  const attributes = {
    'http.request.method': record.request.method,
    'http.route': route,
    'url.path': record.url.pathname,
  };
  return tracer.startActiveSpan(
    `${record.request.method} ${route}`,
    { kind: SpanKind.SERVER, attributes },
    async (span) => {
      try {
        const response = await work();
        span.setAttribute('http.response.status_code', response.status);
        if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        return response;
      } finally {
        span.end();
      }
    },
  );
}
