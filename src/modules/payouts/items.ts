// GET /affiliate/payouts/{payoutId}/items: the ledger lines a payout pays (orders' earnings and
// ledger entries), a page at a time, newest first, each with the amount the payout pays for it; as
// CSV too. A payout of another affiliate, or none, is not found.
import { OrderStatus } from '../../generated/prisma/client';
import { fromMinor } from '../../platform/currencies';
import { prisma } from '../../platform/db';
import { notFound } from '../../platform/errors';
import { isUuid } from '../../platform/formats';
import { builder, keyAuth } from '../../schema/builder';
import { listQuery } from '../../schema/lists';
import { fromBasisPoints } from '../../schema/money';
import type { Page } from '../../schema/pagination';
import { LedgerKindEnum, type LedgerKind } from './earnings';

interface PayoutItemQuery {
  affiliateId: string;
  payoutId: string;
}

/** An order's columns an item answers. */
interface ItemOrder {
  orderNumber: string;
  organizationName: string;
  orderStatus: OrderStatus;
  transactionValueMinor: number;
  commissionRateBps: number;
  earningsMinor: number;
  updatedAt: Date;
}

/**
 * One item as the route answers it: the line it pays (an order, or an entry with its reason) and
 * the amount paid for it.
 */
export interface PayoutItemRecord {
  kind: LedgerKind;
  orderId: string | null;
  earningId: string | null;
  reason: string | null;
  organizationId: string | null;
  currency: string;
  amountMinor: number;
  /** The order's time, or the entry's. */
  orderedAt: Date;
  order: ItemOrder | null;
}

/** The page of a payout's items of the affiliate, and their number; 404 for any other payout. */
async function payoutItemsPage(
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
      orderedAt: true,
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
          updatedAt: true,
        },
      },
      earning: {
        select: { id: true, kind: true, reason: true, organizationId: true, currency: true },
      },
    },
  });
  const rows = items.map(({ amountMinor, orderedAt, order, earning }): PayoutItemRecord => {
    if (order) {
      return {
        kind: 'ORDER',
        orderId: order.id,
        earningId: null,
        reason: null,
        organizationId: order.organizationId,
        currency: order.currency,
        amountMinor,
        orderedAt,
        order: {
          orderNumber: order.orderNumber,
          organizationName: order.organization.name,
          orderStatus: order.status,
          transactionValueMinor: order.transactionValueMinor,
          commissionRateBps: order.commissionRateBps,
          earningsMinor: order.earningsMinor,
          updatedAt: order.updatedAt,
        },
      };
    }
    // The database writes an item with its order or its entry (PayoutItem_one_payee_check).
    const entry = earning!;
    return {
      kind: entry.kind,
      orderId: null,
      earningId: entry.id,
      reason: entry.reason,
      organizationId: entry.organizationId,
      currency: entry.currency,
      amountMinor,
      orderedAt,
      order: null,
    };
  });
  return { rows, total: payout.itemCount };
}

/** An order's column on an item: null on an entry's. */
const ofOrder =
  <T>(pick: (order: ItemOrder, item: PayoutItemRecord) => T) =>
  (item: PayoutItemRecord) =>
    item.order && pick(item.order, item);

const PayoutItem = builder.objectRef<PayoutItemRecord>('PayoutItem').implement({
  description:
    "A line a payout pays, an order's earnings (kind ORDER) or a ledger entry, and the amount it pays for it; money in `currency`, with its decimals. The order's columns are null on an entry's item",
  fields: (t) => ({
    kind: t.field({ type: LedgerKindEnum, resolve: (item) => item.kind }),
    orderId: t.id({ nullable: true, resolve: (item) => item.orderId }),
    earningId: t.id({
      nullable: true,
      description: "The entry (GET /affiliate/earnings/{earningId}); null on an order's item",
      resolve: (item) => item.earningId,
    }),
    reason: t.string({
      nullable: true,
      description: "The entry's reason; null on an order's item",
      resolve: (item) => item.reason,
    }),
    orderNumber: t.string({ nullable: true, resolve: ofOrder((order) => order.orderNumber) }),
    organizationId: t.id({
      nullable: true,
      description: 'The brand',
      resolve: (item) => item.organizationId,
    }),
    organizationName: t.string({
      nullable: true,
      description: "The order's brand's name",
      resolve: ofOrder((order) => order.organizationName),
    }),
    orderStatus: t.field({
      type: OrderStatus,
      nullable: true,
      resolve: ofOrder((order) => order.orderStatus),
    }),
    currency: t.string({ description: 'ISO 4217 code', resolve: (item) => item.currency }),
    amount: t.float({
      description:
        "What the payout pays for the line: the order's earnings, or the entry's amount (negative for a clawback or a debit)",
      resolve: (item) => fromMinor(item.amountMinor, item.currency),
    }),
    transactionValue: t.float({
      nullable: true,
      resolve: ofOrder((order, item) => fromMinor(order.transactionValueMinor, item.currency)),
    }),
    commissionRate: t.float({
      nullable: true,
      description: 'Percent (5.5 = 5.5 %)',
      resolve: ofOrder((order) => fromBasisPoints(order.commissionRateBps)),
    }),
    earnings: t.float({
      nullable: true,
      description: "The affiliate's commission on the order",
      resolve: ofOrder((order, item) => fromMinor(order.earningsMinor, item.currency)),
    }),
    orderedAt: t.field({
      type: 'DateTime',
      description: "When the order was placed, or the entry earned: the items' order",
      resolve: (item) => item.orderedAt,
    }),
    orderUpdatedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: "The order's last change",
      resolve: ofOrder((order) => order.updatedAt),
    }),
  }),
});

listQuery('affiliatePayoutItems', {
  item: PayoutItem,
  envelope: 'meta',
  type: 'AffiliatePayoutItemPage',
  description:
    "GET /affiliate/payouts/{payoutId}/items: the lines one of the key's affiliate's payouts pays (orders and ledger entries), newest first. `Accept: text/csv` answers the rows as CSV",
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
