// How /graphql tells its errors. Yoga masks what is not the client's doing ("Unexpected error."),
// except that a database outage is told as such (SERVICE_UNAVAILABLE: 503 on REST, its code on
// GraphQL). An error met while resolving a field (one with a path) keeps /graphql at 200, as
// GraphQL over HTTP answers execution errors: its code is in `extensions.code`, and the HTTP status
// it would have on a REST route (`extensions.http`, src/platform/errors.ts) is left out of the answer. A
// refusal of the whole operation (a GraphQL limit, the management limit) answers its own status.
import { GraphQLError } from 'graphql';
import { maskError, type MaskError } from 'graphql-yoga';
import { isDatabaseOutage } from '../platform/databaseOutage';
import { databaseUnavailable } from '../platform/errors';

/** The error without the HTTP status and headers it carries. */
function withoutHttp(error: Error): Error {
  if (!(error instanceof GraphQLError) || !error.extensions.http) return error;
  const { http: _http, ...extensions } = error.extensions;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError ?? error,
    extensions,
  });
}

export const maskErrors: MaskError = (error, message, isDev) => {
  const masked = isDatabaseOutage(error)
    ? databaseUnavailable(error)
    : maskError(error, message, isDev);
  const executing = error instanceof GraphQLError && error.path !== undefined;
  return executing ? withoutHttp(masked) : masked;
};
