// Request ids: the caller's X-Request-Id when it is a sane token, else a fresh one. The id is
// echoed on every response, written in the access log and carried by error bodies as `requestId`.
// Code deeper in the request (Sofa's error handler gets no request) finds it through
// AsyncLocalStorage.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@+=\/-]{1,128}$/;

export function requestIdOf(request: Request): string {
  const given = request.headers.get('x-request-id');
  return given && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

const requestScope = new AsyncLocalStorage<string>();

export function runWithRequestId<T>(requestId: string, work: () => T): T {
  return requestScope.run(requestId, work);
}

/** The id of the request being answered (undefined outside one). */
export function currentRequestId(): string | undefined {
  return requestScope.getStore();
}
