// GET /s/{urlCode}: the public redirect of a short link (no key). A 302 to the link's original URL
// for everyone, answered once its click is recorded (no read first: the hot path of the service;
// clicks are written in batches, src/modules/links/clicks.ts). Counted: one click per client and link
// within a window, a bounded number per address, and per sub-ID value (`sub1`...`sub5`, which the
// target gets appended); bots, crawlers and link-preview fetchers (isbot) and HEAD are redirected
// without a click. Unknown, malformed or inactive codes: 404 in the contract's body.
// Answered by the edge (src/http/edge.ts) before the quota: it takes no key.
import { isbot } from 'isbot';
import { prisma } from '../../platform/db';
import { errorResponse, MethodNotAllowedError, NotFoundError } from '../../platform/errors';
import { isUrlCode } from './links';
import { clickCounter, clickVisitorOf, type ClickVisitor } from './clicks';
import { subIdsOf, withSubIds } from './subIds';
import { Response } from '../../platform/fetchApi';
import type { RequestRecord } from '../../requestRecord';

export const REDIRECT_PREFIX = '/s/';

/** How many user agents' bot verdicts are remembered, and the longest agent remembered. */
const BOT_VERDICTS_KEPT = 1_024;
const AGENT_LENGTH_KEPT = 512;

/**
 * isbot, remembering its verdicts: its patterns cost microseconds a call, about a twentieth of a
 * redirect's CPU, while a link's followers share a few thousand browsers' agents. Oldest first out.
 */
export function rememberingBotVerdicts(kept = BOT_VERDICTS_KEPT): (userAgent: string) => boolean {
  const verdicts = new Map<string, boolean>();
  return (userAgent) => {
    if (userAgent.length > AGENT_LENGTH_KEPT) return isbot(userAgent);
    let verdict = verdicts.get(userAgent);
    if (verdict === undefined) {
      verdict = isbot(userAgent);
      if (verdicts.size >= kept) verdicts.delete(verdicts.keys().next().value!);
      verdicts.set(userAgent, verdict);
    }
    return verdict;
  };
}

const isBotAgent = rememberingBotVerdicts();

/**
 * Who a GET comes from, for counting; null when it must not count: a bot, crawler or link-preview
 * fetcher, or no user agent at all (every browser sends one).
 */
export function countedClient(clientIp: string, userAgent: string | null): ClickVisitor | null {
  if (!userAgent || isBotAgent(userAgent)) return null;
  return clickVisitorOf(clientIp, userAgent);
}

/** Where an active link leads, without counting; null when there is none. */
async function targetOf(urlCode: string): Promise<string | null> {
  const link = await prisma.shortUrl.findFirst({
    where: { urlCode, active: true },
    select: { originalUrl: true },
  });
  return link?.originalUrl ?? null;
}

/** An app's redirect: its clicks are batched with that app's own. */
export function redirectAnswer(): (record: RequestRecord) => Promise<Response> {
  const countClick = clickCounter();
  return (record) => redirectResponse(record, countClick);
}

async function redirectResponse(
  record: RequestRecord,
  countClick: ReturnType<typeof clickCounter>,
): Promise<Response> {
  const { request, clientIp, answerHeaders } = record;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    const refusal = new MethodNotAllowedError(request.method, ['GET', 'HEAD']);
    return errorResponse(refusal, record.id, answerHeaders);
  }
  const notFound = () =>
    errorResponse(new NotFoundError('Short URL not found'), record.id, answerHeaders);
  const urlCode = record.url.pathname.slice(REDIRECT_PREFIX.length);
  // Malformed codes (wrong length, other characters, a further path) cannot exist: no query.
  if (!isUrlCode(urlCode)) return notFound();
  // An untagged follow (most of them) parses no query string.
  const { search } = record.url;
  const subIds = search ? subIdsOf(search.slice(1)) : null;
  const target =
    request.method === 'GET'
      ? await countClick(urlCode, {
          visitor: countedClient(clientIp, request.headers.get('user-agent')),
          subIds,
        })
      : await targetOf(urlCode);
  if (!target) return notFound();
  // no-store: a cached redirect would be a click nobody counts.
  return new Response(null, {
    status: 302,
    headers: {
      ...answerHeaders,
      Location: subIds ? withSubIds(target, subIds) : target,
      'Cache-Control': 'no-store',
    },
  });
}
