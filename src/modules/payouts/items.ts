// GET /affiliate/payouts/{payoutId}/items: the orders a payout pays, a page at a time, newest order
// first, each with the amount the payout pays for it; as CSV too. A payout of another affiliate, or
// none, is not found.
import { OrderStatus } from '../../generated/prisma/client';
import { fromMinor } from '../../platform/currencies';
import { prisma } from '../../platform/db';
import { notFound } from '../../platform/errors';
import { isUuid } from '../../platform/formats';
import { builder, keyAuth } from '../../schema/builder';
import { listQuery } from '../../schema/lists';
import { fromBasisPoints } from '../../schema/money';
import type { Page } from '../../schema/pagination';

interface PayoutItemQuery {
  affiliateId: string;
  payoutId: string;
}

/** One item as the route answers it: the order's own columns beside the amount paid for it. */
export interface PayoutItemRecord {
  orderId: string;
  orderNumber: string;
  organizationId: string;
  organizationName: string;
  orderStatus: OrderStatus;
  currency: string;
  amountMinor: number;
  transactionValueMinor: number;
  commissionRateBps: number;
  earningsMinor: number;
  orderedAt: Date;
  updatedAt: Date;
}

/** The page of a payout's items of the affiliate, and their number; 404 for any other payout. */
export async function payoutItemsPage(
  { affiliateId, payoutId }: PayoutItemQuery,
  page: Page,
): Promise<{ rows: PayoutItemRecord[]; total: number }> {
  const payout = isUuid(payoutId)
    ? await prisma.payout.findFirst({
        where: { id: payoutId.toLowerCase(), affiliateId },
        select: { id: true, itemCount: true },
      })
    : null;
  if (!payout) throw notFound('Payout', payoutId);
  const items = await prisma.payoutItem.findMany({
    where: { payoutId: payout.id },
    orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
    skip: page.skip,
    take: page.limit,
    select: {
      amountMinor: true,
      order: {
        select: {
          id: true,
          orderNumber: true,
          organizationId: true,
          organization: { select: { name: true } },
          status: true,
          currency: true,
          transactionValueMinor: true,
          commissionRateBps: true,
          earningsMinor: true,
          orderedAt: true,
          updatedAt: true,
        },
      },
    },
  });
  const rows = items.map(({ amountMinor, order }) => ({
    orderId: order.id,
    orderNumber: order.orderNumber,
    organizationId: order.organizationId,
    organizationName: order.organization.name,
    orderStatus: order.status,
    currency: order.currency,
    amountMinor,
    transactionValueMinor: order.transactionValueMinor,
    commissionRateBps: order.commissionRateBps,
    earningsMinor: order.earningsMinor,
    orderedAt: order.orderedAt,
    updatedAt: order.updatedAt,
  }));
  return { rows, total: payout.itemCount };
}

const PayoutItem = builder.objectRef<PayoutItemRecord>('PayoutItem').implement({
  description:
    "An order a payout pays and the amount it pays for it (the order's earnings); money in `currency`, with its decimals",
  fields: (t) => ({
    orderId: t.id({ resolve: (item) => item.orderId }),
    orderNumber: t.string({ resolve: (item) => item.orderNumber }),
    organizationId: t.id({ description: 'The brand', resolve: (item) => item.organizationId }),
    organizationName: t.string({
      description: "The brand's name",
      resolve: (item) => item.organizationName,
    }),
    orderStatus: t.field({ type: OrderStatus, resolve: (item) => item.orderStatus }),
    currency: t.string({ description: 'ISO 4217 code', resolve: (item) => item.currency }),
    amount: t.float({
      description: 'What the payout pays for the order',
      resolve: (item) => fromMinor(item.amountMinor, item.currency),
    }),
    transactionValue: t.float({
      resolve: (item) => fromMinor(item.transactionValueMinor, item.currency),
    }),
    commissionRate: t.float({
      description: 'Percent (5.5 = 5.5 %)',
      resolve: (item) => fromBasisPoints(item.commissionRateBps),
    }),
    earnings: t.float({
      description: "The affiliate's commission on the order",
      resolve: (item) => fromMinor(item.earningsMinor, item.currency),
    }),
    orderedAt: t.field({ type: 'DateTime', resolve: (item) => item.orderedAt }),
    orderUpdatedAt: t.field({
      type: 'DateTime',
      description: "The order's last change",
      resolve: (item) => item.updatedAt,
    }),
  }),
});

listQuery('affiliatePayoutItems', {
  item: PayoutItem,
  envelope: 'meta',
  type: 'AffiliatePayoutItemPage',
  description:
    "GET /affiliate/payouts/{payoutId}/items: the orders one of the key's affiliate's payouts pays, newest order first. `Accept: text/csv` answers the rows as CSV",
  auth: keyAuth('affiliate', 'payouts:read'),
  page: { defaultLimit: 50, maxLimit: 500, aboveMax: 'reject' },
  args: builder.args((t) => ({ payoutId: t.id({ required: true }) })),
  rows: { page: payoutItemsPage },
  // The items come in their own order (newest order first).
  order: [],
  where: ({ payoutId }, { affiliateId }): PayoutItemQuery => ({
    affiliateId,
    payoutId: String(payoutId),
  }),
});
