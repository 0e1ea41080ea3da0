// What Node's HTTP parser refuses before the app sees a request (a URL or headers over its limit,
// bytes that are not HTTP) is answered in the contract's error shape too, not with Node's empty 431
// or 400, and with a request id like every answer (a fresh one: the request's own headers are what
// could not be read), which the log line of the refusal carries too.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpError, BadRequestError, errorBody } from '../platform/errors';
import { logger } from '../platform/logger';

/** How long a refused connection may take to read its answer before it is closed. */
const LINGER_MS = 5_000;

export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const refusal =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new HttpError('REQUEST_HEADER_FIELDS_TOO_LARGE', 'The request URL or headers are too large')
      : new BadRequestError('The request is not valid HTTP');
  const requestId = randomUUID();
  logger.info(
    { requestId, status: refusal.status, reason: error.code },
    'request refused by the HTTP parser',
  );
  const body = JSON.stringify(errorBody(refusal, requestId));
  // What the client is still sending is read and dropped: closing with it unread would reset the
  // connection, and the client would lose the answer.
  socket.resume();
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `X-Request-Id: ${requestId}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
