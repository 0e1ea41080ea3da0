// The key's affiliate's short links: the ShortUrl payload, the list and the lookup by code, and
// createShortUrl (POST /affiliate/shortener/url). Links are made by ./links.ts (one per affiliate
// and target, race-free); the public redirect that counts their clicks is ./redirect.ts.
import type { InputShapeFromFields } from '@pothos/core';
import { config } from '../../platform/config';
import { prisma } from '../../platform/db';
import { LinkType, type Prisma } from '../../generated/prisma/client';
import {
  getOrCreateShortUrlWithinCap,
  isUrlCode,
  MAX_ACTIVE_LINKS_PER_AFFILIATE,
  shortUrlOf,
} from './links';
import { linkTargetOf, shortLinkRequestFor } from './targets';
import { builder, keyAuth } from '../../schema/builder';
import { containing, dateRange, startingWith } from '../../schema/filters';
import { MAX_URL_LENGTH } from '../../schema/inputLimits';
import { itemQuery, listQuery } from '../../schema/lists';
import { searchWork } from '../../schema/complexity';

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

const shortUrlFilterArgs = builder.args((t) => ({
  search: t.string({
    description: 'Part of the original URL, or of the short URL or its code; any case',
  }),
  active: t.boolean({
    description: 'Active or inactive links',
    required: true,
    defaultValue: true,
  }),
  organizationId: t.field({ type: 'UUID', description: 'One brand' }),
  type: t.field({ type: LinkTypeEnum, description: 'One link type' }),
  startAt: t.field({ type: 'DateTime', description: 'Created at or after' }),
  endAt: t.field({ type: 'DateTime', description: 'Created at or before' }),
}));

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

/** The affiliate's links matching the filter. */
export function affiliateShortUrlWhere(
  affiliateId: string,
  filter: InputShapeFromFields<typeof shortUrlFilterArgs>,
): Prisma.ShortUrlWhereInput {
  const where: Prisma.ShortUrlWhereInput = { affiliateId, active: filter.active };
  if (filter.organizationId) where.organizationId = filter.organizationId;
  if (filter.type) where.linkType = filter.type;
  const createdAt = dateRange(filter.startAt, filter.endAt);
  if (createdAt) where.createdAt = createdAt;
  if (filter.search) Object.assign(where, shortUrlSearchWhere(filter.search));
  return where;
}

/** Short link lists: newest first. */
export const SHORT_URL_ORDER = [
  { createdAt: 'desc' },
  { id: 'desc' },
] satisfies Prisma.ShortUrlOrderByWithRelationInput[];

listQuery('affiliateShortUrls', {
  item: ShortUrl,
  envelope: 'meta',
  type: 'ShortUrlPage',
  description: "GET /affiliate/shortener/urls: the key's affiliate's short links, newest first",
  auth: keyAuth('affiliate', 'shortener:read'),
  page: { defaultLimit: 10, maxLimit: 100, aboveMax: 'clamp' },
  args: shortUrlFilterArgs,
  rows: prisma.shortUrl,
  order: SHORT_URL_ORDER,
  work: ({ search }) => searchWork(search),
  where: (filter, { affiliateId }) => affiliateShortUrlWhere(affiliateId, filter),
});

const ShortUrlResult = itemQuery('affiliateShortUrl', {
  item: ShortUrl,
  type: 'ShortUrlResult',
  description: "GET /affiliate/shortener/urls/{urlCode}: one of the key's affiliate's links",
  auth: keyAuth('affiliate', 'shortener:read'),
  idArg: 'urlCode',
  idType: 'String',
  what: 'Short URL',
  rows: prisma.shortUrl,
  isId: isUrlCode,
  where: (urlCode, { affiliateId }) => ({ urlCode, affiliateId }),
});

builder.mutationField('createShortUrl', (t) =>
  t.withAuth(keyAuth('affiliate', 'shortener:write')).field({
    type: ShortUrlResult,
    description: `POST /affiliate/shortener/url: the affiliate's link to a campaign (featureId), a brand page (organizationId) or a deep link on the brand's site (originalUrl + organizationId). Made once: the same request again returns the same link (REST: 201, then 200). An affiliate holds at most ${MAX_ACTIVE_LINKS_PER_AFFILIATE} active links: a new one past that is a 400.`,
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
      const request = await shortLinkRequestFor(context.affiliateId, linkTargetOf(args));
      const { shortUrl, created } = await getOrCreateShortUrlWithinCap(request);
      // The REST route answers 201 for a new link, 200 for the one that was there.
      if (!created && context.rest) context.rest.foundExisting = true;
      return { data: shortUrl };
    },
  }),
);
