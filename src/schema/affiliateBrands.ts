// Brands as the key's affiliate sees them: the partner catalog's visible brands plus the affiliate
// context (commission, favorite, enrolled channels, brand-page short link). Every context field
// filters its rows by the key's affiliate inside the same query, so one affiliate's rows never
// reach another.
import { listKey, listTotal } from './listTotals';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { prisma } from '../db';
import type { Prisma } from '../generated/prisma/client';
import { paginationPageOf, singleOf } from './envelopes';
import { affiliateIdOf } from './affiliate';
import {
  brandFilterArgs,
  findOrganizationPage,
  organizationCounter,
  visibleBrandById,
  visibleBrandWhere,
  type BrandFilter,
} from './brands';
import { builder, keyAuth } from './builder';
import { AffiliateChannel, listedChannelWhere } from './channels';
import type { Context } from './context';
import { notFound } from '../errors';
import { Commission, type CommissionShape } from './money';
import { pageArgs, pageInfo, resolvePage, type PageRule } from './pagination';
import { shortUrlOf } from '../shortLinks/links';

const AFFILIATE_BRANDS_PAGE: PageRule = { defaultLimit: 20, maxLimit: 20, aboveMax: 'clamp' };

export interface AffiliateBrandFilter extends BrandFilter {
  /** true: the brands the affiliate marked favorite; false: all the others. */
  isFavorite?: boolean | null;
}

/** Visible brands matching the partner filters and, when given, the affiliate's favorite flag. */
export function affiliateBrandWhere(
  filter: AffiliateBrandFilter,
  affiliateId: string,
): Prisma.OrganizationWhereInput {
  const where = visibleBrandWhere(filter);
  if (typeof filter.isFavorite !== 'boolean') return where;
  const favorite: Prisma.OrganizationWhereInput = {
    affiliates: { some: { affiliateId, isFavorite: true } },
  };
  return { AND: [where, filter.isFavorite ? favorite : { NOT: favorite }] };
}

/** The commission the affiliate earns: the negotiated one, else the brand's default. */
export function effectiveCommission(brand: {
  defaultCommissionType: CommissionShape['type'];
  defaultCommissionValue: number;
  affiliates: { commissionType: CommissionShape['type']; commissionValue: number }[];
}): CommissionShape {
  const negotiated = brand.affiliates[0];
  return negotiated
    ? { type: negotiated.commissionType, stored: negotiated.commissionValue }
    : { type: brand.defaultCommissionType, stored: brand.defaultCommissionValue };
}

// One selection for `commission` and `isFavorite`: identical relation queries are merged into one,
// where differing ones would make Pothos load the relation again.
const affiliateRelation = (context: Context) =>
  ({
    where: { affiliateId: affiliateIdOf(context) },
    select: { commissionType: true, commissionValue: true, isFavorite: true },
  }) as const;

export const AffiliateBrand = builder.prismaObject('Organization', {
  variant: 'AffiliateBrand',
  description: "A visible brand with the key's affiliate context",
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    slug: t.exposeString('slug'),
    description: t.exposeString('description', { nullable: true }),
    logoUrl: t.exposeString('logoUrl', { nullable: true }),
    websiteUrl: t.exposeString('websiteUrl', { nullable: true }),
    categories: t.exposeStringList('categories'),
    isExclusive: t.exposeBoolean('isExclusive'),
    isHighlight: t.exposeBoolean('isHighlight'),
    isPublic: t.exposeBoolean('isPublic'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    commission: t.field({
      type: Commission,
      description: "The affiliate's negotiated commission, else the brand's default",
      select: (_args, context) => ({
        defaultCommissionType: true,
        defaultCommissionValue: true,
        affiliates: affiliateRelation(context),
      }),
      resolve: (brand) => effectiveCommission(brand),
    }),
    isFavorite: t.boolean({
      description: 'Whether the affiliate marked this brand favorite',
      select: (_args, context) => ({ affiliates: affiliateRelation(context) }),
      resolve: (brand) => brand.affiliates[0]?.isFavorite ?? false,
    }),
    channels: t.field({
      type: [AffiliateChannel],
      description: "The affiliate's channels enrolled in this brand, oldest first",
      select: (_args, context, nestedSelection) => ({
        enrolledChannels: {
          where: { channel: listedChannelWhere(affiliateIdOf(context)) },
          orderBy: [{ channel: { createdAt: 'asc' } }, { channelId: 'asc' }],
          select: { channel: nestedSelection(true) },
        },
      }),
      resolve: (brand) => brand.enrolledChannels.map((enrollment) => enrollment.channel),
    }),
    shortUrl: t.string({
      nullable: true,
      description: "The affiliate's active brand-page short link, or null",
      select: (_args, context) => ({
        shortUrls: {
          where: { affiliateId: affiliateIdOf(context), linkType: 'BrandPage', active: true },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: 1,
          select: { urlCode: true },
        },
      }),
      resolve: (brand) => {
        const link = brand.shortUrls[0];
        return link ? shortUrlOf(link.urlCode) : null;
      },
    }),
  }),
});

const AffiliateBrandPage = paginationPageOf('AffiliateBrandPage', AffiliateBrand);
const AffiliateBrandResult = singleOf('AffiliateBrandResult', AffiliateBrand);

builder.queryFields((t) => ({
  affiliateBrands: t.field({
    type: AffiliateBrandPage,
    description: 'GET /affiliate/brands: visible brands with the affiliate context, by name',
    authScopes: keyAuth('affiliate', 'brands:read'),
    args: {
      ...pageArgs(AFFILIATE_BRANDS_PAGE),
      ...brandFilterArgs,
      isFavorite: t.arg.boolean({
        description: 'true: brands the affiliate marked favorite; false: all the others',
      }),
    },
    resolve: async (_root, args, context, info) => {
      const page = resolvePage(args, AFFILIATE_BRANDS_PAGE);
      const where = affiliateBrandWhere(args, affiliateIdOf(context));
      const [total, data] = await Promise.all([
        listTotal(
          listKey(info.fieldName, affiliateIdOf(context), args),
          organizationCounter(where),
        ),
        findOrganizationPage(page, where, queryFromInfo({ context, info, path: ['data'] })),
      ]);
      return { data, pagination: pageInfo(total, page) };
    },
  }),
  affiliateBrand: t.field({
    type: AffiliateBrandResult,
    description: 'GET /affiliate/brands/{brandId}: one visible brand with the affiliate context',
    authScopes: keyAuth('affiliate', 'brands:read'),
    args: { brandId: t.arg.id({ required: true }) },
    resolve: async (_root, args, context, info) => {
      affiliateIdOf(context); // 404 for a closed affiliate account, as on every affiliate route
      const data = await prisma.organization.findFirst({
        ...queryFromInfo({ context, info, path: ['data'] }),
        where: visibleBrandById(String(args.brandId)),
      });
      if (!data) throw notFound('Brand', String(args.brandId));
      return { data };
    },
  }),
}));
