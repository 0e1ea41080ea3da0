// An order as postbacks read it: the order's own columns.
import type { OrderStatus } from '../../generated/prisma/client';
import { prisma } from '../../platform/db';
import type { Conversion } from './macros';

/** The order and its current status; null when it no longer exists. */
export async function readConversion(
  orderId: string,
): Promise<(Conversion & { affiliateId: string; status: OrderStatus }) | null> {
  const order = await prisma.order.findUnique({
    where: { id: orderId },
    include: { payoutItems: { where: { heldOrderId: { not: null } }, select: { payoutId: true } } },
  });
  if (!order) return null;
  return {
    orderId: order.id,
    orderNumber: order.orderNumber,
    affiliateId: order.affiliateId,
    status: order.status,
    brandId: order.organizationId,
    campaignId: order.campaignId,
    couponCode: order.couponCode,
    attribution: order.attribution,
    linkCode: order.shortUrlCode,
    channelId: order.channelId,
    payoutId: order.payoutItems[0]?.payoutId ?? null,
    currency: order.currency,
    earningsMinor: order.earningsMinor,
    transactionValueMinor: order.transactionValueMinor,
    originalEarningsMinor: order.originalEarningsMinor,
    orderedAt: order.orderedAt,
    subIds: [order.sub1, order.sub2, order.sub3, order.sub4, order.sub5],
  };
}
