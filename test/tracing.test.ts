// Traces, as an OTLP collector would receive them (here an in-memory exporter): one server span per
// request named by its route template, GraphQL execution and Prisma's database work as its
// descendants in the same trace; tracing stays off unless OTEL_* asks for it.
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTracing, stopTracing, tracingWanted } from '../src/platform/tracing';
import { callApp, createIsolatedApp, useTestDatabase } from './support/app';
import { startCollector } from './support/collector';
import { createApiKey } from './support/factories';
import { startReplica } from './support/replica';

useTestDatabase();

const exporter = new InMemorySpanExporter();
startTracing(exporter);
const app = createIsolatedApp();
afterAll(() => stopTracing());

/** Waits for the server span of `route` (it ends last, with the answer). */
async function serverSpanOf(route: string): Promise<ReadableSpan> {
  for (;;) {
    const span = exporter
      .getFinishedSpans()
      .find((candidate) => candidate.kind === SpanKind.SERVER && candidate.name.endsWith(route));
    if (span) return span;
    await new Promise(setImmediate);
  }
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

test('a request is a server span with its route template; execution and SQL are inside it', async () => {
  const { apiKey } = await createApiKey('partner');
  exporter.reset();
  const answer = await callApp(app, '/api/partner/organizations?limit=2', { key: apiKey });
  expect(answer.status).toBe(200);

  const server = await serverSpanOf('/api/partner/organizations');
  expect(server.name).toBe('GET /api/partner/organizations');
  expect(server.attributes).toMatchObject({
    'http.request.method': 'GET',
    'http.route': '/api/partner/organizations',
    'http.response.status_code': 200,
  });
  const inTrace = exporter
    .getFinishedSpans()
    .filter((span) => span.spanContext().traceId === server.spanContext().traceId);
  const execution = inTrace.find((span) => span.name.startsWith('query.'));
  expect(execution).toBeDefined();
  expect(parentOf(execution!)).toBe(server.spanContext().spanId);
  const database = inTrace.filter((span) => span.name.startsWith('prisma:'));
  expect(database.map((span) => span.name)).toEqual(
    expect.arrayContaining(['prisma:client:operation', 'prisma:client:db_query']),
  );
  // Every span of the request descends from its server span.
  const ids = new Set(inTrace.map((span) => span.spanContext().spanId));
  for (const span of inTrace.filter((span) => span !== server)) {
    expect(ids.has(parentOf(span)!)).toBe(true);
  }
});

test('an id in the path is not in the span name', async () => {
  const { apiKey } = await createApiKey('partner');
  const id = '0b0e6e3a-5d0c-4c43-9d52-3f1c2a9b8e77';
  await callApp(app, `/api/partner/brands/${id}`, { key: apiKey });
  const server = await serverSpanOf('/api/partner/brands/{brandId}');
  expect(server.name).not.toContain(id);
  expect(server.attributes['http.response.status_code']).toBe(404);
});

test('a service started with OTEL_EXPORTER_OTLP_ENDPOINT sends its spans there', async () => {
  const collector = await startCollector();
  const replica = await startReplica({
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
    OTEL_BSP_SCHEDULE_DELAY: '50',
    PGLITE_DATA_DIR: 'memory://',
  });
  try {
    await fetch(`${replica.base}/api/partner/brands`, { headers: { 'x-api-key': 'none' } });
    expect(await collector.requestWith('GET /api/partner/brands')).toMatch(/^POST \/v1\/traces /);
  } finally {
    replica.process.kill('SIGKILL');
    collector.close();
  }
}, 180_000);

test.each([
  [{}, false],
  [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
  [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
  [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
  [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }, false],
  [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }, false],
])('OTEL_* %j turns traces on: %s', (env, wanted) => {
  expect(tracingWanted(env)).toBe(wanted);
});
