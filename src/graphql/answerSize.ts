// A /graphql answer is at most MAX_ANSWER_BYTES. The operation cost (src/graphql/armor.ts) bounds
// the rows an operation can ask for before it runs; this bounds what it sends, whatever the rows
// hold (a delivery's 4 KiB answers, long texts written by the back office). An answer over it is
// not sent: the client gets a 400 naming the limit, as for the other GraphQL limits, and the
// connection does not hold megabytes for a slow reader. REST pages are bounded by their page rules.
import type { Plugin } from 'graphql-yoga';
import { BadRequestError, graphqlErrorResponse } from '../platform/errors';
import { logger } from '../platform/logger';

/**
 * 5 MiB: the largest legitimate answers (a year's report by link at its largest page, a hundred
 * keys' audit events, a delivery's 50 attempts with their answers) are a few hundred KiB.
 */
export const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

/** GraphQL results are JSON (src/graphql/jsonAnswers.ts); GraphiQL's page, inlined, is not one. */
const isJsonAnswer = (response: Response) =>
  /^application\/(graphql-response\+)?json/.test(response.headers.get('content-type') ?? '');

/** Refuses a /graphql result over `maxBytes` (its Content-Length, which the answer carries). */
export function useAnswerSizeLimit(
  graphqlEndpoint: string,
  maxBytes: number = MAX_ANSWER_BYTES,
): Plugin {
  return {
    onResponse({ request, response, setResponse }) {
      const bytes = Number(response.headers.get('content-length'));
      if (!(bytes > maxBytes) || !isJsonAnswer(response)) return;
      if (new URL(request.url).pathname !== graphqlEndpoint) return;
      logger.info({ limit: 'maxAnswerBytes', bytes }, 'GraphQL answer refused');
      const message =
        `Answer size limit of ${maxBytes} bytes exceeded, found ${bytes}: ` +
        'ask for fewer rows, fields or aliases';
      setResponse(graphqlErrorResponse(new BadRequestError(message)));
    },
  };
}
