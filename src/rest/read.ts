// A GET's answer: its bytes in the negotiated format (JSON, or CSV where the route offers it) with
// their ETag, and the response to this request, 304 when the client already holds those bytes.
import type { RequestRecord } from '../requestRecord';
import { Response } from '../platform/fetchApi';
import { entityTag, ifNoneMatchHolds } from './conditional';
import { CSV_CONTENT_TYPE, csvOf, prefersCsv, TOTAL_COUNT_HEADER } from './csv';
import type { PreparedRoute } from './prepare';
import type { CachedResponse } from './responseCache';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export type Format = 'csv' | 'json';

/** CSV when the route offers it and the client prefers it, else JSON. */
export function negotiatedFormat(record: RequestRecord, prepared: PreparedRoute): Format {
  return prepared.csvColumns && prefersCsv(record.request.headers.get('accept')) ? 'csv' : 'json';
}

/** A GET answer's bytes in `format`, with its ETag and the headers that describe it. */
export function renderGet(prepared: PreparedRoute, format: Format, data: unknown): CachedResponse {
  const page = data as { data: unknown[]; meta?: { total: number } };
  const body = format === 'csv' ? csvOf(prepared.csvColumns!, page.data) : JSON.stringify(data);
  return {
    body,
    etag: entityTag(body),
    headers: {
      'Content-Type': format === 'csv' ? CSV_CONTENT_TYPE : JSON_CONTENT_TYPE,
      // Where a route answers two formats, a cache must keep them apart.
      ...(prepared.csvColumns && { Vary: 'Accept' }),
      ...(format === 'csv' && page.meta && { [TOTAL_COUNT_HEADER]: String(page.meta.total) }),
    },
  };
}

/** The response to a GET of `rendered`: 304 when the client already holds the bytes. */
export function getResponse(
  record: RequestRecord,
  rendered: CachedResponse,
  headers: Record<string, string>,
): Response {
  if (ifNoneMatchHolds(record.request.headers.get('if-none-match'), rendered.etag)) {
    // What a 304 repeats of the 200 it stands for (RFC 9110 §15.4.5): Cache-Control, Vary, ETag.
    const vary = rendered.headers.Vary;
    return new Response(null, {
      status: 304,
      headers: { ...record.answerHeaders, ...(vary && { Vary: vary }), ETag: rendered.etag },
    });
  }
  return new Response(rendered.body, {
    status: 200,
    headers: { ...rendered.headers, ...record.answerHeaders, ...headers, ETag: rendered.etag },
  });
}
