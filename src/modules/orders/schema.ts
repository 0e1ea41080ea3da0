// The affiliate's orders: commission status and its reason, earnings as recorded and as they are,
// items, the lock date, and the affiliate's `finalThrough` watermark beside a list. Only the key's affiliate's orders
// exist for a request; another affiliate's order is not found.
import type { InputShapeFromFields } from '@pothos/core';
import { fromMinor } from '../../platform/currencies';
import { prisma } from '../../platform/db';
import {
  OrderAttribution,
  OrderStatus,
  OrderStatusReason,
  PayoutStatus,
  type OrderItem as OrderItemRow,
  type Prisma,
} from '../../generated/prisma/client';
import { OrganizationSummary } from '../catalog/brands';
import { builder, keyAuth } from '../../schema/builder';
import { affiliateOf } from '../../schema/context';
import { containing, dateRange } from '../../schema/filters';
import { itemQuery, listQuery } from '../../schema/lists';
import { SUB_ID_NAMES } from '../links/subIds';
import { fromBasisPoints } from '../../schema/money';
import { listOf, searchWork } from '../../schema/complexity';
import { ORDER_DATES, OrderDateType, type OrderDateName } from './dates';
import { EVENT_ORDER, EVENTS_ON_ORDER, OrderEvent } from './history';
import { finalThroughOf, isFinal, lockedAtOf } from './lifecycle';
import { payoutHolding } from '../payouts/balance';
import { HoldReasonEnum } from '../payouts/holds';

/**
 * The items an order answers, in position order: generous for any consumer order, and a bound on
 * what one order can add to an answer (the operation cost prices every order at this many).
 */
export const MAX_ORDER_ITEMS = 50;

builder.enumType(OrderStatus, {
  name: 'OrderStatus',
  description: 'Commission status of an order',
});

builder.enumType(OrderAttribution, {
  name: 'OrderAttribution',
  description:
    'What brought the order to the affiliate: `LINK` a click on its link, `COUPON` its PersonalCoupon code without a click on its own links, `LINK_AND_COUPON` a click on its link and a code of the brand (its PersonalCoupon code, or a GenericCoupon code)',
});

/** A coupon code as the database stores and matches it: surrounding whitespace trimmed, upper case. */
const couponCodeKey = (code: string): string => code.trim().toUpperCase();

const orderFilterArgs = builder.args((t) => ({
  status: t.field({ type: [OrderStatus], description: 'Orders in any of these statuses' }),
  organizationId: t.field({ type: 'UUID', description: 'One brand' }),
  dateType: t.field({
    type: OrderDateType,
    description:
      'The date `startAt` and `endAt` read and the list is ordered by, newest first: `ordered` (default), `updated` or `locked`',
  }),
  startAt: t.field({ type: 'DateTime', description: 'At or after, by `dateType`' }),
  endAt: t.field({ type: 'DateTime', description: 'At or before, by `dateType`' }),
  search: t.string({ description: 'Part of the order number, any case' }),
  updatedSince: t.field({
    type: 'DateTime',
    description:
      'Orders changed at or after this time, oldest change first (`updatedAt`, then `id`): for incremental sync',
  }),
  sub1: t.string({ description: 'Orders whose sub1 is exactly this value' }),
  sub2: t.string({ description: 'Orders whose sub2 is exactly this value' }),
  sub3: t.string({ description: 'Orders whose sub3 is exactly this value' }),
  sub4: t.string({ description: 'Orders whose sub4 is exactly this value' }),
  sub5: t.string({ description: 'Orders whose sub5 is exactly this value' }),
  payoutId: t.field({ type: 'UUID', description: 'The orders one payout of the affiliate pays' }),
  couponCode: t.string({
    description: 'Orders recorded with this coupon code, compared trimmed and in any case',
  }),
  campaignId: t.field({ type: 'UUID', description: 'Orders that came through this campaign' }),
  attribution: t.field({
    type: [OrderAttribution],
    description: 'Orders attributed in any of these ways',
  }),
}));

/** The affiliate's orders matching the filter; every filter narrows the list (AND). */
export function affiliateOrderWhere(
  affiliateId: string,
  filter: InputShapeFromFields<typeof orderFilterArgs>,
): Prisma.OrderWhereInput {
  // Orders of brands hidden since stay listed: they are the affiliate's earnings record.
  const where: Prisma.OrderWhereInput = { affiliateId };
  if (filter.status?.length) where.status = { in: filter.status };
  if (filter.payoutId) where.payoutItems = { some: { payoutId: filter.payoutId } };
  if (filter.organizationId) where.organizationId = filter.organizationId;
  const range = dateRange(filter.startAt, filter.endAt);
  if (range) where[ORDER_DATES[filter.dateType ?? 'ordered']] = range;
  if (filter.search) where.orderNumber = containing(filter.search);
  if (filter.updatedSince) where.updatedAt = { gte: filter.updatedSince };
  for (const name of SUB_ID_NAMES) {
    const value = filter[name];
    if (value != null) where[name] = value;
  }
  if (filter.couponCode != null) where.couponCode = couponCodeKey(filter.couponCode);
  if (filter.campaignId) where.campaignId = filter.campaignId;
  if (filter.attribution?.length) where.attribution = { in: filter.attribution };
  return where;
}

/** Order lists: newest first by the date asked by. */
const newestFirst = (dateType: OrderDateName = 'ordered') =>
  [
    { [ORDER_DATES[dateType]]: 'desc' },
    { id: 'desc' },
  ] satisfies Prisma.OrderOrderByWithRelationInput[];

/** A sync's pages: oldest change first, so a client can resume after the last `updatedAt` it saw. */
const OLDEST_CHANGE_FIRST = [
  { updatedAt: 'asc' },
  { id: 'asc' },
] satisfies Prisma.OrderOrderByWithRelationInput[];

/** The columns of an order's line its fields show. */
const ORDER_LINE_COLUMNS = {
  productId: true,
  sku: true,
  name: true,
  quantity: true,
  unitPriceMinor: true,
  totalMinor: true,
  commissionRateBps: true,
  commissionValueMinor: true,
} as const;

/** An order's line with the order's currency, which its amounts are in. */
type OrderLine = Pick<OrderItemRow, keyof typeof ORDER_LINE_COLUMNS> & { currency: string };

const OrderItem = builder.objectRef<OrderLine>('OrderItem').implement({
  description: "A line of an order; money in the order's currency, rates in percent",
  fields: (t) => ({
    productId: t.id({ nullable: true, resolve: (item) => item.productId }),
    sku: t.string({ resolve: (item) => item.sku }),
    name: t.string({ resolve: (item) => item.name }),
    quantity: t.int({ resolve: (item) => item.quantity }),
    unitPrice: t.float({ resolve: (item) => fromMinor(item.unitPriceMinor, item.currency) }),
    total: t.float({ resolve: (item) => fromMinor(item.totalMinor, item.currency) }),
    commissionRate: t.float({
      description: 'Percent (5.5 = 5.5 %)',
      resolve: (item) => fromBasisPoints(item.commissionRateBps),
    }),
    commissionValue: t.float({
      resolve: (item) => fromMinor(item.commissionValueMinor, item.currency),
    }),
  }),
});

/**
 * The payout holding the order (one at most: an item holds its order until its payout fails or is
 * cancelled), in one selection the three payout fields share.
 */
const payoutOfOrder = payoutHolding('heldOrderId');

/** The description of an order's sub-ID field. */
const reportedSubId = (name: string) =>
  `The \`${name}\` of the click the order came from (GET /s/{urlCode}?${name}=…), as the brand reported it`;

const Order = builder.prismaObject('Order', {
  description:
    "An order the affiliate referred; money in `currency`, with the currency's decimals (ISO 4217: 0 for JPY, 2 for EUR, 3 for BHD)",
  fields: (t) => ({
    id: t.exposeID('id'),
    orderNumber: t.exposeString('orderNumber'),
    organizationId: t.exposeID('organizationId'),
    organization: t.relation('organization', { type: OrganizationSummary }),
    status: t.expose('status', { type: OrderStatus }),
    currency: t.exposeString('currency', { description: 'ISO 4217 code' }),
    transactionValue: t.float({
      resolve: (order) => fromMinor(order.transactionValueMinor, order.currency),
    }),
    commissionRate: t.float({
      description: 'Percent (5.5 = 5.5 %)',
      resolve: (order) => fromBasisPoints(order.commissionRateBps),
    }),
    earnings: t.float({
      description: "The affiliate's commission on this order",
      resolve: (order) => fromMinor(order.earningsMinor, order.currency),
    }),
    items: t.field({
      type: [OrderItem],
      description: `The order's lines in position order, the first ${MAX_ORDER_ITEMS}`,
      select: {
        items: {
          select: ORDER_LINE_COLUMNS,
          orderBy: [{ position: 'asc' }, { id: 'asc' }],
          take: MAX_ORDER_ITEMS,
        },
      },
      complexity: listOf(MAX_ORDER_ITEMS),
      // The lines' amounts are in the order's currency, which a line does not store.
      resolve: (order) => order.items.map((item) => ({ ...item, currency: order.currency })),
    }),
    shortUrlCode: t.exposeString('shortUrlCode', { nullable: true }),
    channelId: t.exposeID('channelId', { nullable: true }),
    sub1: t.exposeString('sub1', { nullable: true, description: reportedSubId('sub1') }),
    sub2: t.exposeString('sub2', { nullable: true, description: reportedSubId('sub2') }),
    sub3: t.exposeString('sub3', { nullable: true, description: reportedSubId('sub3') }),
    sub4: t.exposeString('sub4', { nullable: true, description: reportedSubId('sub4') }),
    sub5: t.exposeString('sub5', { nullable: true, description: reportedSubId('sub5') }),
    orderedAt: t.expose('orderedAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', {
      type: 'DateTime',
      description: 'The last change of the order, kept by the database whoever writes it',
    }),
    statusReason: t.expose('statusReason', {
      type: OrderStatusReason,
      nullable: true,
      description:
        'Why the order was rejected or its amounts last changed (docs/order-lifecycle.md); required by the database with either',
    }),
    statusNote: t.exposeString('statusNote', {
      nullable: true,
      description: "The brand's words beside `statusReason`",
    }),
    originalSaleAmount: t.float({
      description: '`transactionValue` as first recorded',
      resolve: (order) => fromMinor(order.originalTransactionValueMinor, order.currency),
    }),
    originalEarnings: t.float({
      description: '`earnings` as first recorded',
      resolve: (order) => fromMinor(order.originalEarningsMinor, order.currency),
    }),
    adjusted: t.boolean({
      description: 'Whether the amounts differ from those first recorded',
      resolve: (order) =>
        order.transactionValueMinor !== order.originalTransactionValueMinor ||
        order.earningsMinor !== order.originalEarningsMinor,
    }),
    locksAt: t.expose('locksAt', {
      type: 'DateTime',
      description:
        "When the order locks: `orderedAt` plus the brand's lock period, or when it was recorded if later. Then it no longer changes, but for APPROVED to PAID",
    }),
    lockedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the order locked (its `locksAt`), once that has passed',
      resolve: (order) => lockedAtOf(order, new Date()),
    }),
    isFinal: t.boolean({
      description: 'Whether the order will never change again: locked, and not awaiting payment',
      resolve: (order) => isFinal(order, new Date()),
    }),
    heldReason: t.expose('heldReason', {
      type: HoldReasonEnum,
      nullable: true,
      description:
        "Why the order is held (its earnings are in the balance's `held`, never paid while held); null when not held",
    }),
    heldNote: t.exposeString('heldNote', {
      nullable: true,
      description: "The network's words beside `heldReason`",
    }),
    payoutId: t.field({
      type: 'UUID',
      nullable: true,
      description:
        'The payout that pays (or paid) the order: in payment or PAID; null while none holds it (a failed or cancelled payout lets it go)',
      select: payoutOfOrder,
      resolve: (order) => order.payoutItems[0]?.payout.id ?? null,
    }),
    payoutStatus: t.field({
      type: PayoutStatus,
      nullable: true,
      description: "That payout's status",
      select: payoutOfOrder,
      resolve: (order) => order.payoutItems[0]?.payout.status ?? null,
    }),
    paidAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When that payout paid the order; null until it is PAID',
      select: payoutOfOrder,
      resolve: (order) => order.payoutItems[0]?.payout.paidAt ?? null,
    }),
    // After the earlier fields: an answer's existing fields keep their places.
    couponCode: t.exposeString('couponCode', {
      nullable: true,
      description:
        "The coupon code the brand reported with the order, trimmed and upper-cased; kept even when it is no campaign's code",
    }),
    campaignId: t.exposeID('campaignId', {
      nullable: true,
      description:
        "The campaign the order came through: its code's PersonalCoupon or GenericCoupon campaign, else its link's campaign",
    }),
    attribution: t.expose('attribution', {
      type: OrderAttribution,
      nullable: true,
      description:
        'What brought the order to the affiliate (docs/integrating.md); null for an order recorded with neither a link nor a campaign code',
    }),
    events: t.relation('events', {
      type: OrderEvent,
      description: `The order's events, oldest first, the first ${EVENTS_ON_ORDER} (every one: affiliateOrderHistory, GET /affiliate/orders/{orderId}/events)`,
      query: { orderBy: [...EVENT_ORDER], take: EVENTS_ON_ORDER },
      complexity: listOf(EVENTS_ON_ORDER),
      // Not in the REST order answers (nor webhooks): they have their own route.
      graphqlOnly: true,
    }),
  }),
});

const AffiliateOrderPage = listQuery('affiliateOrders', {
  item: Order,
  envelope: 'meta',
  type: 'AffiliateOrderPage',
  description:
    "GET /affiliate/orders: the key's affiliate's orders, newest first (with `updatedSince`, oldest change first)",
  auth: keyAuth('affiliate', 'orders:read'),
  page: { defaultLimit: 10, maxLimit: 100, aboveMax: 'clamp' },
  args: orderFilterArgs,
  rows: prisma.order,
  order: (filter) =>
    filter.updatedSince ? OLDEST_CHANGE_FIRST : newestFirst(filter.dateType ?? undefined),
  work: ({ search }) => searchWork(search),
  where: (filter, { affiliateId }) => affiliateOrderWhere(affiliateId, filter),
});

// Beside the contract's `meta` envelope, a field a strict client ignores.
builder.objectField(AffiliateOrderPage, 'finalThrough', (t) =>
  t.field({
    type: 'DateTime',
    description:
      'No order of the affiliate whose `locksAt` is before this time will change again (docs/order-lifecycle.md): a sync re-reads only `dateType=locked&startAt={finalThrough}`',
    resolve: (_page, _args, context) => finalThroughOf(affiliateOf(context)),
  }),
);

itemQuery('affiliateOrder', {
  item: Order,
  type: 'AffiliateOrderResult',
  description: "GET /affiliate/orders/{orderId}: one of the key's affiliate's orders",
  auth: keyAuth('affiliate', 'orders:read'),
  idArg: 'orderId',
  what: 'Order',
  rows: prisma.order,
  where: (id, { affiliateId }) => ({ id, affiliateId }),
});
