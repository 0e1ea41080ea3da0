// What brands publish: the brands themselves, their campaigns and products.
import { prisma } from '../../../src/platform/db';
import type { Prisma } from '../../../src/generated/prisma/client';
import { next } from './sequence';

export const VISIBLE = {
  onboardingStatus: 'COMPLETED',
  approvalStatus: 'APPROVED',
  isActive: true,
  isVisible: true,
} as const;

const DAY = 24 * 60 * 60 * 1000;

export const days = (count: number) => new Date(Date.now() + count * DAY);

/**
 * The lock period of the factory's brands: long enough that the orders tests place years back
 * still change, unless a test gives the brand its own.
 */
export const TEST_ORDER_LOCK_DAYS = 36_500;

/** A brand in the catalog unless `data` says otherwise. */
export async function createBrand(data: Partial<Prisma.OrganizationCreateInput> = {}) {
  const n = next();
  return prisma.organization.create({
    data: {
      name: `Brand ${String(n).padStart(4, '0')}`,
      slug: `brand-${n}`,
      websiteUrl: `https://brand-${n}.example`,
      categories: [],
      orderLockDays: TEST_ORDER_LOCK_DAYS,
      ...VISIBLE,
      ...data,
    },
  });
}

/** A running Url offer of `organizationId`; `client` is a transaction's where the test needs one. */
export async function createCampaign(
  organizationId: string,
  data: Partial<Prisma.CampaignUncheckedCreateInput> = {},
  client: Prisma.TransactionClient = prisma,
) {
  const n = next();
  return client.campaign.create({
    data: {
      organizationId,
      name: `Campaign ${n}`,
      type: 'Offer',
      offerType: 'Url',
      url: `https://shop.example/c/${n}`,
      categories: [],
      startAt: days(-10),
      endAt: days(10),
      ...data,
    },
  });
}

export type VariantInput = Partial<Prisma.ProductVariantCreateManyProductInput>;

/** A product of `organizationId`; variants are positioned in the order given unless they say otherwise. */
export async function createProduct(
  organizationId: string,
  data: Partial<Prisma.ProductUncheckedCreateInput> = {},
  variants: VariantInput[] = [],
) {
  const n = next();
  return prisma.product.create({
    data: {
      organizationId,
      name: `Product ${String(n).padStart(4, '0')}`,
      sku: `P-${String(n).padStart(5, '0')}`,
      url: `https://shop.example/p/${n}`,
      priceMinor: 1000,
      currency: 'EUR',
      stock: 10,
      images: [],
      categories: [],
      ...data,
      variants: {
        create: variants.map((variant, position) => ({
          sku: `P-${n}-V${position + 1}`,
          name: `Variant ${position + 1}`,
          priceMinor: 1000,
          position,
          ...variant,
        })),
      },
    },
  });
}
