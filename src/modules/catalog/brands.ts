// Brands (= organizations) of the catalog: the fields every view of a brand shares, the brand list
// filter, the partner catalog's brands and its organization directory, and the summary of a brand
// that campaigns, orders and products embed. The partner view carries no affiliate context.
import type { InputShapeFromFields } from '@pothos/core';
import { prisma } from '../../platform/db';
import type { Prisma } from '../../generated/prisma/client';
import { builder, keyAuth } from '../../schema/builder';
import { CATALOG_BRAND } from './visibility';
import { containing, dateRange } from '../../schema/filters';
import { itemQuery, listQuery } from '../../schema/lists';
import { searchWork } from '../../schema/complexity';

/** Brand and organization lists: by name, then id. */
export const BRAND_ORDER = [
  { name: 'asc' },
  { id: 'asc' },
] satisfies Prisma.OrganizationOrderByWithRelationInput[];

/** Fields every view of a brand shares. */
export const BrandFields = builder.prismaInterface('Organization', {
  name: 'Brand',
  // Only the columns a query asks for are read.
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
  }),
});

/** The brand a campaign, order or product belongs to. */
export const OrganizationSummary = builder.prismaObject('Organization', {
  variant: 'OrganizationSummary',
  description: 'The brand a campaign, order or product belongs to',
  // Only the columns a query asks for are read: a list's relation join builds this for every row.
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    logoUrl: t.exposeString('logoUrl', { nullable: true }),
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

export type BrandFilter = InputShapeFromFields<typeof brandFilterArgs>;

/** Catalog brands matching the filter; every filter narrows the list (AND). */
export function brandListWhere(filter: BrandFilter): Prisma.OrganizationWhereInput {
  const where: Prisma.OrganizationWhereInput = { ...CATALOG_BRAND };
  if (filter.search) where.name = containing(filter.search);
  if (filter.categories?.length) where.categories = { hasSome: filter.categories };
  for (const trait of ['isExclusive', 'isHighlight', 'isPublic'] as const) {
    const value = filter[trait];
    if (typeof value === 'boolean') where[trait] = value;
  }
  const createdAt = dateRange(filter.startAt, filter.endAt);
  if (createdAt) where.createdAt = createdAt;
  return where;
}

const PartnerBrand = builder.prismaObject('Organization', {
  variant: 'PartnerBrand',
  interfaces: [BrandFields],
  select: { id: true },
  description:
    'A visible brand of the partner catalog: no channels, short URLs, commission or favorite',
  fields: () => ({}),
});

listQuery('partnerBrands', {
  item: PartnerBrand,
  envelope: 'meta',
  type: 'PartnerBrandPage',
  description: 'GET /api/partner/brands: visible catalog brands, by name',
  auth: keyAuth('partner', 'brands:read'),
  page: { defaultLimit: 20, maxLimit: 20, aboveMax: 'clamp' },
  args: brandFilterArgs,
  rows: prisma.organization,
  order: BRAND_ORDER,
  work: ({ search }) => searchWork(search),
  where: brandListWhere,
});

itemQuery('partnerBrand', {
  item: PartnerBrand,
  type: 'PartnerBrandResult',
  description: 'GET /api/partner/brands/{brandId}: one visible catalog brand',
  auth: keyAuth('partner', 'brands:read'),
  idArg: 'brandId',
  what: 'Brand',
  rows: prisma.organization,
  where: (id) => ({ id, ...CATALOG_BRAND }),
});

const PartnerOrganization = builder.prismaObject('Organization', {
  variant: 'PartnerOrganization',
  description: 'A visible organization of the partner catalog directory',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    slug: t.exposeString('slug'),
    logoUrl: t.exposeString('logoUrl', { nullable: true }),
    websiteUrl: t.exposeString('websiteUrl', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

listQuery('partnerOrganizations', {
  item: PartnerOrganization,
  envelope: 'meta',
  type: 'PartnerOrganizationPage',
  description: 'GET /api/partner/organizations: visible organizations, by name',
  auth: keyAuth('partner', 'organizations:read'),
  page: { defaultLimit: 20, maxLimit: 100, aboveMax: 'clamp' },
  args: builder.args((t) => ({
    search: t.string({ description: 'Part of the organization name, any case' }),
  })),
  rows: prisma.organization,
  order: BRAND_ORDER,
  work: ({ search }) => searchWork(search),
  where: ({ search }) => ({ ...CATALOG_BRAND, ...(search && { name: containing(search) }) }),
});
