// Brands (= organizations) of the catalog. The partner view carries no affiliate context.
import { countArgs, listKey, listTotal, type CountRows } from './listTotals';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { prisma } from '../db';
import type { Prisma } from '../generated/prisma/client';
import { metaPageOf, singleOf } from './envelopes';
import { builder, keyAuth } from './builder';
import { notFound } from '../errors';
import {
  findPage,
  pageArgs,
  pageInfo,
  resolvePage,
  sliceArgs,
  type Page,
  type PageRule,
  type RowSelection,
} from './pagination';
import { isUuid } from './scalars';
import { dateRange, visibleOrganization } from './visibility';
import { containing } from './textSearch';

const PARTNER_BRANDS_PAGE: PageRule = { defaultLimit: 20, maxLimit: 20, aboveMax: 'clamp' };

export const PartnerBrand = builder.prismaObject('Organization', {
  variant: 'PartnerBrand',
  description:
    'A visible brand of the partner catalog: no channels, short URLs, commission or favorite',
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
  }),
});

/** Filters shared by the partner and affiliate brand lists. */
export const brandFilterArgs = builder.args((t) => ({
  search: t.string({ description: 'Part of the brand name, any case' }),
  categories: t.stringList({ description: 'Brands in any of these categories' }),
  isExclusive: t.boolean(),
  isHighlight: t.boolean(),
  isPublic: t.boolean(),
  startAt: t.field({ type: 'DateTime', description: 'Created at or after' }),
  endAt: t.field({ type: 'DateTime', description: 'Created at or before' }),
}));

export interface BrandFilter {
  search?: string | null;
  categories?: string[] | null;
  isExclusive?: boolean | null;
  isHighlight?: boolean | null;
  isPublic?: boolean | null;
  startAt?: Date | null;
  endAt?: Date | null;
}

export function visibleBrandWhere(filter: BrandFilter): Prisma.OrganizationWhereInput {
  const where: Prisma.OrganizationWhereInput = { ...visibleOrganization };
  if (filter.search) where.name = containing(filter.search);
  if (filter.categories?.length) where.categories = { hasSome: filter.categories };
  for (const trait of ['isExclusive', 'isHighlight', 'isPublic'] as const) {
    const value = filter[trait];
    if (value !== null && value !== undefined) where[trait] = value;
  }
  const createdAt = dateRange(filter.startAt, filter.endAt);
  if (createdAt) where.createdAt = createdAt;
  return where;
}

export const BRAND_ORDER = [
  { name: 'asc' },
  { id: 'asc' },
] satisfies Prisma.OrganizationOrderByWithRelationInput[];

/** A page of a brand or organization list, in list order (deep pages found by their ids). */
export function findOrganizationPage(
  page: Page,
  where: Prisma.OrganizationWhereInput,
  selection: RowSelection,
) {
  return findPage(
    page,
    (range) =>
      prisma.organization.findMany({ where, orderBy: BRAND_ORDER, ...range, select: { id: true } }),
    (slice) =>
      prisma.organization.findMany({
        ...selection,
        ...sliceArgs(where, slice),
        orderBy: BRAND_ORDER,
      }),
  );
}

/** Counts a brand or organization list (for `listTotal`). */
export function organizationCounter(where: Prisma.OrganizationWhereInput): CountRows {
  return (take) => prisma.organization.count(countArgs(where, BRAND_ORDER, take));
}

/** The visible brand with this id; a non-UUID id cannot exist, so it is not found either. */
export function visibleBrandById(brandId: string): Prisma.OrganizationWhereInput {
  if (!isUuid(brandId)) throw notFound('Brand', brandId);
  return { id: brandId.toLowerCase(), ...visibleOrganization };
}

const PartnerBrandPage = metaPageOf('PartnerBrandPage', PartnerBrand);
const PartnerBrandResult = singleOf('PartnerBrandResult', PartnerBrand);

builder.queryFields((t) => ({
  partnerBrands: t.field({
    type: PartnerBrandPage,
    description: 'GET /api/partner/brands: visible catalog brands, by name',
    authScopes: keyAuth('partner', 'brands:read'),
    args: { ...pageArgs(PARTNER_BRANDS_PAGE), ...brandFilterArgs },
    resolve: async (_root, args, context, info) => {
      const page = resolvePage(args, PARTNER_BRANDS_PAGE);
      const where = visibleBrandWhere(args);
      const [total, data] = await Promise.all([
        listTotal(listKey(info.fieldName, null, args), organizationCounter(where)),
        findOrganizationPage(page, where, queryFromInfo({ context, info, path: ['data'] })),
      ]);
      return { data, meta: pageInfo(total, page) };
    },
  }),
  partnerBrand: t.field({
    type: PartnerBrandResult,
    description: 'GET /api/partner/brands/{brandId}: one visible catalog brand',
    authScopes: keyAuth('partner', 'brands:read'),
    args: { brandId: t.arg.id({ required: true }) },
    resolve: async (_root, args, context, info) => {
      const data = await prisma.organization.findFirst({
        ...queryFromInfo({ context, info, path: ['data'] }),
        where: visibleBrandById(String(args.brandId)),
      });
      if (!data) throw notFound('Brand', String(args.brandId));
      return { data };
    },
  }),
}));
