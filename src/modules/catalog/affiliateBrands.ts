// Brands as the key's affiliate sees them: the partner catalog's visible brands plus the affiliate
// context (commission, favorite, enrolled channels; the brand-page short link is the links
// module's, src/modules/links/catalogLinks.ts). Every context field
// filters its rows by the key's affiliate inside the same query, so one affiliate's rows never
// reach another.
import type { InputShapeFromFields } from '@pothos/core';
import { prisma } from '../../platform/db';
import type { Prisma } from '../../generated/prisma/client';
import { BRAND_ORDER, BrandFields, brandFilterArgs, brandListWhere } from './brands';
import { builder, keyAuth } from '../../schema/builder';
import { CATALOG_BRAND } from './visibility';
import { AffiliateChannel, CHANNELS_ANSWERED, listedChannelWhere } from './channels';
import { affiliateOf, type Context } from '../../schema/context';
import { itemQuery, listQuery } from '../../schema/lists';
import { Commission, type CommissionShape } from '../../schema/money';
import { listOf, searchWork } from '../../schema/complexity';

const affiliateBrandFilterArgs = builder.args((t) => ({
  ...brandFilterArgs,
  isFavorite: t.boolean({
    description: 'true: brands the affiliate marked favorite; false: all the others',
  }),
}));

/** Visible brands matching the partner filters and, when given, the affiliate's favorite flag. */
export function affiliateBrandWhere(
  filter: InputShapeFromFields<typeof affiliateBrandFilterArgs>,
  affiliateId: string,
): Prisma.OrganizationWhereInput {
  const where = brandListWhere(filter);
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
    where: { affiliateId: affiliateOf(context) },
    select: { commissionType: true, commissionValue: true, isFavorite: true },
  }) as const;

export const AffiliateBrand = builder.prismaObject('Organization', {
  variant: 'AffiliateBrand',
  interfaces: [BrandFields],
  description: "A visible brand with the key's affiliate context",
  select: { id: true },
  fields: (t) => ({
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
      description: `The affiliate's channels enrolled in this brand, oldest first, at most ${CHANNELS_ANSWERED}`,
      complexity: listOf(CHANNELS_ANSWERED),
      select: (_args, context, nestedSelection) => ({
        enrolledChannels: {
          where: { channel: listedChannelWhere(affiliateOf(context)) },
          orderBy: [{ channel: { createdAt: 'asc' } }, { channelId: 'asc' }],
          take: CHANNELS_ANSWERED,
          select: { channel: nestedSelection(true) },
        },
      }),
      resolve: (brand) => brand.enrolledChannels.map((enrollment) => enrollment.channel),
    }),
  }),
});

listQuery('affiliateBrands', {
  item: AffiliateBrand,
  envelope: 'pagination',
  type: 'AffiliateBrandPage',
  description: 'GET /affiliate/brands: visible brands with the affiliate context, by name',
  auth: keyAuth('affiliate', 'brands:read'),
  page: { defaultLimit: 20, maxLimit: 20, aboveMax: 'clamp' },
  args: affiliateBrandFilterArgs,
  rows: prisma.organization,
  order: BRAND_ORDER,
  work: ({ search }) => searchWork(search),
  where: (filter, { affiliateId }) => affiliateBrandWhere(filter, affiliateId),
});

itemQuery('affiliateBrand', {
  item: AffiliateBrand,
  type: 'AffiliateBrandResult',
  description: 'GET /affiliate/brands/{brandId}: one visible brand with the affiliate context',
  auth: keyAuth('affiliate', 'brands:read'),
  idArg: 'brandId',
  what: 'Brand',
  rows: prisma.organization,
  where: (id) => ({ id, ...CATALOG_BRAND }),
});
