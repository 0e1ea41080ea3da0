// /graphql reads JSON or a GraphQL document (or GET parameters), and answers JSON, always. Yoga
// would also read form and multipart bodies, and answer text/event-stream or multipart/mixed to
// clients asking for them, 406 with an empty body to an Accept it cannot meet, 415 with an empty
// body to a Content-Type it cannot read, and 500 to GET parameters `variables` or `extensions`
// that are not JSON. The schema has no subscriptions or incremental delivery, so those formats
// serve nothing; an empty body tells a client nothing; and bad input is a 400.
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { boundedResultProcessor } from './answerSize';
import { BadRequestError, withResultStatus } from '../platform/errors';
import { JSON_TOO_DEEP, jsonNestsTooDeep } from '../limits/jsonDepth';

const GRAPHQL_RESPONSE_JSON = 'application/graphql-response+json';

/**
 * The request, its JSON body refused past MAX_JSON_DEPTH before it is parsed (yoga's POST parser
 * reads `request.json()`).
 */
function depthLimited(request: Request): Request {
  request.json = async () => {
    const text = await request.text();
    if (jsonNestsTooDeep(text)) throw new BadRequestError(JSON_TOO_DEEP);
    return JSON.parse(text) as unknown;
  };
  return request;
}

/** No data, and every error an UNAUTHORIZED refusal. */
function isUnauthenticated(result: unknown): boolean {
  if (Array.isArray(result) || typeof result !== 'object' || result === null) return false;
  const { data, errors } = result as ExecutionResult;
  return (
    data == null &&
    errors !== undefined &&
    errors.length > 0 &&
    errors.every((error) => error.extensions?.code === 'UNAUTHORIZED')
  );
}

/**
 * The bodies /graphql reads: JSON, or a GraphQL document. Not a form or multipart body, which a
 * browser may send across origins without a preflight (a CORS "simple" request).
 */
const GRAPHQL_BODY_TYPES = new Set(['application/json', 'application/graphql']);

function isGraphqlBody(contentType: string | null): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return GRAPHQL_BODY_TYPES.has(mediaType);
}

const answerWithinLimit = boundedResultProcessor();

export function useJsonAnswers(): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser }) {
      // Yoga's own parsers ran first; a body of another type is refused whoever could read it.
      const readable =
        request.method === 'GET' || isGraphqlBody(request.headers.get('content-type'));
      if (!requestParser || !readable) {
        setRequestParser(() => {
          throw new BadRequestError(
            'Unsupported Content-Type: send application/json (or application/graphql, or GET)',
          );
        });
        return;
      }
      // Yoga's GET parser JSON.parses `variables` and `extensions` unguarded.
      setRequestParser(async (request) => {
        try {
          return await requestParser(depthLimited(request));
        } catch (error) {
          if (!(error instanceof SyntaxError)) throw error;
          throw new BadRequestError('The variables and extensions parameters must be JSON');
        }
      });
    },
    onResultProcess({ request, result, setResult, setResultProcessor }) {
      // GraphQL over HTTP: a server that cannot meet Accept may disregard it and answer
      // application/json. The newer media type is used when the client names it.
      const accept = request.headers.get('accept')?.toLowerCase() ?? '';
      const mediaType = accept.includes(GRAPHQL_RESPONSE_JSON)
        ? GRAPHQL_RESPONSE_JSON
        : 'application/json';
      // With the newer media type the status may say what failed: an operation that got no data
      // because the caller is not authenticated is a 401 (application/json keeps 200).
      if (mediaType === GRAPHQL_RESPONSE_JSON && isUnauthenticated(result)) {
        setResult(withResultStatus(result as ExecutionResult, 401));
      }
      setResultProcessor(answerWithinLimit, mediaType);
    },
  };
}
