// Cross-origin access for browser integrations (a dashboard or a partner's page calling the API
// with its own key). No cookies are used, so credentials are never allowed; an origin gets access
// when CORS_ORIGINS allows every origin (`*`, the default) or names it. Preflights (OPTIONS) are
// answered here, before the quota and before any route.
import { Response } from '../platform/fetchApi';
import type { RequestRecord } from '../requestRecord';

export interface CorsSettings {
  /** `['*']` for every origin, else the exact origins allowed (scheme, host and port). */
  corsOrigins: readonly string[];
}

/** What a browser may send and read. */
const ALLOWED_HEADERS = [
  'accept',
  'content-type',
  'idempotency-key',
  'x-api-key',
  'x-api-token',
  'x-request-id',
];
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'Idempotent-Replayed',
  'X-Ignored-Parameters',
  'Deprecation',
  'Sunset',
  'Link',
];
/** How long a browser may keep a preflight's answer. */
const PREFLIGHT_MAX_AGE_S = 600;

/** The CORS fields of an answer to `request`; none for a request without an allowed Origin. */
export function corsHeaders(
  request: Request,
  { corsOrigins }: CorsSettings,
): Record<string, string> {
  const origin = request.headers.get('origin');
  if (origin === null) return {};
  if (corsOrigins.includes('*')) {
    return {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(', '),
    };
  }
  if (!corsOrigins.includes(origin)) return { Vary: 'Origin' };
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(', '),
    Vary: 'Origin',
  };
}

/**
 * The answer to a preflight: 204, and what the origin may do if it may do anything. The record's
 * headers already hold the request's CORS fields (corsHeaders): each is written once.
 */
export function preflightResponse(record: RequestRecord): Response {
  const allowed = record.answerHeaders['Access-Control-Allow-Origin'] !== undefined;
  return new Response(null, {
    status: 204,
    headers: {
      ...record.answerHeaders,
      ...(allowed && {
        'Access-Control-Allow-Methods': 'GET, HEAD, POST',
        'Access-Control-Allow-Headers': ALLOWED_HEADERS.join(', '),
        'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_S),
      }),
      'Content-Length': '0',
    },
  });
}
