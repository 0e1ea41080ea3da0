// Orders, with money in minor units and rates in basis points, as stored.
import { prisma } from '../../../src/platform/db';
import type { Prisma } from '../../../src/generated/prisma/client';
import { next } from './sequence';

export type OrderItemInput = Partial<Prisma.OrderItemCreateManyOrderInput>;

/**
 * An order of `affiliateId` with `organizationId`; items are positioned in the order given unless
 * they say otherwise. A rejected one has a reason (the database requires one) unless it says.
 */
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
      ...(data.status === 'REJECTED' && { statusReason: 'OTHER' }),
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

/**
 * Approves an order and records a new one (`orderNumber`) in SQL, in one transaction that is then
 * rolled back: nothing of it may be seen.
 */
export async function rolledBackOrderChanges(
  order: { id: string; affiliateId: string; organizationId: string },
  orderNumber: string,
): Promise<void> {
  const rolledBack = new Error('rolled back');
  await expect(
    prisma.$transaction(async (tx) => {
      await tx.$executeRaw`UPDATE "Order" SET "status" = 'APPROVED' WHERE "id" = ${order.id}::uuid`;
      await tx.order.create({
        data: {
          orderNumber,
          affiliateId: order.affiliateId,
          organizationId: order.organizationId,
          status: 'PENDING',
          currency: 'EUR',
          transactionValueMinor: 1,
          commissionRateBps: 1,
          earningsMinor: 1,
          orderedAt: new Date(),
        },
      });
      throw rolledBack;
    }),
  ).rejects.toBe(rolledBack);
}
