// The OpenAPI 3.1 document of the route table.
import { config } from '../../platform/config';
import { IDEMPOTENCY_KEY_HEADER, KEY_FORMAT } from '../../platform/idempotency';
import { MAX_BODY_BYTES } from '../../limits/bodyLimit';
import { FAILED_AUTH_LIMIT } from '../../limits/requestQuota';
import type { Sofa } from '../sofa';
import { routeField, type RestRoute } from '../routes';
import { completeSchemas } from './components';
import { errorResponseComponents, errorSchemas, headerComponents, inMegabytes } from './errors';
import type { Json } from './json';
import { headOperationOf, operationOf, tagOf } from './operations';
import { openApiPath } from './parameters';
import type { OpenApiFragment } from './fragment';
import { probesDocumentation } from './probes';
import { SECURITY_SCHEMES, securitySchemes } from './security';

export interface OpenApiSettings {
  serverUrl: string;
  rateLimitMax: number;
  rateLimitWindowSeconds: number;
  maxBodyBytes: number;
  requestTimeoutMs: number;
}

export function openApiSettingsFromConfig(): OpenApiSettings {
  return {
    serverUrl: config.publicBaseUrl,
    rateLimitMax: config.rateLimitMax,
    rateLimitWindowSeconds: config.rateLimitWindowSeconds,
    maxBodyBytes: MAX_BODY_BYTES,
    requestTimeoutMs: config.requestTimeoutMs,
  };
}

const apiDescription = (
  settings: OpenApiSettings,
  sections: string[],
) => `The affiliate network's REST API: the **affiliate surface** (\`/affiliate/*\`, one affiliate per key) and the **partner catalog** (\`/api/partner/*\`, read-only).

**Authentication.** Every route takes an \`x-api-key\` header. Affiliate keys open \`/affiliate/*\`, partner keys \`/api/partner/*\`; a missing, invalid or other-type key answers 401, a key without the route's scope 403. Each operation names its scope (\`x-required-scopes\`). Keys are created and rotated over GraphQL at \`/graphql\` with a dashboard token (\`x-api-token\`).

**Lists.** \`{ data, meta }\`, \`{ data, pagination }\` or \`{ data, count }\`; \`page\` from 1, \`limit\` up to the route's maximum (clamped; products answer 400 instead). List parameters take \`a,b\` or a repeated parameter. Unknown query parameters are ignored; malformed ones answer 400 naming the parameter.

**Errors.** \`{ success: false, message, code, requestId }\`; 404 bodies also carry \`error\` and \`statusCode\`.

${sections.map((section) => `${section}\n\n`).join('')}**Limits.** A quota per key and client IP (headers \`X-RateLimit-*\`, \`RateLimit\`, \`RateLimit-Policy\`; 429 with \`Retry-After\`), ${FAILED_AUTH_LIMIT.max} failed authentications per client IP per ${FAILED_AUTH_LIMIT.windowSeconds} s (then 429 with \`RateLimit-Policy: "failed-auth"\`, whatever the key), ${inMegabytes(settings.maxBodyBytes)} bodies (413), ${settings.requestTimeoutMs / 1000} s per request (504).

**HEAD.** Every GET path answers HEAD as GET, without the body.`;

/**
 * The OpenAPI 3.1 document of the routes: Sofa's, completed from the schema it sees, with the
 * probes and what the feature modules document beyond their routes (`fragments`).
 */
export function buildOpenApiDocument(
  sofa: Sofa,
  routes: readonly RestRoute[],
  fragments: readonly OpenApiFragment[],
  settings: OpenApiSettings,
): Json {
  const { schema } = sofa;
  const generated = sofa.router.openAPIDocument as unknown as {
    paths: Record<string, Record<string, Json>>;
    components: { schemas: Record<string, Json> };
  };

  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const oasPath = openApiPath(route.path);
    const method = route.method.toLowerCase();
    const field = routeField(schema, route);
    paths[oasPath] = {
      ...paths[oasPath],
      [method]: operationOf(route, field, generated.paths[oasPath]?.[method]),
    };
  }

  const parts = [...fragments, probesDocumentation()];
  for (const part of parts) Object.assign(paths, part.paths);

  const responses = errorResponseComponents(settings);
  for (const operations of Object.values(paths) as Record<string, Json>[]) {
    if (operations.get) operations.head = headOperationOf(operations.get, responses);
  }

  const tags = [
    ...new Set([...routes.map(tagOf), ...parts.flatMap((part) => part.tags ?? [])]),
  ].map((name) => ({ name }));
  const document: Json = {
    openapi: '3.1.0',
    info: {
      title: 'Affiliate network API',
      version: '1.0.0',
      contact: { name: 'API reference', url: `${settings.serverUrl}/docs` },
      description: `${apiDescription(
        settings,
        parts.flatMap((part) => part.description ?? []),
      )}\n\nThis deployment's quota: ${settings.rateLimitMax} requests per ${settings.rateLimitWindowSeconds} s.`,
    },
    servers: [{ url: settings.serverUrl }],
    tags,
    security: Object.values(SECURITY_SCHEMES).map((scheme) => ({ [scheme]: [] })),
    paths,
    webhooks: Object.assign({}, ...parts.map((part) => part.webhooks)),
    components: {
      securitySchemes: securitySchemes(),
      parameters: {
        IdempotencyKey: {
          name: IDEMPOTENCY_KEY_HEADER,
          in: 'header',
          required: false,
          description:
            'Optional. The same key with the same request within 24 h answers the recorded answer again (with `Idempotent-Replayed: true`); with another request, 409.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: KEY_FORMAT.source },
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
      responses,
      schemas: {
        ...completeSchemas(schema, generated.components.schemas),
        ...errorSchemas(),
        ...Object.assign({}, ...parts.map((part) => part.schemas)),
      },
    },
  };
  return withoutUnusedSchemas(document);
}

/**
 * The document without the component schemas nothing refers to: Sofa writes one per GraphQL enum,
 * and the parameters and properties spell theirs out.
 */
function withoutUnusedSchemas(document: Json): Json {
  const components = document.components as { schemas: Record<string, Json> };
  const { schemas, ...others } = components;
  const used = new Set<string>();
  const visit = (node: unknown) => {
    const text = JSON.stringify(node);
    for (const [, name] of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (used.has(name!)) continue;
      used.add(name!);
      visit(schemas[name!]);
    }
  };
  visit({ ...document, components: others });
  return {
    ...document,
    components: {
      ...others,
      schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name))),
    },
  };
}
