// One error vocabulary for GraphQL and REST. Resolvers throw these; GraphQL answers them in
// `errors[].extensions.code` (HTTP 200, as GraphQL clients expect), the REST facade maps the code to
// the contract's status and error body (src/rest/errors.ts).
import { GraphQLError } from 'graphql';

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
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  REQUEST_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof HTTP_STATUS_BY_CODE;

export class ApiError extends GraphQLError {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message, { extensions: { code } });
  }

  get status(): number {
    return HTTP_STATUS_BY_CODE[this.code];
  }
}

export class BadRequestError extends ApiError {
  constructor(message: string) {
    super('BAD_REQUEST', message);
  }
}

export class UnauthorizedError extends ApiError {
  constructor(message = 'A valid API key is required') {
    super('UNAUTHORIZED', message);
  }
}

export class ForbiddenError extends ApiError {
  constructor(message = 'The API key lacks a scope this operation requires') {
    super('FORBIDDEN', message);
  }
}

export class NotFoundError extends ApiError {
  constructor(message: string) {
    super('NOT_FOUND', message);
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in HTTP_STATUS_BY_CODE;
}
