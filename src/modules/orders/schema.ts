// The affiliate's orders: commission status, earnings, items. Only the key's affiliate's orders
// exist for a request; another affiliate's order is not found.
import type { InputShapeFromFields } from '@pothos/core';
import { prisma } from '../../platform/db';
import { OrderStatus, type Prisma } from '../../generated/prisma/client';
import { OrganizationSummary } from '../catalog/brands';
import { builder, keyAuth } from '../../schema/builder';
import { containing, dateRange } from '../../schema/filters';
import { itemQuery, listQuery } from '../../schema/lists';
import { SUB_ID_NAMES } from '../links/subIds';
import { fromBasisPoints, fromMinor } from '../../schema/money';
import { listOf, searchWork } from '../../schema/complexity';

/**
 * The items an order answers, in position order: generous for any consumer order, and a bound on
 * what one order can add to an answer (the operation cost prices every order at this many).
 */
export const MAX_ORDER_ITEMS = 50;

builder.enumType(OrderStatus, {
  name: 'OrderStatus',
  description: 'Commission status of an order',
});

const orderFilterArgs = builder.args((t) => ({
  status: t.field({ type: [OrderStatus], description: 'Orders in any of these statuses' }),
  organizationId: t.field({ type: 'UUID', description: 'One brand' }),
  startAt: t.field({ type: 'DateTime', description: 'Ordered at or after' }),
  endAt: t.field({ type: 'DateTime', description: 'Ordered at or before' }),
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
}));

/** The affiliate's orders matching the filter; every filter narrows the list (AND). */
export function affiliateOrderWhere(
  affiliateId: string,
  filter: InputShapeFromFields<typeof orderFilterArgs>,
): Prisma.OrderWhereInput {
  // Orders of brands hidden since stay listed: they are the affiliate's earnings record.
  const where: Prisma.OrderWhereInput = { affiliateId };
  if (filter.status?.length) where.status = { in: filter.status };
  if (filter.organizationId) where.organizationId = filter.organizationId;
  const orderedAt = dateRange(filter.startAt, filter.endAt);
  if (orderedAt) where.orderedAt = orderedAt;
  if (filter.search) where.orderNumber = containing(filter.search);
  if (filter.updatedSince) where.updatedAt = { gte: filter.updatedSince };
  for (const name of SUB_ID_NAMES) {
    const value = filter[name];
    if (value != null) where[name] = value;
  }
  return where;
}

/** Order lists: newest first. */
const NEWEST_FIRST = [
  { orderedAt: 'desc' },
  { id: 'desc' },
] satisfies Prisma.OrderOrderByWithRelationInput[];

/** A sync's pages: oldest change first, so a client can resume after the last `updatedAt` it saw. */
const OLDEST_CHANGE_FIRST = [
  { updatedAt: 'asc' },
  { id: 'asc' },
] satisfies Prisma.OrderOrderByWithRelationInput[];

const OrderItem = builder.prismaObject('OrderItem', {
  description: 'A line of an order; money in major units, rates in percent',
  fields: (t) => ({
    productId: t.exposeID('productId', { nullable: true }),
    sku: t.exposeString('sku'),
    name: t.exposeString('name'),
    quantity: t.exposeInt('quantity'),
    unitPrice: t.float({
      select: { unitPriceMinor: true },
      resolve: (item) => fromMinor(item.unitPriceMinor),
    }),
    total: t.float({ select: { totalMinor: true }, resolve: (item) => fromMinor(item.totalMinor) }),
    commissionRate: t.float({
      description: 'Percent (5.5 = 5.5 %)',
      select: { commissionRateBps: true },
      resolve: (item) => fromBasisPoints(item.commissionRateBps),
    }),
    commissionValue: t.float({
      select: { commissionValueMinor: true },
      resolve: (item) => fromMinor(item.commissionValueMinor),
    }),
  }),
});

/** The description of an order's sub-ID field. */
const reportedSubId = (name: string) =>
  `The \`${name}\` of the click the order came from (GET /s/{urlCode}?${name}=…), as the brand reported it`;

const Order = builder.prismaObject('Order', {
  description: 'An order the affiliate referred; money in major units of `currency`',
  fields: (t) => ({
    id: t.exposeID('id'),
    orderNumber: t.exposeString('orderNumber'),
    organizationId: t.exposeID('organizationId'),
    organization: t.relation('organization', { type: OrganizationSummary }),
    status: t.expose('status', { type: OrderStatus }),
    currency: t.exposeString('currency', { description: 'ISO 4217 code' }),
    transactionValue: t.float({
      select: { transactionValueMinor: true },
      resolve: (order) => fromMinor(order.transactionValueMinor),
    }),
    commissionRate: t.float({
      description: 'Percent (5.5 = 5.5 %)',
      select: { commissionRateBps: true },
      resolve: (order) => fromBasisPoints(order.commissionRateBps),
    }),
    earnings: t.float({
      description: "The affiliate's commission on this order",
      select: { earningsMinor: true },
      resolve: (order) => fromMinor(order.earningsMinor),
    }),
    items: t.relation('items', {
      type: OrderItem,
      description: `The order's lines in position order, the first ${MAX_ORDER_ITEMS}`,
      query: { orderBy: [{ position: 'asc' }, { id: 'asc' }], take: MAX_ORDER_ITEMS },
      complexity: listOf(MAX_ORDER_ITEMS),
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
  }),
});

listQuery('affiliateOrders', {
  item: Order,
  envelope: 'meta',
  type: 'AffiliateOrderPage',
  description:
    "GET /affiliate/orders: the key's affiliate's orders, newest first (with `updatedSince`, oldest change first)",
  auth: keyAuth('affiliate', 'orders:read'),
  page: { defaultLimit: 10, maxLimit: 100, aboveMax: 'clamp' },
  args: orderFilterArgs,
  rows: prisma.order,
  order: (filter) => (filter.updatedSince ? OLDEST_CHANGE_FIRST : NEWEST_FIRST),
  work: ({ search }) => searchWork(search),
  where: (filter, { affiliateId }) => affiliateOrderWhere(affiliateId, filter),
});

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
