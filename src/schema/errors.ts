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
  REQUEST_HEADER_FIELDS_TOO_LARGE: 431,
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

/** `Brand <id> not found`, showing the id as the client sent it, safely (`shown`). */
export function notFound(what: string, id: string): NotFoundError {
  return new NotFoundError(`${what} ${shown(id)} not found`);
}

/** How much of a client's value an error message repeats. */
export const SHOWN_LENGTH = 64;

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

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in HTTP_STATUS_BY_CODE;
}
