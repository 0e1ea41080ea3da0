// The OpenAPI 3.1 document of the route table.
import { config } from '../../config';
import { IDEMPOTENCY_KEY_HEADER } from '../../idempotency';
import type { Sofa } from '../sofa';
import { routeField, ROUTES } from '../routes';
import { completeSchemas } from './components';
import { ERROR_RESPONSES, errorResponseComponents, errorSchemas, headerComponents } from './errors';
import type { Json } from './json';
import { operationOf, tagOf } from './operations';
import { openApiPath } from './parameters';
import { webhookDocumentation } from './webhooks';
import { REDIRECT_PREFIX } from '../../shortLinks/redirect';
import { CLICK_REPEAT_WINDOW_S } from '../../shortLinks/clicks';

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

**Webhooks.** Order events (\`order.created\`, \`order.status_changed\`) are sent to the endpoints an affiliate user manages over GraphQL, signed per Standard Webhooks; the \`webhooks\` section describes their requests.

**Limits.** A quota per key and client IP (headers \`X-RateLimit-*\`, \`RateLimit\`, \`RateLimit-Policy\`; 429 with \`Retry-After\`), 1 MB bodies (413), 60 s per request (504).`;

const REDIRECT_TAG = 'Short links';

/** The public redirect: the edge answers it (it is no GraphQL field), so Sofa does not document it. */
const REDIRECT_OPERATION: Json = {
  operationId: 'followShortUrl',
  tags: [REDIRECT_TAG],
  summary: "Follow a short link: 302 to its target with the affiliate's tracking parameter",
  description: `Public: no key, no quota. Counts one click per client (address and user agent) and link per ${CLICK_REPEAT_WINDOW_S} s; repeats, bots, crawlers, link-preview fetchers and HEAD requests are redirected without being counted.`,
  security: [],
  parameters: [
    {
      name: 'urlCode',
      in: 'path',
      required: true,
      description: "The link's 8-character code (`urlCode` of a short URL)",
      schema: { type: 'string', pattern: '^[0-9A-Za-z]{8}$' },
    },
  ],
  responses: {
    '302': {
      description: "To the link's target",
      headers: {
        Location: { schema: { type: 'string', format: 'uri' } },
        'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
      },
    },
    '404': { $ref: `#/components/responses/${ERROR_RESPONSES[404].name}` },
  },
};

/** The OpenAPI 3.1 document of the route table: Sofa's, completed from the schema it sees. */
export function buildOpenApiDocument(sofa: Sofa, settings: OpenApiSettings): Json {
  const { schema } = sofa;
  const generated = sofa.router.openAPIDocument as unknown as {
    paths: Record<string, Record<string, Json>>;
    components: { schemas: Record<string, Json> };
  };

  const paths: Record<string, Json> = {};
  for (const route of ROUTES) {
    const oasPath = openApiPath(route.path);
    const method = route.method.toLowerCase();
    const field = routeField(schema, route);
    paths[oasPath] = {
      ...paths[oasPath],
      [method]: operationOf(route, field, generated.paths[oasPath]?.[method]),
    };
  }

  paths[`${REDIRECT_PREFIX}{urlCode}`] = { get: REDIRECT_OPERATION };

  const webhooks = webhookDocumentation();
  const tags = [...new Set([...ROUTES.map(tagOf), REDIRECT_TAG, ...webhooks.tags])].map((name) => ({
    name,
  }));
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
    webhooks: webhooks.webhooks,
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
        IfNoneMatch: {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description:
            'Optional. The `ETag` of an earlier answer: while the answer is the same, 304 without a body.',
          schema: { type: 'string' },
        },
      },
      headers: headerComponents(),
      responses: errorResponseComponents(),
      schemas: {
        ...completeSchemas(schema, generated.components.schemas),
        ...errorSchemas(),
        ...webhooks.schemas,
      },
    },
  };
}
