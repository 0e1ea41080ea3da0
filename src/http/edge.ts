// The HTTP edge: what every request goes through before and after the GraphQL server (yoga with
// the REST facade). It is a handler around yoga rather than yoga plugins because the deadline has
// to wrap the whole request, and the REST facade answers inside its own `onRequest` hook, which no
// earlier yoga hook can wrap. Order, for every route, REST and GraphQL alike:
//   (a trace span, when tracing is on) request id -> CORS preflight -> /healthz, /readyz, /metrics
//   -> deadline { /s/{code} redirect (public, no key, no body) | quota (one count per HTTP request,
//   before any parsing) -> payload limit -> yoga } -> response headers (request id, quota,
//   deprecation, CORS, no-store) -> HEAD without body -> metrics and access log.
// The redirect is the hottest route and needs nothing of yoga, so it is answered here.
import { presentedCredentials, rememberClientIp, verifiedIdentityOf } from '../auth/requestAuth';
import { routeTemplateOf } from '../rest/routes';
import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { requestTracer } from '../tracing';
import { REDIRECT_PREFIX, redirectResponse } from '../shortLinks/redirect';
import {
  errorResponse,
  PayloadTooLargeError,
  RequestTimeoutError,
  toHttpError,
  TooManyRequestsError,
  withHeaders,
} from '../errors';
import { logger } from '../logger';
import { checkBody } from '../limits/bodyLimit';
import { clientIpOf } from './clientIp';
import {
  rateLimitHeaders,
  RequestQuota,
  retryAfterSeconds,
  type QuotaSettings,
} from '../limits/rateLimit';
import type { RedisClient } from '../redis';
import { raceDeadline, withDeadline } from '../deadline';
import { corsHeaders, preflightResponse, type CorsSettings } from './cors';
import { healthResponse } from './health';
import { METRICS_PATH, metricsResponse, type MetricsSettings } from './metricsEndpoint';
import { httpRequestDuration, httpRequests, quotaRefusals } from '../metrics';
import { deprecationHeaders, isLegacyHost, type LegacyHostSettings } from './legacyHost';
import { requestIdOf, runWithRequestId } from '../requestId';
import { Response } from '../fetchApi';

export interface EdgeSettings
  extends QuotaSettings, LegacyHostSettings, CorsSettings, MetricsSettings {
  trustProxy: boolean;
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

export type EdgeHandler = (
  request: Request,
  serverContext: Record<string, unknown>,
) => Promise<Response>;

const CLIENT_CLOSED_REQUEST = 499;

/**
 * 413 before the body was read to its end: the connection closes with the answer (RFC 9110 15.5.14),
 * so a client does not send its next request after bytes nobody will read.
 */
function bodyRefused(maxBytes: number): Response {
  const response = errorResponse(new PayloadTooLargeError(maxBytes));
  response.headers.set('Connection', 'close');
  return response;
}

export function createEdge(yoga: YogaHandler, settings: EdgeSettings, redis: RedisClient | null) {
  const quota = new RequestQuota(settings, redis);
  const { Request: YogaRequest, TransformStream: YogaTransformStream } = yoga.fetchAPI;

  /**
   * Everything within the deadline; `answerHeaders` collects the quota fields as they are known,
   * and `served.request` is the request yoga got (authenticated on it, so the log finds who it was).
   */
  async function admitAndHandle(
    request: Request,
    serverContext: Record<string, unknown>,
    clientIp: string,
    signal: AbortSignal,
    answerHeaders: Record<string, string>,
    served: { request?: Request },
  ): Promise<Response> {
    const body = checkBody(request, settings.maxBodyBytes, YogaTransformStream);
    // yoga gets a request whose body is counted and whose signal fires at the deadline or when the
    // client goes away; the quota authenticates this same request, so the facade finds the key
    // already verified.
    const forwarded = new YogaRequest(request.url, {
      method: request.method,
      headers: request.headers,
      body: body.kind === 'ok' ? body.body : null,
      signal,
      duplex: 'half',
    } as RequestInit);
    served.request = forwarded;

    // Key usage (lastUsedIp) and the key audit trail record the address the quota counts against.
    rememberClientIp(forwarded, clientIp);
    const admission = await quota.admit(presentedCredentials(forwarded), clientIp);
    if (admission.kind === 'counted') {
      Object.assign(answerHeaders, rateLimitHeaders(admission.decision));
      if (!admission.decision.allowed) {
        quotaRefusals.inc({ limit: admission.decision.policy.name });
        return errorResponse(new TooManyRequestsError(retryAfterSeconds(admission.decision)));
      }
    }
    if (body.kind === 'too-large') return bodyRefused(settings.maxBodyBytes);

    try {
      const response = await yoga.handleRequest(forwarded, serverContext);
      if (!body.exceeded()) return response;
      await response.body?.cancel().catch(() => undefined);
    } catch (error) {
      if (!body.exceeded()) throw error;
    }
    // Whoever read the body saw it cut off; the answer is the limit, whatever they made of it.
    return bodyRefused(settings.maxBodyBytes);
  }

  const handle: EdgeHandler = async (request, serverContext) => {
    const started = performance.now();
    const url = new URL(request.url);
    const requestId = requestIdOf(request);
    const clientIp = clientIpOf(request, serverContext, settings.trustProxy);
    const answerHeaders: Record<string, string> = { 'X-Request-Id': requestId };
    const served: { request?: Request } = {};
    if (isLegacyHost(url, settings.legacyHosts)) {
      Object.assign(answerHeaders, deprecationHeaders(settings));
    }

    let response: Response;
    try {
      response = await runWithRequestId(requestId, async () => {
        if (request.method === 'OPTIONS') return preflightResponse(request, settings);
        const probe =
          (await healthResponse(url, redis)) ??
          (await metricsResponse(request, url, settings, redis));
        if (probe) return probe;
        const outcome = url.pathname.startsWith(REDIRECT_PREFIX)
          ? await raceDeadline(
              settings.requestTimeoutMs,
              redirectResponse(request, url.pathname, clientIp),
            )
          : await withDeadline(settings.requestTimeoutMs, request.signal, (signal) =>
              admitAndHandle(request, serverContext, clientIp, signal, answerHeaders, served),
            );
        if (outcome.kind === 'done') return outcome.value;
        logger.warn({ timeoutMs: settings.requestTimeoutMs }, 'request timed out');
        return errorResponse(new RequestTimeoutError(settings.requestTimeoutMs));
      });
    } catch (error) {
      // A database outage met by the quota's key check is a 503; anything else a logged 500.
      response = runWithRequestId(requestId, () => errorResponse(toHttpError(error)));
    }
    // Nobody reads the answer to a request its client abandoned: logged as what it is.
    const clientClosed = request.signal.aborted;
    response = withHeaders(response, {
      ...answerHeaders,
      ...corsHeaders(request, settings),
      ...(carriesCredentials(request) &&
        !response.headers.has('cache-control') && { 'Cache-Control': 'no-store' }),
    });
    // HEAD is answered as GET, without the body (RFC 9110).
    if (request.method === 'HEAD') {
      response = new Response(null, { status: response.status, headers: response.headers });
    }
    const route = routeOf(request.method, url.pathname);
    // nginx's 499: the client closed the connection before the answer.
    const status = clientClosed ? CLIENT_CLOSED_REQUEST : response.status;
    const seconds = (performance.now() - started) / 1000;
    const labels = {
      method: LABELLED_METHODS.has(request.method) ? request.method : 'OTHER',
      route: route ?? 'unmatched',
    };
    httpRequests.inc({ ...labels, status });
    httpRequestDuration.observe(labels, seconds);
    logger.info(
      {
        requestId,
        method: request.method,
        path: url.pathname,
        route,
        status,
        durationMs: Math.round(seconds * 10_000) / 10,
        ...(served.request && (await verifiedIdentityOf(served.request))),
        clientIp,
        userAgent: request.headers.get('user-agent')?.slice(0, USER_AGENT_LOGGED) ?? null,
      },
      clientClosed ? 'request abandoned by the client' : 'request',
    );
    return response;
  };
  const tracer = requestTracer();
  return tracer ? traced(tracer, handle) : handle;
}

/** `handle` inside a server span named by the request's route template. */
function traced(tracer: Tracer, handle: EdgeHandler): EdgeHandler {
  return (request, serverContext) => {
    const { pathname } = new URL(request.url);
    const route = routeOf(request.method, pathname) ?? 'unmatched';
    const attributes = {
      'http.request.method': request.method,
      'http.route': route,
      'url.path': pathname,
    };
    return tracer.startActiveSpan(
      `${request.method} ${route}`,
      { kind: SpanKind.SERVER, attributes },
      async (span) => {
        try {
          const response = await handle(request, serverContext);
          span.setAttribute('http.response.status_code', response.status);
          if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          return response;
        } finally {
          span.end();
        }
      },
    );
  };
}

/** Paths answered outside the route table, logged as they are. */
const FIXED_PATHS = new Set([
  '/graphql',
  '/healthz',
  '/readyz',
  METRICS_PATH,
  '/openapi.json',
  '/docs',
]);

/** Methods that are metric labels as they are; any other is `OTHER` (labels must stay few). */
const LABELLED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** How much of a user agent the access log keeps. */
const USER_AGENT_LOGGED = 256;

/** The route a request took, as a template (ids out, so lines group by route); null when none. */
function routeOf(method: string, pathname: string): string | null {
  if (pathname.startsWith(REDIRECT_PREFIX)) return `${REDIRECT_PREFIX}{code}`;
  if (FIXED_PATHS.has(pathname)) return pathname;
  return routeTemplateOf(method, pathname);
}

/**
 * An answer to a request carrying a key or a dashboard token is that caller's alone: no shared
 * cache may keep it (one affiliate's earnings served to another from a URL-keyed cache).
 */
function carriesCredentials(request: Request): boolean {
  return request.headers.has('x-api-key') || request.headers.has('x-api-token');
}
