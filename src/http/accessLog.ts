// After every answer: the request's metrics and its access line (ids only, nothing looked up for
// it), with nginx's 499 for a request its client abandoned.
import { logger } from '../platform/logger';
import { httpRequestDuration, httpRequests } from '../platform/metrics';
import type { RequestRecord } from '../requestRecord';

const CLIENT_CLOSED_REQUEST = 499;

/** Methods that are metric labels as they are; any other is `OTHER` (labels must stay few). */
const LABELLED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** How much of a user agent the access log keeps. */
const USER_AGENT_LOGGED = 256;

/** Counts and logs the answer `status` to the record's request, begun at `started`. */
export async function recordAnswer(
  record: RequestRecord,
  status: number,
  started: number,
): Promise<void> {
  const { request, url } = record;
  // Nobody reads the answer to a request its client abandoned: logged as what it is.
  const clientClosed = request.signal.aborted;
  const answered = clientClosed ? CLIENT_CLOSED_REQUEST : status;
  const seconds = (performance.now() - started) / 1000;
  const labels = {
    method: LABELLED_METHODS.has(request.method) ? request.method : 'OTHER',
    route: record.route ?? 'unmatched',
  };
  httpRequests.inc({ ...labels, status: answered });
  httpRequestDuration.observe(labels, seconds);
  if (!logger.isLevelEnabled('info')) return;
  logger.info(
    {
      requestId: record.id,
      method: request.method,
      path: url.pathname,
      route: record.route,
      status: answered,
      durationMs: Math.round(seconds * 10_000) / 10,
      ...(await record.verifiedIdentity()),
      clientIp: record.clientIp,
      userAgent: request.headers.get('user-agent')?.slice(0, USER_AGENT_LOGGED) ?? null,
    },
    clientClosed ? 'request abandoned by the client' : 'request',
  );
}
