// The affiliate's orders: commission status, earnings, items. Only the key's affiliate's orders
// exist for a request; another affiliate's order is not found.
import { countArgs, listKey, listTotal } from './listTotals';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { prisma } from '../db';
import { OrderStatus, type Prisma } from '../generated/prisma/client';
import { metaPageOf, singleOf } from './envelopes';
import { affiliateIdOf } from './affiliate';
import { builder, keyAuth } from './builder';
import { notFound } from '../errors';
import { fromBasisPoints, fromMinor } from './money';
import { findPage, pageArgs, pageInfo, resolvePage, sliceArgs, type PageRule } from './pagination';
import { isUuid } from './scalars';
import { dateRange } from './visibility';
import { containing } from './textSearch';

export const ORDERS_PAGE: PageRule = { defaultLimit: 10, maxLimit: 100, aboveMax: 'clamp' };

builder.enumType(OrderStatus, {
  name: 'OrderStatus',
  description: 'Commission status of an order',
});

export interface OrderFilter {
  status?: OrderStatus[] | null;
  organizationId?: string | null;
  startAt?: Date | null;
  endAt?: Date | null;
  search?: string | null;
}

/** The affiliate's orders matching the filter; every filter narrows the list (AND). */
export function affiliateOrderWhere(
  affiliateId: string,
  filter: OrderFilter,
): Prisma.OrderWhereInput {
  // Orders of brands hidden since stay listed: they are the affiliate's earnings record.
  const where: Prisma.OrderWhereInput = { affiliateId };
  if (filter.status?.length) where.status = { in: filter.status };
  if (filter.organizationId) where.organizationId = filter.organizationId;
  const orderedAt = dateRange(filter.startAt, filter.endAt);
  if (orderedAt) where.orderedAt = orderedAt;
  if (filter.search) where.orderNumber = containing(filter.search);
  return where;
}

/** The affiliate's order with this id; a non-UUID id cannot exist, so it is not found either. */
export function affiliateOrderById(affiliateId: string, orderId: string): Prisma.OrderWhereInput {
  if (!isUuid(orderId)) throw notFound('Order', orderId);
  return { id: orderId.toLowerCase(), affiliateId };
}

export const ORDER_ORDER = [
  { orderedAt: 'desc' },
  { id: 'desc' },
] satisfies Prisma.OrderOrderByWithRelationInput[];

const OrderOrganization = builder.prismaObject('Organization', {
  variant: 'OrderOrganization',
  description: 'The brand an order was placed with',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    logoUrl: t.exposeString('logoUrl', { nullable: true }),
  }),
});

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

const Order = builder.prismaObject('Order', {
  description: 'An order the affiliate referred; money in major units of `currency`',
  fields: (t) => ({
    id: t.exposeID('id'),
    orderNumber: t.exposeString('orderNumber'),
    organizationId: t.exposeID('organizationId'),
    organization: t.relation('organization', { type: OrderOrganization }),
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
      query: { orderBy: [{ position: 'asc' }, { id: 'asc' }] },
    }),
    shortUrlCode: t.exposeString('shortUrlCode', { nullable: true }),
    channelId: t.exposeID('channelId', { nullable: true }),
    orderedAt: t.expose('orderedAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const AffiliateOrderPage = metaPageOf('AffiliateOrderPage', Order);
const AffiliateOrderResult = singleOf('AffiliateOrderResult', Order);

builder.queryFields((t) => ({
  affiliateOrders: t.field({
    type: AffiliateOrderPage,
    description: "GET /affiliate/orders: the key's affiliate's orders, newest first",
    authScopes: keyAuth('affiliate', 'orders:read'),
    args: {
      ...pageArgs(ORDERS_PAGE),
      status: t.arg({ type: [OrderStatus], description: 'Orders in any of these statuses' }),
      organizationId: t.arg({ type: 'UUID', description: 'One brand' }),
      startAt: t.arg({ type: 'DateTime', description: 'Ordered at or after' }),
      endAt: t.arg({ type: 'DateTime', description: 'Ordered at or before' }),
      search: t.arg.string({ description: 'Part of the order number, any case' }),
    },
    resolve: async (_root, args, context, info) => {
      const page = resolvePage(args, ORDERS_PAGE);
      const where = affiliateOrderWhere(affiliateIdOf(context), args);
      const [total, data] = await Promise.all([
        listTotal(listKey(info.fieldName, affiliateIdOf(context), args), (take) =>
          prisma.order.count(countArgs(where, ORDER_ORDER, take)),
        ),
        findPage(
          page,
          (range) =>
            prisma.order.findMany({ where, orderBy: ORDER_ORDER, ...range, select: { id: true } }),
          (slice) =>
            prisma.order.findMany({
              ...queryFromInfo({ context, info, path: ['data'] }),
              ...sliceArgs(where, slice),
              orderBy: ORDER_ORDER,
            }),
        ),
      ]);
      return { data, meta: pageInfo(total, page) };
    },
  }),
  affiliateOrder: t.field({
    type: AffiliateOrderResult,
    description: "GET /affiliate/orders/{orderId}: one of the key's affiliate's orders",
    authScopes: keyAuth('affiliate', 'orders:read'),
    args: { orderId: t.arg.id({ required: true }) },
    resolve: async (_root, args, context, info) => {
      const data = await prisma.order.findFirst({
        ...queryFromInfo({ context, info, path: ['data'] }),
        where: affiliateOrderById(affiliateIdOf(context), String(args.orderId)),
      });
      if (!data) throw notFound('Order', String(args.orderId));
      return { data };
    },
  }),
}));
