// GET /s/{urlCode}: the public redirect of a short link (no key). A 302 to the link's original URL,
// with exactly one click counted per GET, answered once it is committed (no read first: the hot
// path of the service; clicks are written in batches, src/rest/clickBatches.ts). HEAD and
// link-preview bots (a chat app unfurling a pasted link) get the same redirect without a click.
// Unknown, malformed or inactive codes: 404 in the contract's body.
// Answered by the edge (src/http/edge.ts) before yoga.
import { prisma } from '../db';
import { ApiError, NotFoundError } from '../schema/errors';
import { isUrlCode } from '../shortLinks';
import { countClick } from './clickBatches';
import { errorResponse } from './errors';

export const REDIRECT_PREFIX = '/s/';

// Fetchers that open links to draw a preview card (or to index them), not people following them.
const PREVIEW_AND_CRAWLER_AGENTS =
  /facebookexternalhit|facebookcatalog|Twitterbot|Slackbot|Slack-ImgProxy|LinkedInBot|Discordbot|WhatsApp|TelegramBot|SkypeUriPreview|Applebot|redditbot|Pinterestbot|Embedly|Iframely|vkShare|Mastodon|Google-InspectionTool|Bingbot|Googlebot/i;

export function isLinkPreviewOrCrawler(userAgent: string | null): boolean {
  return userAgent !== null && PREVIEW_AND_CRAWLER_AGENTS.test(userAgent);
}

/** Where an active link leads, without counting; null when there is none. */
async function targetOf(urlCode: string): Promise<string | null> {
  const link = await prisma.shortUrl.findFirst({
    where: { urlCode, active: true },
    select: { originalUrl: true },
  });
  return link?.originalUrl ?? null;
}

export async function redirectResponse(request: Request, pathname: string): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return errorResponse(
      new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed here`),
      { Allow: 'GET, HEAD' },
    );
  }
  const notFound = () => errorResponse(new NotFoundError('Short URL not found'));
  const urlCode = pathname.slice(REDIRECT_PREFIX.length);
  // Malformed codes (wrong length, other characters, a further path) cannot exist: no query.
  if (!isUrlCode(urlCode)) return notFound();
  const isClick =
    request.method === 'GET' && !isLinkPreviewOrCrawler(request.headers.get('user-agent'));
  const target = isClick ? await countClick(urlCode) : await targetOf(urlCode);
  if (!target) return notFound();
  // no-store: a cached redirect would be a click nobody counts.
  return new Response(null, {
    status: 302,
    headers: { Location: target, 'Cache-Control': 'no-store' },
  });
}
