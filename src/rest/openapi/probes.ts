// The probes in the OpenAPI document: /healthz and /readyz, which the edge answers itself (no
// GraphQL field, so Sofa does not document them). No key, no quota.
import { headerRefs } from './errors';
import type { OpenApiFragment } from './fragment';
import { ref, type Json } from './json';

const PROBES_TAG = 'Probes';

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
    'Public: no key, no quota. 200 when the database answers a query within 2 s and, when configured, Redis a write within 0.5 s; else 503 naming what is unreachable: a readiness probe, or a load balancer with active checks. Without Redis the replica still serves, limiting in its own memory.',
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

export function probesDocumentation(): OpenApiFragment {
  return {
    paths: { '/healthz': { get: HEALTH_OPERATION }, '/readyz': { get: READY_OPERATION } },
    tags: [PROBES_TAG],
    schemas: SCHEMAS,
  };
}
