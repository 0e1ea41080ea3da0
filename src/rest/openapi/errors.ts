// Error statuses and bodies, and the response headers (request id, quota, Retry-After,
// Idempotent-Replayed), as components the operations refer to.
import type { GraphQLField } from 'graphql';
import { HTTP_STATUS_BY_CODE } from '../../platform/errors';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '../../platform/idempotency';
import { FAILED_AUTH_LIMIT } from '../../limits/requestQuota';
import { IGNORED_PARAMETERS_HEADER } from '../queryParams';
import { TOTAL_COUNT_HEADER } from '../csv';
import { surfaceOf, type RestRoute } from '../routes';
import { ref, type Json } from './json';

/** The settings the error texts state: the payload limit and the request deadline. */
export interface ErrorLimits {
  maxBodyBytes: number;
  requestTimeoutMs: number;
}

/** A byte count as the reference states it: `1 MB` for 1 MiB. */
export const inMegabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** Failed authentications from one client address: then 429, whatever the key. */
const FAILED_AUTH = `${FAILED_AUTH_LIMIT.max} per ${FAILED_AUTH_LIMIT.windowSeconds} s per client address`;

export const ERROR_RESPONSES = {
  400: { name: 'BadRequest', description: 'Invalid parameter or body; the message names it' },
  401: {
    name: 'Unauthorized',
    description: `x-api-key missing, malformed, unknown, revoked or expired, or of the other type. Failed authentications are limited to ${FAILED_AUTH}; beyond that, 429.`,
  },
  403: { name: 'Forbidden', description: 'The key lacks the scope of the route' },
  404: { name: 'NotFound', description: "No such resource (or the key's affiliate is gone)" },
  409: {
    name: 'Conflict',
    description: `${IDEMPOTENCY_KEY_HEADER} reused with another request, or still in progress`,
  },
  410: { name: 'Gone', description: 'The route was removed; the message names its successor' },
  413: {
    name: 'PayloadTooLarge',
    description: (limits: ErrorLimits) => `The body exceeds ${inMegabytes(limits.maxBodyBytes)}`,
  },
  429: {
    name: 'TooManyRequests',
    description: `Retry after \`Retry-After\` seconds. \`RateLimit-Policy\` names the limit: \`"requests"\`, the quota per key and client address, or \`"failed-auth"\`, the failed authentications from the client address (${FAILED_AUTH}), which answer 429 whatever key comes next.`,
  },
  500: { name: 'InternalServerError', description: 'Server error (no details are disclosed)' },
  503: {
    name: 'ServiceUnavailable',
    description:
      'The database is unreachable for the moment; retry after `Retry-After` seconds (the replica recovers by itself)',
  },
  504: {
    name: 'RequestTimeout',
    description: (limits: ErrorLimits) =>
      `The request ran past the deadline (${limits.requestTimeoutMs / 1000} s)`,
  },
} as const;

type ErrorStatus = keyof typeof ERROR_RESPONSES;

const QUOTA_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
] as const;

export function headerComponents(): Record<string, Json> {
  const integer = { type: 'integer', minimum: 0 };
  // The numbers of this deployment's quota are in info.description; these texts stay the same
  // everywhere, so the generated client does not change with the configuration.
  const quota = 'Sent on every response to a request carrying x-api-key, errors included.';
  return {
    'X-Request-Id': {
      description:
        "The request id (the client's own `X-Request-Id` when valid); also in error bodies",
      schema: { type: 'string' },
    },
    ETag: {
      description:
        'The entity tag of the answer (a digest of the body): send it as `If-None-Match` to be answered 304 while the answer is the same',
      schema: { type: 'string' },
    },
    'X-RateLimit-Limit': { description: `Requests allowed per window. ${quota}`, schema: integer },
    'X-RateLimit-Remaining': {
      description: `Requests left in the window. ${quota}`,
      schema: integer,
    },
    'X-RateLimit-Reset': {
      description: `Unix time (seconds) at which the window resets. ${quota}`,
      schema: integer,
    },
    RateLimit: {
      description: `IETF draft field: \`"policy";r=<remaining>;t=<seconds to reset>\`. ${quota}`,
      schema: { type: 'string' },
    },
    'RateLimit-Policy': {
      description: `IETF draft field: \`"policy";q=<max>;w=<window seconds>\`. ${quota}`,
      schema: { type: 'string' },
    },
    'Retry-After': {
      description: 'Seconds to wait before retrying',
      required: true,
      schema: { type: 'integer', minimum: 1 },
    },
    [IGNORED_PARAMETERS_HEADER]: {
      description:
        'The query parameters the route ignored because it takes none of that name (a misspelled filter filters nothing), comma-separated',
      schema: { type: 'string' },
    },
    [TOTAL_COUNT_HEADER]: {
      description:
        'On a CSV answer (`Accept: text/csv`), which has no envelope: the rows in all pages (`meta.total`)',
      schema: { type: 'integer' },
    },
    Vary: {
      description: '`Accept`: the route answers JSON or CSV as the client asks',
      schema: { type: 'string' },
    },
    [IDEMPOTENT_REPLAYED_HEADER]: {
      description: `\`true\` when the answer is the recorded answer to an earlier request with the same ${IDEMPOTENCY_KEY_HEADER}`,
      schema: { type: 'string', enum: ['true'] },
    },
  };
}

export const headerRefs = (names: readonly string[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

export const STANDARD_HEADERS = ['X-Request-Id', ...QUOTA_HEADERS];

export function errorSchemas(): Record<string, Json> {
  return {
    Error: {
      type: 'object',
      description:
        "Every error body. 404 bodies also carry `error` and `statusCode` (the contract's second error shape).",
      required: ['success', 'message', 'code'],
      properties: {
        success: { type: 'boolean', const: false },
        message: { type: 'string', description: 'What went wrong, naming the parameter if any' },
        code: { type: 'string', enum: Object.keys(HTTP_STATUS_BY_CODE) },
        requestId: { type: 'string', description: 'The X-Request-Id of the request, for support' },
      },
    },
    NotFoundError: {
      description:
        'A 404 body: both documented error shapes at once (`{ success, message, code }` and `{ message, error, statusCode }`).',
      allOf: [
        ref('Error'),
        {
          type: 'object',
          required: ['error', 'statusCode'],
          properties: {
            code: { const: 'NOT_FOUND' },
            error: { type: 'string', const: 'Not Found' },
            statusCode: { type: 'integer', const: 404 },
          },
        },
      ],
    },
  };
}

export function errorResponseComponents(limits: ErrorLimits): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, { name, description }]) => [
      name,
      {
        description: typeof description === 'function' ? description(limits) : description,
        headers: headerRefs(
          status === '429' || status === '503'
            ? [...STANDARD_HEADERS, 'Retry-After']
            : STANDARD_HEADERS,
        ),
        content: {
          'application/json': { schema: ref(status === '404' ? 'NotFoundError' : 'Error') },
        },
      },
    ]),
  );
}

function errorStatusesOf(route: RestRoute, field: GraphQLField<unknown, unknown>): ErrorStatus[] {
  const surface = surfaceOf(route.path)!;
  const takesInput =
    route.method === 'POST' || field.args.some((arg) => !route.path.includes(`:${arg.name}`));
  const statuses: ErrorStatus[] = [401, 403, 429, 500, 503, 504];
  // A removed route checks the key, then answers 410 whatever else is asked.
  if (field.deprecationReason) return [...statuses, 410].sort((a, b) => a - b) as ErrorStatus[];
  // The partner surface answers 400 to dashboard credentials, whatever the route.
  if (takesInput || surface.keyType === 'partner') statuses.push(400);
  // Affiliate routes answer 404 once the key's affiliate account is gone.
  if (route.path.includes(':') || surface.keyType === 'affiliate') statuses.push(404);
  if (route.method === 'POST') statuses.push(409, 413);
  return statuses.sort((a, b) => a - b);
}

/** Why a route answers a status, where the shared component's description would mislead. */
function errorDescriptionOf(route: RestRoute, status: ErrorStatus): string | undefined {
  const surface = surfaceOf(route.path)!;
  const credentials =
    'dashboard credentials (`x-api-token` or `x-auth-key`) were sent: the partner surface takes only `x-api-key`';
  if (status === 400 && surface.keyType === 'partner') {
    return route.path.includes(':')
      ? `The ${credentials}`
      : `A parameter is invalid (the message names it), or ${credentials}`;
  }
  if (route.method === 'POST' && status === 400) {
    return 'The body is invalid (the message names the field): a field it does not take, a malformed value, or an id (`featureId`, `organizationId`) of a campaign or brand that does not exist or is not visible. An unknown id in the body answers 400, not 404: the request, not the route, names what is missing.';
  }
  if (route.method === 'POST' && status === 404) return "The key's affiliate account is closed";
  return undefined;
}

/** The responses of a route's error statuses: the shared components, described for the route. */
export function errorResponsesOf(
  route: RestRoute,
  field: GraphQLField<unknown, unknown>,
): Record<string, Json> {
  return Object.fromEntries(
    errorStatusesOf(route, field).map((status) => {
      const description = errorDescriptionOf(route, status);
      // OpenAPI 3.1: a reference's own description overrides the component's.
      return [
        String(status),
        {
          $ref: `#/components/responses/${ERROR_RESPONSES[status].name}`,
          ...(description && { description }),
        },
      ];
    }),
  );
}
