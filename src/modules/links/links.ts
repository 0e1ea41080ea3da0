// Affiliate short links: 8-character base62 codes, at most one link per affiliate and target (the
// `dedupeKey`), created race-free. Campaign payloads, the shortener routes and the public redirect
// all build on this module.
import { randomString } from '../../platform/base62';
import { config } from '../../platform/config';
import { prisma } from '../../platform/db';
import type { CampaignType, LinkType, Prisma, ShortUrl } from '../../generated/prisma/client';
import { requireRoom, takeUserTurn, type OwnershipCap } from '../../schema/ownershipCaps';

const URL_CODE_LENGTH = 8;

/** The query parameter that credits a visit to an affiliate. */
const TRACKING_PARAM = 'aff';

/** A fresh random code (62^8 ≈ 2.2e14 codes); uniqueness is the database's job. */
export function generateUrlCode(): string {
  return randomString(URL_CODE_LENGTH);
}

const URL_CODE = new RegExp(`^[0-9A-Za-z]{${URL_CODE_LENGTH}}$`);

/** Whether a string can be a url code at all (lets lookups answer 404 without a query). */
export function isUrlCode(value: unknown): value is string {
  return typeof value === 'string' && URL_CODE.test(value);
}

/** The public short URL of a code. */
export function shortUrlOf(urlCode: string): string {
  return `${config.shortLinkBaseUrl}/${urlCode}`;
}

/**
 * The one URL parser of links: an absolute http(s) URL, or null for anything else, which cannot be
 * a link's target (the redirect follows it) or a brand's site.
 */
export function webUrl(url: string): URL | null {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  return parsed?.protocol === 'http:' || parsed?.protocol === 'https:' ? parsed : null;
}

function requiredWebUrl(url: string): URL {
  const parsed = webUrl(url);
  if (!parsed) throw new TypeError(`Not an http(s) URL: ${url}`);
  return parsed;
}

/** The URL with the affiliate's tracking parameter; other query parameters are kept. */
export function trackingUrl(url: string, affiliateId: string): string {
  const parsed = requiredWebUrl(url);
  // `set`, not `append`: a target carrying someone else's aff= must credit this affiliate.
  parsed.searchParams.set(TRACKING_PARAM, affiliateId);
  return parsed.toString();
}

/** The URL without the tracking parameter: what a link to it points at, whoever asks. */
export function withoutTracking(url: string): string {
  const parsed = requiredWebUrl(url);
  parsed.searchParams.delete(TRACKING_PARAM);
  return parsed.toString();
}

// Dedupe keys name what a link points at; the demo seed uses the same formats.
export const campaignDedupeKey = (campaignId: string) => `campaign:${campaignId}`;
export const brandDedupeKey = (organizationId: string) => `brand:${organizationId}`;
export const customDedupeKey = (organizationId: string, originalUrl: string) =>
  `custom:${organizationId}:${withoutTracking(originalUrl)}`;

/** A campaign's link is an `Offer` link for offers and a `Coupon` link for coupons. */
export function campaignLinkType(type: CampaignType): LinkType {
  return type === 'Offer' ? 'Offer' : 'Coupon';
}

export interface ShortLinkRequest {
  affiliateId: string;
  organizationId: string;
  campaignId?: string | null;
  linkType: LinkType;
  /** Where the link leads, tracking parameter included. */
  originalUrl: string;
  dedupeKey: string;
}

/** What an affiliate's link to a campaign is: the campaign URL, tracked, one per campaign. */
export function campaignShortLink(
  affiliateId: string,
  campaign: { id: string; organizationId: string; type: CampaignType; url: string },
): ShortLinkRequest {
  return {
    affiliateId,
    organizationId: campaign.organizationId,
    campaignId: campaign.id,
    linkType: campaignLinkType(campaign.type),
    originalUrl: trackingUrl(campaign.url, affiliateId),
    dedupeKey: campaignDedupeKey(campaign.id),
  };
}

/** Tries before giving up on url-code collisions; each collides with odds ~ rows / 62^8. */
const MAX_CODE_ATTEMPTS = 5;

export class UrlCodeExhaustedError extends Error {}

/**
 * Active links an affiliate may hold before the shortener refuses a new one (docs/decisions.md,
 * "Short links"): deep links are made per URL, so without a bound one key could fill the table.
 */
export const MAX_ACTIVE_LINKS_PER_AFFILIATE = 100_000;

const LINK_CAP: OwnershipCap = {
  max: MAX_ACTIVE_LINKS_PER_AFFILIATE,
  refusal:
    `At most ${MAX_ACTIVE_LINKS_PER_AFFILIATE} active short links per affiliate: ` +
    'reuse a link (the same request answers the one made), or have the network deactivate links no longer used',
  count: (tx, affiliateId) => tx.shortUrl.count({ where: { affiliateId, active: true } }),
};

/** The one link of the request's affiliate and target. */
const linkWhere = ({ affiliateId, dedupeKey }: ShortLinkRequest) => ({
  affiliateId_dedupeKey: { affiliateId, dedupeKey },
});

export interface MadeLink {
  shortUrl: ShortUrl;
  /** Whether this call made it (201 vs 200 on the shortener route). */
  created: boolean;
}

/**
 * The affiliate's link for `dedupeKey`, created when missing. Race-free: the insert skips on the
 * unique (affiliateId, dedupeKey), so concurrent callers all read back the one row that won.
 */
async function insertShortUrl(
  client: Prisma.TransactionClient,
  request: ShortLinkRequest,
  newCode: () => string,
): Promise<MadeLink> {
  const where = linkWhere(request);
  for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt += 1) {
    // ON CONFLICT DO NOTHING covers every unique index: an existing link or a taken url code.
    const { count } = await client.shortUrl.createMany({
      data: [{ ...request, campaignId: request.campaignId ?? null, urlCode: newCode() }],
      skipDuplicates: true,
    });
    const shortUrl = await client.shortUrl.findUnique({ where });
    if (shortUrl) return { shortUrl, created: count === 1 };
    // Nothing inserted and no link: the url code was taken; draw another.
  }
  throw new UrlCodeExhaustedError(
    `No free url code after ${MAX_CODE_ATTEMPTS} attempts for ${request.dedupeKey}`,
  );
}

/** The affiliate's link for `dedupeKey`, created when missing (a Url offer's own link: uncapped). */
export function getOrCreateShortUrl(
  request: ShortLinkRequest,
  newCode: () => string = generateUrlCode,
): Promise<MadeLink> {
  return insertShortUrl(prisma, request, newCode);
}

/**
 * The shortener's get-or-create: an existing link is answered whatever the count; a new one only
 * while the affiliate holds fewer than MAX_ACTIVE_LINKS_PER_AFFILIATE active links, else 400. The
 * affiliate's capped creations take turns (its user row), so concurrent ones never pass the bound
 * together, and the link is looked for again on its turn: one made meanwhile is answered, not refused.
 */
export async function getOrCreateShortUrlWithinCap(
  request: ShortLinkRequest,
  newCode: () => string = generateUrlCode,
): Promise<MadeLink> {
  const where = linkWhere(request);
  const existing = await prisma.shortUrl.findUnique({ where });
  if (existing) return { shortUrl: existing, created: false };
  return prisma.$transaction(async (tx) => {
    await takeUserTurn(tx, request.affiliateId);
    const found = await tx.shortUrl.findUnique({ where });
    if (found) return { shortUrl: found, created: false };
    await requireRoom(tx, request.affiliateId, LINK_CAP);
    return insertShortUrl(tx, request, newCode);
  });
}
