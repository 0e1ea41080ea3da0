// Request ids: the caller's X-Request-Id when it is a sane token, else a fresh one. The id is
// echoed on every response and written in the access log. Error bodies carry it as `requestId`
// when the caller sent one (so the caller can match its own id; a generated id is in the header).
// Code deeper in the request (Sofa's error handler gets no request) finds it through
// AsyncLocalStorage.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@+=\/-]{1,128}$/;

export interface RequestId {
  id: string;
  /** Whether the caller sent it (else it was generated here). */
  given: boolean;
}

export function requestIdOf(request: Request): RequestId {
  const given = request.headers.get('x-request-id');
  return given && SANE_REQUEST_ID.test(given)
    ? { id: given, given: true }
    : { id: randomUUID(), given: false };
}

const requestScope = new AsyncLocalStorage<RequestId>();

export function runWithRequestId<T>(requestId: RequestId, work: () => T): T {
  return requestScope.run(requestId, work);
}

/** The request id to show in an error body: the caller's own, if it sent one. */
export function currentRequestId(): string | undefined {
  const current = requestScope.getStore();
  return current?.given ? current.id : undefined;
}
