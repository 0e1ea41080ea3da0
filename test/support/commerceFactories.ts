// Orders and products for tests, created on the real client with sensible defaults; each call
// makes new rows. Money in minor units and rates in basis points, as stored.
import { prisma } from '../../src/db';
import type { Prisma } from '../../src/generated/prisma/client';

let sequence = 0;
const next = () => (sequence += 1);

export type OrderItemInput = Partial<Prisma.OrderItemCreateManyOrderInput>;

/** An order of `affiliateId` with `organizationId`; items are positioned in the order given unless they say otherwise. */
export async function createOrder(
  affiliateId: string,
  organizationId: string,
  data: Partial<Prisma.OrderUncheckedCreateInput> = {},
  items: OrderItemInput[] = [],
) {
  const n = next();
  return prisma.order.create({
    data: {
      orderNumber: `ORD-${String(n).padStart(5, '0')}`,
      affiliateId,
      organizationId,
      status: 'PENDING',
      currency: 'EUR',
      transactionValueMinor: 10000,
      commissionRateBps: 500,
      earningsMinor: 500,
      orderedAt: new Date(),
      ...data,
      items: {
        create: items.map((item, position) => ({
          sku: `SKU-${n}-${position + 1}`,
          name: `Item ${position + 1}`,
          quantity: 1,
          unitPriceMinor: 10000,
          totalMinor: 10000,
          commissionRateBps: 500,
          commissionValueMinor: 500,
          position,
          ...item,
        })),
      },
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
