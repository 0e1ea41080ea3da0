// GET /openapi.json and GET /docs: the REST routes' OpenAPI 3.1 document and a reference page
// rendered from it (Swagger UI, served from node_modules; no CDN). Public, no key.
//
// The document comes from the schema, so it cannot drift from what the routes answer: Sofa's
// generator (the one that mounts the routes) writes the envelope and item schemas from the GraphQL
// types, and this module completes what Sofa cannot know. The facade parses query strings and
// bodies itself (comma lists, strict scalars, unknown body fields refused), so the parameters are
// written from the fields' arguments the way src/rest/queryParams.ts reads them; GraphQL nulls
// become 3.1 `null` types; and the key type, scope, error statuses and quota headers of each route
// are added. test/openapi.test.ts validates the document and checks it against the route table.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { useSofa } from 'sofa-api';
import type { AuthScopes } from '../schema/builder';
import type { Context } from '../schema/context';
import { HTTP_STATUS_BY_CODE } from '../schema/errors';
import type { PageRule } from '../schema/pagination';
import { config } from '../config';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '../http/idempotency';
import { MAX_BODY_STRING_LENGTH } from './body';
import { restSchema } from './facade';
import { ROUTES, surfaceOf, type RestRoute } from './routes';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

/** A JSON Schema or OpenAPI object, loosely typed: the document is checked by its validator. */
type Json = Record<string, unknown>;

/**
 * The page rule behind each paginated route's `page` and `limit` (the resolvers' PageRule). The
 * GraphQL schema states them only in prose, so they are repeated here; test/openapi.test.ts asks
 * the app for every one of them and fails when a paginated route is missing.
 */
export const PAGE_RULES: Partial<Record<RestRoute['field'], PageRule>> = {
  'Query.partnerOrganizations': { defaultLimit: 20, maxLimit: 100, aboveMax: 'clamp' },
  'Query.partnerBrands': { defaultLimit: 20, maxLimit: 20, aboveMax: 'clamp' },
  'Query.partnerCampaigns': { defaultLimit: 10, maxLimit: 20, aboveMax: 'clamp' },
  'Query.affiliateBrands': { defaultLimit: 20, maxLimit: 20, aboveMax: 'clamp' },
  'Query.affiliateCampaigns': { defaultLimit: 10, maxLimit: 20, aboveMax: 'clamp' },
  'Query.affiliateOrders': { defaultLimit: 10, maxLimit: 100, aboveMax: 'clamp' },
  'Query.affiliateProducts': { defaultLimit: 5, maxLimit: 100, aboveMax: 'reject' },
  'Query.affiliateShortUrls': { defaultLimit: 10, maxLimit: 100, aboveMax: 'clamp' },
};

/** Defaults a resolver applies to other absent parameters (stated in the argument's description). */
export const PARAMETER_DEFAULTS: Partial<Record<RestRoute['field'], Record<string, unknown>>> = {
  'Query.affiliateShortUrls': { active: true },
};

/** What src/rest/queryParams.ts accepts for a String or ID query parameter. */
export const MAX_QUERY_STRING_LENGTH = 500;

const SCALARS: Record<string, Json> = {
  Int: { type: 'integer', format: 'int32' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  String: { type: 'string' },
  ID: { type: 'string' },
  DateTime: { type: 'string', format: 'date-time' },
  UUID: { type: 'string', format: 'uuid' },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The OpenAPI path of a route-table path: `/a/:b` -> `/a/{b}`. */
export function openApiPath(routePath: string): string {
  return routePath.replace(/:(\w+)/g, '{$1}');
}

function fieldOf(schema: GraphQLSchema, route: RestRoute): GraphQLField<unknown, unknown> {
  const [operation, name] = route.field.split('.') as [string, string];
  const type = operation === 'Query' ? schema.getQueryType() : schema.getMutationType();
  const field = type?.getFields()[name];
  if (!field) throw new Error(`The route table names ${route.field}, which the schema lacks`);
  return field;
}

/** The key type and scope a field's `keyAuth(type, scope)` declares (scope-auth keeps it). */
export function keyAuthOf(field: GraphQLField<unknown, unknown>): {
  keyType: AuthScopes['apiKey'];
  scope: AuthScopes['keyScope'];
} {
  const options = field.extensions?.pothosOptions as
    { authScopes?: { $all?: Partial<AuthScopes> } } | undefined;
  const all = options?.authScopes?.$all;
  if (!all?.apiKey || !all.keyScope) {
    throw new Error(`${field.name} declares no keyAuth(type, scope); every REST route needs one`);
  }
  return { keyType: all.apiKey, scope: all.keyScope };
}

/** A query or body value's schema, from its GraphQL input type. */
function inputSchema(type: GraphQLInputType, maxStringLength: number): Json {
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    return { type: 'array', items: inputSchema(nullable.ofType, maxStringLength) };
  }
  const named = getNamedType(type);
  if (isEnumType(named)) return { type: 'string', enum: named.getValues().map((v) => v.name) };
  const scalar = SCALARS[named.name] ?? SCALARS.String!;
  return scalar.type === 'string' && !scalar.format
    ? { ...scalar, maxLength: maxStringLength }
    : { ...scalar };
}

function queryParameter(route: RestRoute, arg: GraphQLArgument): Json {
  const schema = inputSchema(arg.type, MAX_QUERY_STRING_LENGTH);
  const rule = PAGE_RULES[route.field];
  if (rule && arg.name === 'page') Object.assign(schema, { minimum: 1, default: 1 });
  if (rule && arg.name === 'limit') {
    Object.assign(schema, { minimum: 1, maximum: rule.maxLimit, default: rule.defaultLimit });
  }
  const defaultValue = PARAMETER_DEFAULTS[route.field]?.[arg.name] ?? arg.defaultValue;
  if (defaultValue !== undefined) schema.default = defaultValue;
  const list = schema.type === 'array';
  // The page rule's wording is already in the argument's description (pageArgs).
  const description = [
    arg.description,
    list && 'Comma-separated (`a,b`); the parameter may also repeat (`x=a&x=b`).',
  ]
    .filter((part): part is string => Boolean(part))
    .map((part) => (/[.!?]$/.test(part) ? part : `${part}.`))
    .join(' ');
  return {
    name: arg.name,
    in: 'query',
    required: isNonNullType(arg.type),
    ...(description && { description }),
    ...(arg.deprecationReason && { deprecated: true }),
    schema,
    ...(list && { style: 'form', explode: false }),
  };
}

function requestBody(args: readonly GraphQLArgument[]): Json {
  const properties = Object.fromEntries(
    args.map((arg) => [
      arg.name,
      {
        ...inputSchema(arg.type, MAX_BODY_STRING_LENGTH),
        ...(arg.description && { description: arg.description }),
      },
    ]),
  );
  const required = args.filter((arg) => isNonNullType(arg.type)).map((arg) => arg.name);
  return {
    required: true,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties,
          ...(required.length && { required }),
          // Contract: unknown body fields answer 400.
          additionalProperties: false,
        },
      },
    },
  };
}

// ---- errors and headers -------------------------------------------------------------------------

const ERROR_RESPONSES = {
  400: { name: 'BadRequest', description: 'Invalid parameter or body; the message names it' },
  401: {
    name: 'Unauthorized',
    description: 'x-api-key missing, malformed, unknown, revoked or expired, or of the other type',
  },
  403: { name: 'Forbidden', description: 'The key lacks the scope of the route' },
  404: { name: 'NotFound', description: "No such resource (or the key's affiliate is gone)" },
  409: {
    name: 'Conflict',
    description: `${IDEMPOTENCY_KEY_HEADER} reused with another request, or still in progress`,
  },
  410: { name: 'Gone', description: 'The route was removed; the message names its successor' },
  413: { name: 'PayloadTooLarge', description: 'The body exceeds 1 MB' },
  429: {
    name: 'TooManyRequests',
    description: 'Quota exceeded; retry after `Retry-After` seconds',
  },
  500: { name: 'InternalServerError', description: 'Server error (no details are disclosed)' },
  504: { name: 'RequestTimeout', description: 'The request ran past the deadline (60 s)' },
} as const;

type ErrorStatus = keyof typeof ERROR_RESPONSES;

const QUOTA_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
] as const;

function headerComponents(): Record<string, Json> {
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
    [IDEMPOTENT_REPLAYED_HEADER]: {
      description: `\`true\` when the answer is the recorded answer to an earlier request with the same ${IDEMPOTENCY_KEY_HEADER}`,
      schema: { type: 'string', enum: ['true'] },
    },
  };
}

const headerRefs = (names: readonly string[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const STANDARD_HEADERS = ['X-Request-Id', ...QUOTA_HEADERS];

function errorSchemas(): Record<string, Json> {
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

function errorResponseComponents(): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, { name, description }]) => [
      name,
      {
        description,
        headers: headerRefs(
          status === '429' ? [...STANDARD_HEADERS, 'Retry-After'] : STANDARD_HEADERS,
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
  const statuses: ErrorStatus[] = [401, 403, 429, 500, 504];
  // A removed route checks the key, then answers 410 whatever else is asked.
  if (field.deprecationReason) return [...statuses, 410].sort((a, b) => a - b) as ErrorStatus[];
  // The partner surface answers 400 to dashboard credentials, whatever the route.
  if (takesInput || surface.keyType === 'partner') statuses.push(400);
  // Affiliate routes answer 404 once the key's affiliate account is gone.
  if (route.path.includes(':') || surface.keyType === 'affiliate') statuses.push(404);
  if (route.method === 'POST') statuses.push(409, 413);
  return statuses.sort((a, b) => a - b);
}

// ---- operations ---------------------------------------------------------------------------------

/** The field description without its leading `GET /path:` (the document says that already). */
function proseOf(field: GraphQLField<unknown, unknown>): string {
  const prose = (field.description ?? '').replace(/^(GET|POST)\s+\S+:?\s*/, '').trim();
  return prose.charAt(0).toUpperCase() + prose.slice(1);
}

function summaryOf(prose: string, route: RestRoute): string {
  const first = prose.split(/[;.](\s|$)/)[0]?.trim() || `${route.method} ${route.path}`;
  return first.length > 90 ? `${first.slice(0, 87)}...` : first;
}

function tagOf(route: RestRoute): string {
  const surface = surfaceOf(route.path)!;
  const resource = route.path.slice(surface.prefix.length).split('/')[0]!;
  return `${surface.keyType === 'partner' ? 'Partner catalog' : 'Affiliate'}: ${resource}`;
}

function operationOf(
  route: RestRoute,
  field: GraphQLField<unknown, unknown>,
  generated: Json | undefined,
): Json {
  const { keyType, scope } = keyAuthOf(field);
  const prose = proseOf(field);
  const pathArgs = field.args.filter((arg) => route.path.includes(`:${arg.name}`));
  const queryArgs = field.args.filter((arg) => !pathArgs.includes(arg));
  const successStatus = String(route.responseStatus ?? 200);
  // Sofa's response schema: the envelope type of the field.
  const generatedResponses = (generated?.responses ?? {}) as Record<string, Json>;
  const envelope = (
    generatedResponses[successStatus]?.content as Record<string, Json> | undefined
  )?.['application/json']?.schema as Json | undefined;

  const successHeaders = headerRefs(
    route.method === 'POST' ? [...STANDARD_HEADERS, IDEMPOTENT_REPLAYED_HEADER] : STANDARD_HEADERS,
  );
  const success = (description: string) => ({
    description,
    headers: successHeaders,
    content: { 'application/json': { schema: envelope } },
  });
  const responses: Json = {};
  if (!field.deprecationReason) {
    if (route.method === 'POST' && successStatus === '201') {
      responses['201'] = success('Created');
      responses['200'] = success('The same request was made before: the existing resource');
    } else {
      responses[successStatus] = success('OK');
    }
  }
  for (const status of errorStatusesOf(route, field)) {
    responses[String(status)] = { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` };
  }

  const parameters: Json[] = [
    ...pathArgs.map((arg) => ({
      name: arg.name,
      in: 'path',
      required: true,
      description: arg.description ?? 'The resource id; an id that does not exist answers 404',
      schema: { type: 'string' },
    })),
    // A removed route's arguments no longer mean anything.
    ...(route.method === 'GET' && !field.deprecationReason
      ? queryArgs.map((arg) => queryParameter(route, arg))
      : []),
    ...(route.method === 'POST' ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
  ];

  const description = [
    prose,
    `**Key:** ${keyType} key with scope \`${scope}\`.`,
    field.deprecationReason && `**Removed:** ${field.deprecationReason}.`,
  ]
    .filter(Boolean)
    .join('\n\n');
  return {
    operationId: field.name,
    summary: summaryOf(prose, route),
    description,
    tags: [tagOf(route)],
    ...(field.deprecationReason && { deprecated: true }),
    // OpenAPI 3.1 lets a non-OAuth requirement list role names: the key's scope.
    security: [{ apiKey: [scope] }],
    'x-key-type': keyType,
    'x-required-scopes': [scope],
    ...(parameters.length && { parameters }),
    ...(route.method === 'POST' && { requestBody: requestBody(queryArgs) }),
    responses,
  };
}

// ---- component schemas --------------------------------------------------------------------------

/** A property that GraphQL may answer as null: 3.1 spells that as a `null` type. */
function orNull(schema: Json): Json {
  if (typeof schema.$ref === 'string') {
    const { $ref, ...rest } = schema;
    return { ...rest, anyOf: [{ $ref }, { type: 'null' }] };
  }
  const withNull: Json = { ...schema, type: [schema.type, 'null'] };
  if (Array.isArray(schema.enum)) withNull.enum = [...schema.enum, null];
  return withNull;
}

/**
 * Sofa's schemas of the REST types, with every field required (a body always carries every field
 * Sofa selects, null or not) and GraphQL's nullable fields typed as nullable.
 */
function completeSchemas(schema: GraphQLSchema, generated: Record<string, Json>) {
  const schemas: Record<string, Json> = {};
  for (const [name, component] of Object.entries(generated)) {
    const type = schema.getType(name);
    if (name === 'Query' || name === 'Mutation' || !type) continue;
    if (!isObjectType(type)) {
      schemas[name] = component;
      continue;
    }
    const properties = { ...(component.properties as Record<string, Json>) };
    for (const field of Object.values(type.getFields())) {
      if (!isNonNullType(field.type)) properties[field.name] = orNull(properties[field.name]!);
    }
    schemas[name] = { ...component, required: Object.keys(properties), properties };
  }
  return schemas;
}

// ---- the document -------------------------------------------------------------------------------

export interface OpenApiSettings {
  serverUrl: string;
  rateLimitMax: number;
  rateLimitWindowSeconds: number;
}

export function openApiSettingsFromConfig(): OpenApiSettings {
  return {
    serverUrl: config.publicBaseUrl,
    rateLimitMax: config.rateLimitMax,
    rateLimitWindowSeconds: config.rateLimitWindowSeconds,
  };
}

const API_DESCRIPTION = `The affiliate network's REST API: the **affiliate surface** (\`/affiliate/*\`, one affiliate per key) and the **partner catalog** (\`/api/partner/*\`, read-only).

**Authentication.** Every route takes an \`x-api-key\` header. Affiliate keys open \`/affiliate/*\`, partner keys \`/api/partner/*\`; a missing, invalid or other-type key answers 401, a key without the route's scope 403. Each operation names its scope (\`x-required-scopes\`). Keys are created and rotated over GraphQL at \`/graphql\` with a dashboard token (\`x-api-token\`).

**Lists.** \`{ data, meta }\`, \`{ data, pagination }\` or \`{ data, count }\`; \`page\` from 1, \`limit\` up to the route's maximum (clamped; products answer 400 instead). List parameters take \`a,b\` or a repeated parameter. Unknown query parameters are ignored; malformed ones answer 400 naming the parameter.

**Errors.** \`{ success: false, message, code, requestId }\`; 404 bodies also carry \`error\` and \`statusCode\`.

**Limits.** A quota per key and client IP (headers \`X-RateLimit-*\`, \`RateLimit\`, \`RateLimit-Policy\`; 429 with \`Retry-After\`), 1 MB bodies (413), 60 s per request (504).`;

/** The OpenAPI 3.1 document of the route table, from the full GraphQL schema. */
export function buildOpenApiDocument(fullSchema: GraphQLSchema, settings: OpenApiSettings): Json {
  const schema = restSchema(fullSchema);
  // The router that mounts the routes (src/rest/facade.ts) is made the same way; this one only
  // writes the document.
  const router = useSofa({
    basePath: '',
    schema,
    routes: Object.fromEntries(
      ROUTES.map(({ field, method, path: routePath, responseStatus }) => [
        field,
        { method, path: routePath, responseStatus },
      ]),
    ),
    customScalars: { DateTime: SCALARS.DateTime, UUID: SCALARS.UUID },
    openAPI: { openapi: '3.1.0' },
  });
  const generated = router.openAPIDocument as unknown as {
    paths: Record<string, Record<string, Json>>;
    components: { schemas: Record<string, Json> };
  };

  const paths: Record<string, Json> = {};
  for (const route of ROUTES) {
    const oasPath = openApiPath(route.path);
    const method = route.method.toLowerCase();
    const field = fieldOf(schema, route);
    paths[oasPath] = {
      ...paths[oasPath],
      [method]: operationOf(route, field, generated.paths[oasPath]?.[method]),
    };
  }

  const tags = [...new Set(ROUTES.map(tagOf))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Affiliate network API',
      version: '1.0.0',
      description: `${API_DESCRIPTION}\n\nThis deployment's quota: ${settings.rateLimitMax} requests per ${settings.rateLimitWindowSeconds} s.`,
    },
    servers: [{ url: settings.serverUrl }],
    tags,
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description:
            'An affiliate or partner API key: `svc_{env}_{prefix}_{secret}` (v2) or a legacy 32-character v1 key (affiliate only).',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: IDEMPOTENCY_KEY_HEADER,
          in: 'header',
          required: false,
          description:
            'Optional. The same key with the same request within 24 h answers the recorded answer again (with `Idempotent-Replayed: true`); with another request, 409.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      headers: headerComponents(),
      responses: errorResponseComponents(),
      schemas: { ...completeSchemas(schema, generated.components.schemas), ...errorSchemas() },
    },
  };
}

// ---- serving ------------------------------------------------------------------------------------

const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_UI_VERSION = (
  JSON.parse(readFileSync(path.join(SWAGGER_UI_DIR, 'package.json'), 'utf8')) as {
    version: string;
  }
).version;
/** Asset URLs carry the renderer's version, so browsers may keep them for good. */
const ASSETS_PATH = `${DOCS_PATH}/assets/${SWAGGER_UI_VERSION}`;

const ASSETS: Record<string, { file?: string; body?: string; type: string }> = {
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript' },
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css' },
  'favicon-32x32.png': { file: 'favicon-32x32.png', type: 'image/png' },
  // The page's start-up script is a file, not inline, so the page's CSP can forbid inline scripts.
  'init.js': {
    type: 'text/javascript',
    body: `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#reference',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  displayRequestDuration: true,
  persistAuthorization: false,
  tryItOutEnabled: false,
  validatorUrl: null,
});
`,
  },
};

const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Affiliate network API reference</title>
    <link rel="icon" type="image/png" href="${ASSETS_PATH}/favicon-32x32.png" />
    <link rel="stylesheet" href="${ASSETS_PATH}/swagger-ui.css" />
  </head>
  <body>
    <noscript>The reference needs JavaScript; the document itself is at ${OPENAPI_PATH}.</noscript>
    <div id="reference"></div>
    <script src="${ASSETS_PATH}/swagger-ui-bundle.js"></script>
    <script src="${ASSETS_PATH}/init.js"></script>
  </body>
</html>
`;

function docsPageHeaders(serverUrl: string): Record<string, string> {
  let apiOrigin = '';
  try {
    apiOrigin = new URL(serverUrl).origin;
  } catch {
    // A relative server URL is this origin.
  }
  return {
    'Content-Type': 'text/html; charset=utf-8',
    // Everything comes from this server; "try it out" may call the documented server.
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self'",
      // Swagger UI sets element styles from script.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      `connect-src 'self' ${apiOrigin}`.trim(),
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
}

const assetCache = new Map<string, Uint8Array<ArrayBuffer>>();

function assetResponse(name: string): Response | null {
  const asset = ASSETS[name];
  if (!asset) return null;
  let body = assetCache.get(name);
  if (!body) {
    body = asset.file
      ? new Uint8Array(readFileSync(path.join(SWAGGER_UI_DIR, asset.file)))
      : new TextEncoder().encode(asset.body);
    assetCache.set(name, body);
  }
  return new Response(body, {
    headers: {
      'Content-Type': asset.type,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/**
 * Serves GET /openapi.json (the document, made once from the schema), GET /docs (the reference
 * page) and the page's assets. Public: no key, no quota count (the edge counts keyed requests).
 */
export function useApiReference(
  settings: OpenApiSettings = openApiSettingsFromConfig(),
): Plugin<Context> {
  let schema: GraphQLSchema | undefined;
  let document: string | undefined;
  return {
    onSchemaChange({ schema: changed }) {
      schema = changed;
      document = undefined;
    },
    onRequest({ request, url, endResponse }) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      if (url.pathname === OPENAPI_PATH && schema) {
        document ??= JSON.stringify(buildOpenApiDocument(schema, settings), null, 2);
        endResponse(
          new Response(document, {
            headers: {
              'Content-Type': 'application/json; charset=utf-8',
              'Cache-Control': 'no-cache',
              'Access-Control-Allow-Origin': '*',
            },
          }),
        );
      } else if (url.pathname === DOCS_PATH || url.pathname === `${DOCS_PATH}/`) {
        endResponse(new Response(DOCS_PAGE, { headers: docsPageHeaders(settings.serverUrl) }));
      } else if (url.pathname.startsWith(`${ASSETS_PATH}/`)) {
        const response = assetResponse(url.pathname.slice(ASSETS_PATH.length + 1));
        if (response) endResponse(response);
      }
    },
  };
}
