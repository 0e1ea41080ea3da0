// The contract's error bodies: `{ success: false, message, code }`; 404s also carry `error` and
// `statusCode`, so clients of either documented shape can read them. A 500 never shows its cause.
// Every error body names the request (`requestId`, also in the X-Request-Id header) for support.
import { GraphQLError } from 'graphql';
import { isDatabaseOutage } from '../databaseOutage';
import { currentRequestId } from '../http/requestId';
import { logger } from '../logger';
import { ApiError, isErrorCode } from '../schema/errors';

/** How long a client should wait after a 503 (an outage is usually a restart or a failover). */
const RETRY_UNAVAILABLE = { 'Retry-After': '5' };

/** The contract's body of an error. */
export function errorBody(error: ApiError, requestId = currentRequestId()) {
  return {
    success: false,
    message: error.message,
    code: error.code,
    ...(error.status === 404 && { error: 'Not Found', statusCode: 404 }),
    ...(requestId !== undefined && { requestId }),
  };
}

export function errorResponse(
  error: ApiError,
  headers?: Record<string, string>,
  requestId = currentRequestId(),
): Response {
  return Response.json(errorBody(error, requestId), {
    status: error.status,
    headers: error.code === 'SERVICE_UNAVAILABLE' ? { ...RETRY_UNAVAILABLE, ...headers } : headers,
  });
}

/** The ApiError a failed execution stands for. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof GraphQLError) {
    if (error.originalError instanceof ApiError) return error.originalError;
    const code = error.extensions?.code;
    if (isErrorCode(code)) return new ApiError(code, error.message);
    // A GraphQL error of its own (argument coercion, validation) is the request's fault.
    if (!error.originalError) return new ApiError('BAD_REQUEST', error.message);
  }
  if (isDatabaseOutage(error)) return databaseUnavailable(error);
  if (isClientGone(error)) {
    // The client closed the connection mid-request (the edge logs the request as abandoned).
    return new ApiError('BAD_REQUEST', 'The client closed the request');
  }
  logger.error(
    { err: error instanceof GraphQLError ? (error.originalError ?? error) : error },
    'unexpected error',
  );
  return new ApiError('INTERNAL_SERVER_ERROR', 'Internal server error');
}

/** Reading a request its client abandoned: Node's "aborted" (ECONNRESET) or an aborted signal. */
function isClientGone(error: unknown): boolean {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  return code === 'ECONNRESET' || name === 'AbortError';
}

/** A database outage: the request may succeed on retry, so 503 rather than 500. */
export function databaseUnavailable(error: unknown): ApiError {
  logger.warn(
    { err: error instanceof GraphQLError ? (error.originalError ?? error) : error },
    'database unavailable',
  );
  return new ApiError(
    'SERVICE_UNAVAILABLE',
    'The service is temporarily unavailable; retry shortly',
  );
}

/** Sofa's error handler: the first error decides the answer. */
export function restErrorHandler(errors: ReadonlyArray<unknown>): Response {
  return errorResponse(toApiError(errors[0]));
}
