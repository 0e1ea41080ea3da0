// One error vocabulary for GraphQL and REST, and the contract's error answer. Resolvers and every
// layer throw these; GraphQL answers them in `errors[].extensions.code` (HTTP 200, as GraphQL
// clients expect), REST answers the code's status with the contract's body:
// `{ success: false, message, code }`, 404s also with `error` and `statusCode` (both documented
// shapes), and `requestId` (also in the X-Request-Id header). A 500 never shows its cause.
import { GraphQLError } from 'graphql';
import type { Logger } from 'pino';
import { config } from './config';
import { isDatabaseOutage, isStatementTimeout } from './databaseOutage';
import { logger } from './logger';
import { Response } from './fetchApi';

export const HTTP_STATUS_BY_CODE = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  GONE: 410,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  REQUEST_HEADER_FIELDS_TOO_LARGE: 431,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  REQUEST_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof HTTP_STATUS_BY_CODE;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in HTTP_STATUS_BY_CODE;
}

/**
 * `extensions.http`, how yoga and envelop read an error's status and headers. It is never a GraphQL
 * over HTTP "spec" error, which yoga answers 200 to `application/json` clients: yoga's parse and
 * validation hooks mark the errors they meet as such, and a refusal of this service (a GraphQL
 * limit, say) is a decision of its own, so the mark does not take.
 */
function httpExtension(status: number, headers: Record<string, string>) {
  return Object.defineProperty({ status, headers }, 'spec', {
    enumerable: true,
    get: () => false,
    set: () => {},
  });
}

/**
 * An error with the HTTP answer it stands for: the one owner of `extensions.http`. /graphql keeps
 * errors met while resolving a field at 200 (src/graphql/errorMasking.ts) and tells their code in
 * `extensions.code`.
 */
export class HttpError extends GraphQLError {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Response headers that belong to this answer (Allow, Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message, {
      extensions: { code, http: httpExtension(HTTP_STATUS_BY_CODE[code], headers) },
    });
  }

  get status(): number {
    return HTTP_STATUS_BY_CODE[this.code];
  }
}

export class BadRequestError extends HttpError {
  constructor(message: string) {
    super('BAD_REQUEST', message);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message = 'A valid API key is required') {
    super('UNAUTHORIZED', message);
  }
}

export class ForbiddenError extends HttpError {
  constructor(message = 'The API key lacks a scope this operation requires') {
    super('FORBIDDEN', message);
  }
}

export class NotFoundError extends HttpError {
  constructor(message: string) {
    super('NOT_FOUND', message);
  }
}

export class MethodNotAllowedError extends HttpError {
  constructor(method: string, allow: readonly string[]) {
    super('METHOD_NOT_ALLOWED', `${method} is not allowed here`, { Allow: allow.join(', ') });
  }
}

export class ConflictError extends HttpError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}

export class GoneError extends HttpError {
  constructor(message: string) {
    super('GONE', message);
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(maxBytes: number) {
    super('PAYLOAD_TOO_LARGE', `The request body exceeds the limit of ${maxBytes} bytes`);
  }
}

export class TooManyRequestsError extends HttpError {
  constructor(
    retryAfterSeconds: number,
    message = 'Rate limit exceeded: retry after the time in Retry-After',
  ) {
    super('TOO_MANY_REQUESTS', message, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** How long a client should wait after a 503 (an outage is usually a restart or a failover). */
const RETRY_UNAVAILABLE_S = 5;

class ServiceUnavailableError extends HttpError {
  constructor() {
    super('SERVICE_UNAVAILABLE', 'The service is temporarily unavailable; retry shortly', {
      'Retry-After': String(RETRY_UNAVAILABLE_S),
    });
  }
}

export class RequestTimeoutError extends HttpError {
  constructor(timeoutMs: number) {
    super('REQUEST_TIMEOUT', `The request did not complete within ${timeoutMs / 1000} s`);
  }
}

/** How much of a client's value an error message repeats. */
const SHOWN_LENGTH = 64;

// Characters a reader cannot see or that turn text around: controls, format characters (bidi
// overrides such as U+202E, zero-width spaces), line and paragraph separators, lone surrogates.
const UNSEEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|\p{Cs}/gu;

/**
 * A client's value as an error message shows it: at most SHOWN_LENGTH characters, the rest cut
 * with an ellipsis, and every character nobody could see or that would reorder the message
 * written as an escape (`\u202e`).
 */
export function shown(value: string): string {
  const characters = [...value];
  const cut =
    characters.length > SHOWN_LENGTH ? `${characters.slice(0, SHOWN_LENGTH).join('')}…` : value;
  return cut.replace(
    UNSEEN,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `Brand <id> not found`, showing the id as the client sent it, safely (`shown`). */
export function notFound(what: string, id: string): NotFoundError {
  return new NotFoundError(`${what} ${shown(id)} not found`);
}

/** The contract's body of an error; `requestId` is the request's (src/requestRecord.ts). */
export function errorBody(error: HttpError, requestId?: string) {
  return {
    success: false,
    message: error.message,
    code: error.code,
    ...(error.status === 404 && { error: 'Not Found', statusCode: 404 }),
    ...(requestId !== undefined && { requestId }),
  };
}

/** A JSON answer, typed as the service's successes are. */
export function jsonResponse(
  body: unknown,
  { status = 200, headers = {} }: { status?: number; headers?: Record<string, string> } = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}

/** The contract's answer to an error, with the request's headers and the error's own. */
export function errorResponse(
  error: HttpError,
  requestId?: string,
  headers: Record<string, string> = {},
): Response {
  return jsonResponse(errorBody(error, requestId), {
    status: error.status,
    headers: { ...headers, ...error.headers },
  });
}

/**
 * A GraphQL result answered with `status`: how yoga reads a whole result's HTTP status (an
 * operation refused for want of credentials, under the GraphQL over HTTP media type).
 */
export function withResultStatus<Result extends { extensions?: Record<string, unknown> }>(
  result: Result,
  status: number,
): Result {
  return { ...result, extensions: { ...result.extensions, http: { status } } };
}

/** /graphql's answer to an error refusing the whole operation: GraphQL's shape, the error's status. */
export function graphqlErrorResponse(error: HttpError, headers: Record<string, string> = {}) {
  const body = { errors: [{ message: error.message, extensions: { code: error.code } }] };
  return jsonResponse(body, { status: error.status, headers: { ...headers, ...error.headers } });
}

/** Reading a request its client abandoned: Node's "aborted" (ECONNRESET) or an aborted signal. */
function isClientGone(error: unknown): boolean {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  return code === 'ECONNRESET' || name === 'AbortError';
}

/** The cause worth logging: a GraphQL error's original error. */
const causeOf = (error: unknown) =>
  error instanceof GraphQLError ? (error.originalError ?? error) : error;

/** What a database outage answers: the request may succeed on retry, so 503 rather than 500. */
export function serviceUnavailable(): HttpError {
  return new ServiceUnavailableError();
}

/** A statement the database cancelled at the request deadline: the deadline's answer. */
export function statementTimedOut(): HttpError {
  return new RequestTimeoutError(config.requestTimeoutMs);
}

/** A database outage, logged. */
function databaseUnavailable(error: unknown, log: Logger = logger): HttpError {
  log.warn({ err: causeOf(error) }, 'database unavailable');
  return serviceUnavailable();
}

/**
 * The HttpError anything that failed a request stands for. What is not the client's doing or an
 * outage is a 500, logged with its cause (on the request's log, when there is one).
 */
export function toHttpError(error: unknown, log: Logger = logger): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof GraphQLError) {
    if (error.originalError instanceof HttpError) return error.originalError;
    const code = error.extensions?.code;
    if (code === 'SERVICE_UNAVAILABLE') return new ServiceUnavailableError();
    if (isErrorCode(code)) return new HttpError(code, error.message);
    // A GraphQL error of its own (argument coercion, validation) is the request's fault.
    if (!error.originalError) return new BadRequestError(error.message);
  }
  if (isDatabaseOutage(error)) return databaseUnavailable(error, log);
  if (isStatementTimeout(error)) return statementTimedOut();
  // The client closed the connection mid-request (the edge logs the request as abandoned).
  if (isClientGone(error)) return new BadRequestError('The client closed the request');
  log.error({ err: causeOf(error) }, 'unexpected error');
  return new HttpError('INTERNAL_SERVER_ERROR', 'Internal server error');
}
