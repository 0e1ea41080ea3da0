// How /graphql tells and logs its errors. Yoga masks what is not the client's doing ("Unexpected
// error."), except that a database outage is told as such (SERVICE_UNAVAILABLE: 503 on REST, its
// code on GraphQL), and a statement cancelled at the request deadline as the deadline
// (REQUEST_TIMEOUT: 504). An error met while resolving a field (one with a path) keeps /graphql at 200,
// as GraphQL over HTTP answers execution errors: its code is in `extensions.code`, and the HTTP
// status it has on a REST route (`extensions.http`, src/platform/errors.ts) is dropped from it. A
// refusal of the whole operation (a GraphQL limit, the management limit) answers its own status.
//
// Only the service's own faults are logged at error level, once, on the request's log (its
// request id on the line), with the cause and not the client's document; the client's errors are
// in the access line's status.
import { GraphQLError, type ExecutionResult } from 'graphql';
import { maskError, type MaskError, type Plugin } from 'graphql-yoga';
import { isDatabaseOutage, isStatementTimeout } from '../platform/databaseOutage';
import { serviceUnavailable, statementTimedOut } from '../platform/errors';
import { logger } from '../platform/logger';
import type { Context } from '../schema/context';

/** Faults already logged with their request, which yoga's own error log leaves out. */
const loggedFaults = new WeakSet<object>();

/**
 * Drops the HTTP status and headers an execution error carries. In place, so that yoga, which logs
 * every error its masking replaces, does not take the client's error for a fault.
 */
function withoutHttp(error: GraphQLError): GraphQLError {
  delete (error.extensions as { http?: unknown }).http;
  return error;
}

export const maskErrors: MaskError = (error, message, isDev) => {
  const executing = error instanceof GraphQLError && error.path !== undefined;
  const masked = isDatabaseOutage(error)
    ? serviceUnavailable()
    : isStatementTimeout(error)
      ? statementTimedOut()
      : maskError(error, message, isDev);
  return executing && masked instanceof GraphQLError ? withoutHttp(masked) : masked;
};

/** What failed a /graphql execution and is not the client's doing: logged on the request's log. */
export function useFaultLog(): Plugin<Context> {
  return {
    onExecute({ args }) {
      const { record, rest } = args.contextValue;
      // REST answers log their faults where they answer them (src/platform/errors.ts).
      if (!record || rest) return;
      return {
        onExecuteDone({ result }) {
          for (const error of (result as ExecutionResult).errors ?? []) {
            const cause = error.originalError;
            if (!cause || cause instanceof GraphQLError) continue;
            if (isDatabaseOutage(cause)) record.log.warn({ err: cause }, 'database unavailable');
            // A deadline met in the database is the request's 504, in its access line.
            else if (!isStatementTimeout(cause))
              record.log.error({ err: cause }, 'unexpected error');
            loggedFaults.add(error);
          }
        },
      };
    },
  };
}

/** yoga's error log: faults not already logged with their request, as error objects. */
export function logYogaError(...args: unknown[]): void {
  if (args.some((arg) => typeof arg === 'object' && arg !== null && loggedFaults.has(arg))) return;
  const [first] = args;
  if (first instanceof Error) logger.error({ err: first }, 'unexpected error');
  else logger.error(args.map(String).join(' '));
}
