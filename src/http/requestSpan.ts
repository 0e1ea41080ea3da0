// A request's trace span, named by its route template, when tracing is on.
import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import type { RequestRecord } from '../requestRecord';

/** `work` inside a server span named by the request's route template. */
export function inSpan(
  tracer: Tracer,
  record: RequestRecord,
  work: () => Promise<Response>,
): Promise<Response> {
  const route = record.route ?? 'unmatched';
  const attributes = {
    'http.request.method': record.request.method,
    'http.route': route,
    'url.path': record.url.pathname,
  };
  return tracer.startActiveSpan(
    `${record.request.method} ${route}`,
    { kind: SpanKind.SERVER, attributes },
    async (span) => {
      try {
        const response = await work();
        span.setAttribute('http.response.status_code', response.status);
        if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        return response;
      } finally {
        span.end();
      }
    },
  );
}
