// The short-link redirect in the OpenAPI document: the edge answers it itself (no GraphQL field, so
// Sofa does not document it). No key, no quota.
import { CLICK_REPEAT_WINDOW_S, MAX_CLICKS_PER_ADDRESS } from './clicks';
import { REDIRECT_PREFIX } from './redirect';
import { MAX_SUB_ID_LENGTH, SUB_ID_NAMES } from './subIds';
import { ERROR_RESPONSES, headerRefs } from '../../rest/openapi/errors';
import type { OpenApiFragment } from '../../rest/openapi/fragment';
import type { Json } from '../../rest/openapi/json';

export const REDIRECT_TAG = 'Short links';

const REDIRECT_OPERATION: Json = {
  operationId: 'followShortUrl',
  tags: [REDIRECT_TAG],
  summary: "Follow a short link: 302 to its target with the affiliate's tracking parameter",
  description: `Public: no key, no quota. Counts one click per client (address and user agent) and link per ${CLICK_REPEAT_WINDOW_S} s, and at most ${MAX_CLICKS_PER_ADDRESS} clients of one address (an IPv4 address, an IPv6 /64) per link and ${CLICK_REPEAT_WINDOW_S} s; repeats, the address's further clients, bots, crawlers, link-preview fetchers and HEAD requests are redirected without being counted.`,
  security: [],
  parameters: [
    {
      name: 'urlCode',
      in: 'path',
      required: true,
      description: "The link's 8-character code (`urlCode` of a short URL)",
      schema: { type: 'string', pattern: '^[0-9A-Za-z]{8}$' },
    },
    ...SUB_ID_NAMES.map((name) => ({
      name,
      in: 'query',
      required: false,
      description: `A tag of this follow, 1 to ${MAX_SUB_ID_LENGTH} visible ASCII characters (anything else is dropped; the redirect still happens): the click is also counted under it (\`GET /affiliate/reports/performance?groupBy=${name}\`), and the target gets it appended as \`${name}\``,
      schema: { type: 'string', minLength: 1, maxLength: MAX_SUB_ID_LENGTH, pattern: '^[!-~]+$' },
    })),
  ],
  responses: {
    '302': {
      description: "To the link's target, with the follow's sub-IDs appended",
      headers: {
        Location: { schema: { type: 'string', format: 'uri' } },
        ...headerRefs(['X-Request-Id']),
      },
    },
    '404': { $ref: `#/components/responses/${ERROR_RESPONSES[404].name}` },
  },
};

/** The redirect in the document: a path the edge answers itself, so no field documents it. */
export function redirectDocumentation(): OpenApiFragment {
  return {
    paths: { [`${REDIRECT_PREFIX}{urlCode}`]: { get: REDIRECT_OPERATION } },
    tags: [REDIRECT_TAG],
  };
}
