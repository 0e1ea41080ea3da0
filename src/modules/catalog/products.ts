// Products of visible brands, for the affiliate to promote. Money in `currency`, with its decimals.
import type { InputShapeFromFields } from '@pothos/core';
import {
  CURRENCIES_BY_EXPONENT,
  DEFAULT_EXPONENT,
  fromMinor,
  scaledToMinor,
} from '../../platform/currencies';
import { prisma } from '../../platform/db';
import { BadRequestError } from '../../platform/errors';
import type { Prisma, ProductVariant as ProductVariantRow } from '../../generated/prisma/client';
import { OrganizationSummary } from './brands';
import { builder, keyAuth } from '../../schema/builder';
import { IN_CATALOG } from './visibility';
import { containing } from '../../schema/filters';
import { listQuery } from '../../schema/lists';
import { listOf, searchWork } from '../../schema/complexity';

/**
 * What a product answers at most, in their order: generous for any catalog (an apparel product's
 * sizes times colours), and a bound on what one product can add to an answer (the operation cost
 * prices every product at these).
 */
export const MAX_PRODUCT_VARIANTS = 50;
export const MAX_PRODUCT_SPECIFICATIONS = 50;
export const MAX_VARIANT_ATTRIBUTES = 10;

// Prices are Int (int4) columns: a larger bound matches like the largest storable price, and never
// reaches the database as a value it would refuse.
const MAX_STORED_MINOR = 2 ** 31 - 1;

const productFilterArgs = builder.args((t) => ({
  search: t.string({ description: 'Part of the name or SKU, any case' }),
  organizationId: t.field({ type: 'UUID', description: 'One brand' }),
  minPrice: t.float({
    description:
      "Effective price (sale price when set) at least, as the price is answered: in the product's currency",
  }),
  maxPrice: t.float({
    description:
      "Effective price (sale price when set) at most, as the price is answered: in the product's currency",
  }),
  available: t.boolean(),
  categories: t.stringList({ description: 'Products in any of these categories' }),
}));

/** The currencies of each exponent a price filter converts its bounds for, the default's last. */
const PRICE_CURRENCY_GROUPS = [...CURRENCIES_BY_EXPONENT].map(([exponent, codes]) => ({
  exponent,
  currency: { in: [...codes] },
}));
const ALL_OTHER_CURRENCIES = {
  exponent: DEFAULT_EXPONENT,
  currency: { notIn: [...CURRENCIES_BY_EXPONENT.values()].flat() },
};

/**
 * Products whose effective price (salePrice when set, else price) lies within the bounds, read as
 * each product's price is answered: in its currency's major units (minPrice=1500 is 1,500 yen for
 * a JPY product and 1,500.00 euros for a EUR one), so each group of currencies with the same
 * decimals compares its own minor units.
 */
export function effectivePriceWhere(
  minPrice?: number | null,
  maxPrice?: number | null,
): Prisma.ProductWhereInput | undefined {
  for (const [name, value] of [
    ['minPrice', minPrice],
    ['maxPrice', maxPrice],
  ] as const) {
    if (typeof value === 'number' && value < 0) throw new BadRequestError(`${name} must be >= 0`);
  }
  const hasMin = typeof minPrice === 'number';
  const hasMax = typeof maxPrice === 'number';
  if (hasMin && hasMax && minPrice > maxPrice) {
    throw new BadRequestError('minPrice must not be greater than maxPrice');
  }
  if (!hasMin && !hasMax) return undefined;
  return {
    OR: [...PRICE_CURRENCY_GROUPS, ALL_OTHER_CURRENCIES].map(({ exponent, currency }) => {
      const bound = (amount: number, rounding: 'up' | 'down') =>
        Math.min(scaledToMinor(amount, exponent, rounding), MAX_STORED_MINOR);
      const bounds = {
        ...(hasMin && { gte: bound(minPrice, 'up') }),
        ...(hasMax && { lte: bound(maxPrice, 'down') }),
      };
      return {
        currency,
        OR: [{ salePriceMinor: bounds }, { salePriceMinor: null, priceMinor: bounds }],
      };
    }),
  };
}

/** Products of visible brands matching the filter; every filter narrows the list (AND). */
export function productWhere(
  filter: InputShapeFromFields<typeof productFilterArgs>,
): Prisma.ProductWhereInput {
  const and: Prisma.ProductWhereInput[] = [IN_CATALOG];
  if (filter.search) {
    and.push({ OR: [{ name: containing(filter.search) }, { sku: containing(filter.search) }] });
  }
  if (filter.organizationId) and.push({ organizationId: filter.organizationId });
  const price = effectivePriceWhere(filter.minPrice, filter.maxPrice);
  if (price) and.push(price);
  if (typeof filter.available === 'boolean') and.push({ available: filter.available });
  if (filter.categories?.length) and.push({ categories: { hasSome: filter.categories } });
  return { AND: and };
}

/** Product lists: newest first. */
export const PRODUCT_ORDER = [
  { createdAt: 'desc' },
  { id: 'desc' },
] satisfies Prisma.ProductOrderByWithRelationInput[];

export interface NameValue {
  name: string;
  value: string;
}

function isJsonObject(value: Prisma.JsonValue): value is Prisma.JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(value: Prisma.JsonValue | undefined): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

/**
 * `[{ name, value }]` from the specifications column, the first MAX_PRODUCT_SPECIFICATIONS;
 * malformed entries are left out.
 */
export function specificationsOf(json: Prisma.JsonValue): NameValue[] {
  if (!Array.isArray(json)) return [];
  return json
    .flatMap((entry) => {
      if (!isJsonObject(entry) || typeof entry.name !== 'string') return [];
      const value = textOf(entry.value);
      return value === null ? [] : [{ name: entry.name, value }];
    })
    .slice(0, MAX_PRODUCT_SPECIFICATIONS);
}

/**
 * `{ color: "red" }` -> `[{ name: "color", value: "red" }]`, the first MAX_VARIANT_ATTRIBUTES;
 * non-scalar values are left out.
 */
export function attributesOf(json: Prisma.JsonValue): NameValue[] {
  if (!isJsonObject(json)) return [];
  return Object.entries(json)
    .flatMap(([name, raw]) => {
      const value = textOf(raw);
      return value === null ? [] : [{ name, value }];
    })
    .slice(0, MAX_VARIANT_ATTRIBUTES);
}

const ProductProperty = builder.objectRef<NameValue>('ProductProperty').implement({
  description: 'A named text value of a product: a specification or a variant attribute',
  fields: (t) => ({
    name: t.exposeString('name'),
    value: t.exposeString('value'),
  }),
});

/** A product's variant with the product's currency, which its price is in. */
type VariantOfProduct = ProductVariantRow & { currency: string };

const ProductVariant = builder.objectRef<VariantOfProduct>('ProductVariant').implement({
  description: "A variant of a product, priced in the product's currency",
  fields: (t) => ({
    id: t.id({ resolve: (v) => v.id }),
    sku: t.string({ resolve: (v) => v.sku }),
    name: t.string({ resolve: (v) => v.name }),
    price: t.float({ resolve: (v) => fromMinor(v.priceMinor, v.currency) }),
    stock: t.int({ resolve: (v) => v.stock }),
    attributes: t.field({
      type: [ProductProperty],
      description: `What sets the variant apart, as name/value pairs (size: M, color: red), the first ${MAX_VARIANT_ATTRIBUTES}`,
      complexity: listOf(MAX_VARIANT_ATTRIBUTES),
      resolve: (variant) => attributesOf(variant.attributes),
    }),
  }),
});

const Product = builder.prismaObject('Product', {
  description:
    "A product of a visible brand; money in `currency`, with the currency's decimals (ISO 4217: 0 for JPY, 2 for EUR, 3 for BHD)",
  fields: (t) => ({
    id: t.exposeID('id'),
    organizationId: t.exposeID('organizationId'),
    organization: t.relation('organization', { type: OrganizationSummary }),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    sku: t.exposeString('sku'),
    url: t.exposeString('url'),
    price: t.float({ resolve: (p) => fromMinor(p.priceMinor, p.currency) }),
    salePrice: t.float({
      nullable: true,
      resolve: (p) => (p.salePriceMinor === null ? null : fromMinor(p.salePriceMinor, p.currency)),
    }),
    currency: t.exposeString('currency', { description: 'ISO 4217 code' }),
    stock: t.exposeInt('stock'),
    available: t.exposeBoolean('available'),
    images: t.exposeStringList('images', { description: 'Image URLs' }),
    specifications: t.field({
      type: [ProductProperty],
      description: `The first ${MAX_PRODUCT_SPECIFICATIONS}`,
      complexity: listOf(MAX_PRODUCT_SPECIFICATIONS),
      resolve: (p) => specificationsOf(p.specifications),
    }),
    variants: t.field({
      type: [ProductVariant],
      description: `In position order, the first ${MAX_PRODUCT_VARIANTS}`,
      select: {
        variants: { orderBy: [{ position: 'asc' }, { id: 'asc' }], take: MAX_PRODUCT_VARIANTS },
      },
      complexity: listOf(MAX_PRODUCT_VARIANTS),
      // A variant's price is in the product's currency, which a variant does not store.
      resolve: (p) => p.variants.map((variant) => ({ ...variant, currency: p.currency })),
    }),
    categories: t.exposeStringList('categories'),
  }),
});

listQuery('affiliateProducts', {
  item: Product,
  envelope: 'count',
  type: 'AffiliateProductList',
  description:
    'GET /affiliate/products: products of visible brands, newest first; `count` is the number of matching products',
  auth: keyAuth('affiliate', 'products:read'),
  // Contract: products `limit` is 1..100, anything else is a 400 (not clamped).
  page: { defaultLimit: 5, maxLimit: 100, aboveMax: 'reject' },
  args: productFilterArgs,
  rows: prisma.product,
  order: PRODUCT_ORDER,
  work: ({ search }) => searchWork(search),
  where: productWhere,
});
