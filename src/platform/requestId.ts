// Request ids: the caller's X-Request-Id when it is a sane token, else a fresh one. The id is
// echoed on every response, written on the request's log lines and carried by error bodies as
// `requestId`; the request record (src/requestRecord.ts) holds it.
import { randomUUID } from 'node:crypto';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@+=\/-]{1,128}$/;

export function requestIdOf(request: Request): string {
  const given = request.headers.get('x-request-id');
  return given && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}
