// Paths the service does not serve answer the contract's 404 body. The REST facade answers unknown
// paths under its surfaces and the redirect its own; anything else would get yoga's empty 404, or
// be taken for GraphQL when it merely ends in "/graphql".
import type { Plugin } from 'graphql-yoga';
import { errorResponse, NotFoundError, shown } from '../platform/errors';
import type { RequestRecord } from '../requestRecord';

/** Registered after every plugin that serves a path, so it sees only what nobody served. */
export function useUnknownPathAnswer(
  graphqlEndpoint: string,
): Plugin<Record<string, unknown>, { record: RequestRecord }> {
  return {
    onRequest({ request, url, serverContext, endResponse }) {
      if (url.pathname === graphqlEndpoint) return;
      // The root is where a newcomer's browser lands first: point to the reference.
      const hint = url.pathname === '/' ? ': the API reference is at /docs' : '';
      endResponse(
        errorResponse(
          new NotFoundError(`No route ${request.method} ${shown(url.pathname)}${hint}`),
          serverContext.record.id,
        ),
      );
    },
  };
}
