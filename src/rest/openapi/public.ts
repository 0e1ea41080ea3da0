// The public paths the edge answers itself (no GraphQL field, so Sofa does not document them): the
// short-link redirect and the probes. No key, no quota.
import { CLICK_REPEAT_WINDOW_S, MAX_CLICKS_PER_ADDRESS } from '../../shortLinks/clicks';
import { REDIRECT_PREFIX } from '../../shortLinks/redirect';
import { MAX_SUB_ID_LENGTH, SUB_ID_NAMES } from '../../shortLinks/subIds';
import { ERROR_RESPONSES, headerRefs } from './errors';
import { ref, type Json } from './json';

export const REDIRECT_TAG = 'Short links';
export const PROBES_TAG = 'Probes';

const REDIRECT_OPERATION: Json = {
  operationId: 'followShortUrl',
  tags: [REDIRECT_TAG],
  summary: "Follow a short link: 302 to its target with the affiliate's tracking parameter",
  description: `Public: no key, no quota. Counts one click per client (address and user agent) and link per ${CLICK_REPEAT_WINDOW_S} s, and at most ${MAX_CLICKS_PER_ADDRESS} clients of one address (an IPv4 address, an IPv6 /64) per link and ${CLICK_REPEAT_WINDOW_S} s; repeats, the address's further clients, bots, crawlers, link-preview fetchers and HEAD requests are redirected without being counted.`,
  security: [],
  parameters: [
    {
      name: 'urlCode',
      in: 'path',
      required: true,
      description: "The link's 8-character code (`urlCode` of a short URL)",
      schema: { type: 'string', pattern: '^[0-9A-Za-z]{8}$' },
    },
    ...SUB_ID_NAMES.map((name) => ({
      name,
      in: 'query',
      required: false,
      description: `A tag of this follow, 1 to ${MAX_SUB_ID_LENGTH} visible ASCII characters (anything else is dropped; the redirect still happens): the click is also counted under it (\`GET /affiliate/reports/performance?groupBy=${name}\`), and the target gets it appended as \`${name}\``,
      schema: { type: 'string', minLength: 1, maxLength: MAX_SUB_ID_LENGTH, pattern: '^[!-~]+$' },
    })),
  ],
  responses: {
    '302': {
      description: "To the link's target, with the follow's sub-IDs appended",
      headers: {
        Location: { schema: { type: 'string', format: 'uri' } },
        ...headerRefs(['X-Request-Id']),
      },
    },
    '404': { $ref: `#/components/responses/${ERROR_RESPONSES[404].name}` },
  },
};

const probeAnswer = (description: string, schema: string) => ({
  description,
  headers: headerRefs(['X-Request-Id']),
  content: { 'application/json': { schema: ref(schema) } },
});

const HEALTH_OPERATION: Json = {
  operationId: 'liveness',
  tags: [PROBES_TAG],
  summary: 'Liveness: the process answers',
  description:
    "Public: no key, no quota. Answers 200 whenever the process serves requests, whatever its database or Redis say: a container's health check or a liveness probe.",
  security: [],
  responses: { '200': probeAnswer('The process answers', 'Liveness') },
};

const READY_OPERATION: Json = {
  operationId: 'readiness',
  tags: [PROBES_TAG],
  summary: 'Readiness: the database and, when configured, Redis answer',
  description:
    'Public: no key, no quota. 200 when every dependency answers within 2 s, else 503 naming what is unreachable: a readiness probe, or a load balancer with active checks. Without Redis the replica still serves, limiting in its own memory.',
  security: [],
  responses: {
    '200': probeAnswer('Every dependency answers', 'Readiness'),
    '503': probeAnswer('A dependency is unreachable (named in `checks`)', 'Readiness'),
  },
};

const CHECK = { type: 'string', enum: ['ok', 'unreachable'] };

const SCHEMAS: Record<string, Json> = {
  Liveness: {
    type: 'object',
    required: ['status'],
    properties: { status: { type: 'string', const: 'ok' } },
  },
  Readiness: {
    type: 'object',
    required: ['status', 'checks'],
    properties: {
      status: { type: 'string', enum: ['ok', 'unavailable'] },
      checks: {
        type: 'object',
        required: ['database'],
        properties: {
          database: CHECK,
          redis: { ...CHECK, description: 'Only when the replica is configured with Redis' },
        },
        additionalProperties: false,
      },
    },
  },
};

export function publicDocumentation() {
  return {
    paths: {
      [`${REDIRECT_PREFIX}{urlCode}`]: { get: REDIRECT_OPERATION },
      '/healthz': { get: HEALTH_OPERATION },
      '/readyz': { get: READY_OPERATION },
    } as Record<string, Record<string, Json>>,
    tags: [REDIRECT_TAG, PROBES_TAG],
    schemas: SCHEMAS,
  };
}
