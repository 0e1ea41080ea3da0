// The key's affiliate's short links (decisions.md section 5): the ShortUrl payload, the list and the
// lookup by code, and createShortUrl (POST /affiliate/shortener/url). Links are made by
// src/shortLinks/links.ts (one per affiliate and target, race-free); the public redirect that counts
// their clicks is src/shortLinks/redirect.ts.
import { countArgs, listKey, listTotal } from './listTotals';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { config } from '../config';
import { prisma } from '../db';
import { LinkType, type Prisma } from '../generated/prisma/client';
import { metaPageOf, singleOf } from './envelopes';
import { answerFoundExisting } from '../rest/facade';
import {
  brandDedupeKey,
  campaignShortLink,
  customDedupeKey,
  getOrCreateShortUrl,
  isUrlCode,
  shortUrlOf,
  trackingUrl,
  type ShortLinkRequest,
} from '../shortLinks/links';
import { affiliateIdOf } from './affiliate';
import { builder, keyAuth } from './builder';
import { BadRequestError, NotFoundError, notFound, shown } from '../errors';
import { findPage, pageArgs, pageInfo, resolvePage, sliceArgs, type PageRule } from './pagination';
import { isUuid } from './scalars';
import { MAX_URL_LENGTH } from './inputLimits';
import { dateRange, ofVisibleBrand, visibleOrganization } from './visibility';
import { containing, startingWith } from './textSearch';

export const SHORT_URLS_PAGE: PageRule = { defaultLimit: 10, maxLimit: 100, aboveMax: 'clamp' };

const LinkTypeEnum = builder.enumType(LinkType, {
  name: 'LinkType',
  description:
    "Offer / Coupon: a campaign's link; BrandPage: the brand's website; Custom: a deep link on the brand's site",
});

const ShortUrl = builder.prismaObject('ShortUrl', {
  description: "One of the affiliate's short links",
  fields: (t) => ({
    originalUrl: t.exposeString('originalUrl', {
      description: "Where the link leads, with the affiliate's tracking parameter",
    }),
    shortUrl: t.string({
      description: 'The public short URL',
      select: { urlCode: true },
      resolve: (link) => shortUrlOf(link.urlCode),
    }),
    urlCode: t.exposeString('urlCode', { description: '8 characters base62; the path identifier' }),
    organizationId: t.exposeID('organizationId'),
    active: t.exposeBoolean('active', { description: 'Inactive links do not redirect' }),
    count: t.exposeInt('clickCount', { description: 'Clicks counted by the redirect' }),
    linkType: t.expose('linkType', { type: LinkTypeEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export interface ShortUrlFilter {
  search?: string | null;
  active?: boolean | null;
  organizationId?: string | null;
  type?: LinkType | null;
  startAt?: Date | null;
  endAt?: Date | null;
}

/**
 * `search` matches the original URL or the short URL, any case: a piece of the code, or a short URL
 * (with or without its scheme) whose code starts with what follows the short-link base.
 */
export function shortUrlSearchWhere(
  search: string,
  shortLinkBaseUrl: string = config.shortLinkBaseUrl,
): Prisma.ShortUrlWhereInput {
  const or: Prisma.ShortUrlWhereInput[] = [
    { originalUrl: containing(search) },
    { urlCode: containing(search) },
  ];
  const withoutScheme = (url: string) => url.replace(/^https?:\/\//i, '').toLowerCase();
  const base = `${withoutScheme(shortLinkBaseUrl)}/`;
  const typed = withoutScheme(search);
  if (typed.startsWith(base)) {
    or.push({ urlCode: startingWith(typed.slice(base.length)) });
  }
  return { OR: or };
}

/** The affiliate's links matching the filter; `active` defaults to true (contract). */
export function affiliateShortUrlWhere(
  affiliateId: string,
  filter: ShortUrlFilter,
): Prisma.ShortUrlWhereInput {
  const where: Prisma.ShortUrlWhereInput = { affiliateId, active: filter.active ?? true };
  if (filter.organizationId) where.organizationId = filter.organizationId;
  if (filter.type) where.linkType = filter.type;
  const createdAt = dateRange(filter.startAt, filter.endAt);
  if (createdAt) where.createdAt = createdAt;
  if (filter.search) Object.assign(where, shortUrlSearchWhere(filter.search));
  return where;
}

export const SHORT_URL_ORDER = [
  { createdAt: 'desc' },
  { id: 'desc' },
] satisfies Prisma.ShortUrlOrderByWithRelationInput[];

export interface CreateShortUrlArgs {
  featureId?: string | number | null;
  organizationId?: string | null;
  originalUrl?: string | null;
}

/** What a creation body asks for (decisions.md section 5); any other combination is a 400. */
export type LinkTarget =
  | { kind: 'campaign'; campaignId: string }
  | { kind: 'brandPage'; organizationId: string }
  | { kind: 'custom'; organizationId: string; originalUrl: string };

export function linkTargetOf({
  featureId,
  organizationId,
  originalUrl,
}: CreateShortUrlArgs): LinkTarget {
  if (featureId != null) {
    if (organizationId != null || originalUrl != null) {
      throw new BadRequestError(
        'featureId comes alone: the campaign decides the brand and the URL (no organizationId or originalUrl)',
      );
    }
    return { kind: 'campaign', campaignId: String(featureId) };
  }
  if (originalUrl != null) {
    if (organizationId == null) {
      throw new BadRequestError('originalUrl needs organizationId: the brand whose site it is on');
    }
    return { kind: 'custom', organizationId, originalUrl };
  }
  if (organizationId != null) return { kind: 'brandPage', organizationId };
  throw new BadRequestError(
    'Give featureId (a campaign link), organizationId (a brand page link), or originalUrl with organizationId (a deep link)',
  );
}

/** The host name a brand's links may lead to: its website's, without a leading `www.`. */
function siteHostOf(websiteUrl: string): string | null {
  try {
    const { hostname, protocol } = new URL(websiteUrl);
    if (protocol !== 'http:' && protocol !== 'https:') return null;
    return hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
}

/**
 * A deep link's target, checked: an absolute http(s) URL without credentials, on the brand's site
 * (its website's host or a subdomain of it). Anything else is a 400 naming the reason.
 */
export function deepLinkTarget(originalUrl: string, brandWebsiteUrl: string | null): URL {
  let url: URL;
  try {
    url = new URL(originalUrl);
  } catch {
    throw new BadRequestError('originalUrl must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BadRequestError('originalUrl must be an absolute http(s) URL');
  }
  if (url.username || url.password) {
    throw new BadRequestError('originalUrl must not contain credentials');
  }
  const siteHost = brandWebsiteUrl ? siteHostOf(brandWebsiteUrl) : null;
  if (!siteHost) {
    throw new BadRequestError('organizationId: the brand has no website for deep links to lead to');
  }
  const host = url.hostname.toLowerCase();
  if (host !== siteHost && !host.endsWith(`.${siteHost}`)) {
    throw new BadRequestError(`originalUrl must be on the brand's site (${siteHost})`);
  }
  return url;
}

/** The visible brand a body names, or a 400: a hidden brand cannot be linked to. */
async function visibleBrand(organizationId: string) {
  const brand = isUuid(organizationId)
    ? await prisma.organization.findFirst({
        where: { id: organizationId.toLowerCase(), ...visibleOrganization },
        select: { id: true, websiteUrl: true },
      })
    : null;
  if (!brand) throw new BadRequestError(`organizationId: brand ${shown(organizationId)} not found`);
  return brand;
}

/** The link a valid creation body stands for, ready for getOrCreateShortUrl. */
async function shortLinkRequestFor(
  affiliateId: string,
  target: LinkTarget,
): Promise<ShortLinkRequest> {
  switch (target.kind) {
    case 'campaign': {
      const { campaignId } = target;
      const campaign = isUuid(campaignId)
        ? await prisma.campaign.findFirst({
            where: { id: campaignId.toLowerCase(), ...ofVisibleBrand },
            select: { id: true, organizationId: true, type: true, url: true },
          })
        : null;
      if (!campaign)
        throw new BadRequestError(`featureId: campaign ${shown(campaignId)} not found`);
      try {
        // The same link the campaign listing shows (and makes for Url offers).
        return campaignShortLink(affiliateId, campaign);
      } catch {
        throw new BadRequestError(
          `featureId: campaign ${campaignId} has no web address to link to`,
        );
      }
    }
    case 'brandPage': {
      const brand = await visibleBrand(target.organizationId);
      if (!brand.websiteUrl || !siteHostOf(brand.websiteUrl)) {
        throw new BadRequestError(`organizationId: brand ${brand.id} has no website to link to`);
      }
      return {
        affiliateId,
        organizationId: brand.id,
        linkType: 'BrandPage',
        originalUrl: trackingUrl(brand.websiteUrl, affiliateId),
        dedupeKey: brandDedupeKey(brand.id),
      };
    }
    case 'custom': {
      const brand = await visibleBrand(target.organizationId);
      const url = deepLinkTarget(target.originalUrl, brand.websiteUrl).toString();
      return {
        affiliateId,
        organizationId: brand.id,
        linkType: 'Custom',
        originalUrl: trackingUrl(url, affiliateId),
        dedupeKey: customDedupeKey(brand.id, url),
      };
    }
  }
}

const ShortUrlPage = metaPageOf('ShortUrlPage', ShortUrl);
const ShortUrlResult = singleOf('ShortUrlResult', ShortUrl);

builder.queryFields((t) => ({
  affiliateShortUrls: t.field({
    type: ShortUrlPage,
    description: "GET /affiliate/shortener/urls: the key's affiliate's short links, newest first",
    authScopes: keyAuth('affiliate', 'shortener:read'),
    args: {
      ...pageArgs(SHORT_URLS_PAGE),
      search: t.arg.string({
        description: 'Part of the original URL, or of the short URL or its code; any case',
      }),
      active: t.arg.boolean({ description: 'Active or inactive links. Default true.' }),
      organizationId: t.arg({ type: 'UUID', description: 'One brand' }),
      type: t.arg({ type: LinkTypeEnum, description: 'One link type' }),
      startAt: t.arg({ type: 'DateTime', description: 'Created at or after' }),
      endAt: t.arg({ type: 'DateTime', description: 'Created at or before' }),
    },
    resolve: async (_root, args, context, info) => {
      const page = resolvePage(args, SHORT_URLS_PAGE);
      const where = affiliateShortUrlWhere(affiliateIdOf(context), args);
      const [total, data] = await Promise.all([
        listTotal(listKey(info.fieldName, affiliateIdOf(context), args), (take) =>
          prisma.shortUrl.count(countArgs(where, SHORT_URL_ORDER, take)),
        ),
        findPage(
          page,
          (range) =>
            prisma.shortUrl.findMany({
              where,
              orderBy: SHORT_URL_ORDER,
              ...range,
              select: { id: true },
            }),
          (slice) =>
            prisma.shortUrl.findMany({
              ...queryFromInfo({ context, info, path: ['data'] }),
              ...sliceArgs(where, slice),
              orderBy: SHORT_URL_ORDER,
            }),
        ),
      ]);
      return { data, meta: pageInfo(total, page) };
    },
  }),
  affiliateShortUrl: t.field({
    type: ShortUrlResult,
    description: "GET /affiliate/shortener/urls/{urlCode}: one of the key's affiliate's links",
    authScopes: keyAuth('affiliate', 'shortener:read'),
    args: { urlCode: t.arg.string({ required: true }) },
    resolve: async (_root, args, context, info) => {
      const affiliateId = affiliateIdOf(context);
      // Not a code at all: not found, without a query (and without echoing it).
      if (!isUrlCode(args.urlCode)) throw new NotFoundError('Short URL not found');
      const data = await prisma.shortUrl.findFirst({
        ...queryFromInfo({ context, info, path: ['data'] }),
        where: { urlCode: args.urlCode, affiliateId },
      });
      if (!data) throw notFound('Short URL', String(args.urlCode));
      return { data };
    },
  }),
}));

builder.mutationFields((t) => ({
  createShortUrl: t.field({
    type: ShortUrlResult,
    description:
      "POST /affiliate/shortener/url: the affiliate's link to a campaign (featureId), a brand page (organizationId) or a deep link on the brand's site (originalUrl + organizationId). Made once: the same request again returns the same link (REST: 201, then 200).",
    authScopes: keyAuth('affiliate', 'shortener:write'),
    args: {
      featureId: t.arg.id({ description: 'A campaign id: its Offer or Coupon link' }),
      organizationId: t.arg({
        type: 'UUID',
        description: 'A brand: its BrandPage link, or with originalUrl a Custom deep link',
      }),
      originalUrl: t.arg.string({
        description:
          "A deep link on the brand's site (http or https; the brand's host or a subdomain)",
        extensions: { maxLength: MAX_URL_LENGTH },
      }),
    },
    resolve: async (_root, args, context) => {
      const affiliateId = affiliateIdOf(context);
      const request = await shortLinkRequestFor(affiliateId, linkTargetOf(args));
      const { shortUrl, created } = await getOrCreateShortUrl(request);
      if (!created) answerFoundExisting(context);
      return { data: shortUrl };
    },
  }),
}));
