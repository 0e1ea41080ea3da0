// OpenTelemetry traces, off unless the standard OTEL_* variables ask for them: a server span per
// request named by its route template (src/http/edge.ts), a span for each GraphQL execution
// (@envelop/opentelemetry) and Prisma's spans for its operations and SQL statements
// (@prisma/instrumentation), exported over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT and friends).
import { SpanKind, trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-node';
import { useOpenTelemetry } from '@envelop/opentelemetry';
import { PrismaInstrumentation } from '@prisma/instrumentation';
import type { Plugin } from 'graphql-yoga';

const DEFAULT_SERVICE_NAME = 'affiliate-network-api';

let provider: NodeTracerProvider | null = null;

/**
 * Whether the environment asks for traces: an OTLP endpoint or `OTEL_TRACES_EXPORTER=otlp`, and
 * not `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`.
 */
export function tracingWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(
    env.OTEL_EXPORTER_OTLP_ENDPOINT ||
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ||
    env.OTEL_TRACES_EXPORTER === 'otlp',
  );
}

/**
 * Starts tracing for the process: spans go to `exporter` (tests pass an in-memory one) or to the
 * OTLP endpoint the environment names. Call it before the app is created.
 */
export function startTracing(exporter: SpanExporter = new OTLPTraceExporter()): void {
  if (provider) return;
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      'service.name': process.env.OTEL_SERVICE_NAME || DEFAULT_SERVICE_NAME,
    }),
    spanProcessors: [
      exporter instanceof OTLPTraceExporter
        ? new BatchSpanProcessor(exporter)
        : new SimpleSpanProcessor(exporter),
    ],
  });
  // Global: the context manager carries the request's span into GraphQL execution and Prisma.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [new PrismaInstrumentation()],
  });
}

/** Flushes and stops tracing (at shutdown). */
export async function stopTracing(): Promise<void> {
  await provider?.shutdown();
  provider = null;
}

/** The tracer of request spans, or null while tracing is off (requests then pay nothing for it). */
export function requestTracer(): Tracer | null {
  return provider ? trace.getTracer(DEFAULT_SERVICE_NAME) : null;
}

/** The yoga plugin tracing GraphQL executions, while tracing is on. */
export function graphqlTracing(): Plugin | null {
  if (!provider) return null;
  return useOpenTelemetry(
    // Documents with inline arguments are not recorded; variables and results never are.
    { resolvers: false, variables: false, result: false, document: true },
    provider,
    SpanKind.INTERNAL,
  ) as Plugin;
}
