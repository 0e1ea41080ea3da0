// An order's history, written by the database in the writer's transaction (migration
// order_lifecycle): one order's events, and the affiliate's change feed of all of them, in the
// order they committed. A cursor is an event's number in its affiliate's sequence.
import { fromMinor } from '../../platform/currencies';
import { prisma } from '../../platform/db';
import { BadRequestError, notFound } from '../../platform/errors';
import {
  OrderAttribution,
  OrderEventType,
  OrderStatus,
  OrderStatusReason,
  type OrderEvent as OrderEventRow,
} from '../../generated/prisma/client';
import { builder, keyAuth } from '../../schema/builder';
import { ENVELOPE_DATA, listOf } from '../../schema/complexity';
import { affiliateOf } from '../../schema/context';
import type { PaginatedRule } from '../../schema/pagination';
import { isUuid } from '../../platform/formats';
import { HoldReasonEnum } from '../payouts/holds';
import { finalThroughOf } from './lifecycle';

/** The events GET /affiliate/orders/{orderId}/events answers. */
export const MAX_ORDER_EVENTS = 100;
/**
 * The events `Order.events` answers: an order's history is a handful of events, and a page of
 * orders with their events stays within the operation cost limit.
 */
export const EVENTS_ON_ORDER = 10;
/** The feed's page: by default, and at most (above it, clamped). */
export const FEED_DEFAULT_LIMIT = 100;
export const FEED_MAX_LIMIT = 500;
/**
 * The feed's `limit` rule, as every list's (src/schema/pagination.ts): a limit above the maximum
 * is clamped however large, also by the REST parser; the feed pages by cursor, not by number.
 */
const FEED_LIMIT: PaginatedRule = {
  defaultLimit: FEED_DEFAULT_LIMIT,
  maxLimit: FEED_MAX_LIMIT,
  aboveMax: 'clamp',
};

builder.enumType(OrderStatusReason, {
  name: 'OrderStatusReason',
  description:
    'Why an order was rejected or its amounts changed (docs/order-lifecycle.md): RETURNED, CANCELLED, FRAUD, DUPLICATE, TEST_ORDER, TERMS_VIOLATION, AMOUNT_CORRECTED, OTHER',
});

export const OrderEventTypeEnum = builder.enumType(OrderEventType, {
  name: 'OrderEventType',
  description:
    'What an order event records; its webhook event is `order.` and the type in lower case (`order.adjusted`). HELD, RELEASED: the order was held (with a reason) or released; CLAWBACK: money was taken back from the paid order (a ledger entry); postbacks take neither',
});

const amount = (minor: number | null, currency: string) =>
  minor === null ? null : fromMinor(minor, currency);
const delta = (after: number, before: number | null, currency: string) =>
  before === null ? null : fromMinor(after - before, currency);

// Every field reads the row's own columns, which each way of loading events selects in full: a
// field `select` would make the Prisma plugin fetch each event again when its list was not loaded
// through a Prisma field (the feed's page).
export const OrderEvent = builder.prismaObject('OrderEvent', {
  description:
    "A change of an order, recorded by the database in the writer's transaction; money in `currency`, with its decimals",
  fields: (t) => ({
    cursor: t.string({
      description:
        "The event's identity and where the feed resumes after it (`GET /affiliate/order-events?after=`); opaque",
      resolve: (event) => event.number.toString(),
    }),
    orderId: t.exposeID('orderId'),
    type: t.expose('type', { type: OrderEventTypeEnum }),
    status: t.expose('status', { type: OrderStatus, description: "The order's status after it" }),
    previousStatus: t.expose('previousStatus', {
      type: OrderStatus,
      nullable: true,
      description: 'The status before it: STATUS_CHANGED and PAID only',
    }),
    reason: t.expose('reason', {
      type: OrderStatusReason,
      nullable: true,
      description: "The order's statusReason with the change",
    }),
    note: t.exposeString('note', { nullable: true }),
    currency: t.exposeString('currency', { description: 'ISO 4217 code' }),
    saleAmount: t.float({
      description: "The order's transaction value after it",
      resolve: (event) => fromMinor(event.transactionValueMinor, event.currency),
    }),
    earnings: t.float({
      description: "The order's earnings after it",
      resolve: (event) => fromMinor(event.earningsMinor, event.currency),
    }),
    previousSaleAmount: t.float({
      nullable: true,
      description: 'The transaction value before it: ADJUSTED only',
      resolve: (event) => amount(event.previousTransactionValueMinor, event.currency),
    }),
    previousEarnings: t.float({
      nullable: true,
      description: 'The earnings before it: ADJUSTED only',
      resolve: (event) => amount(event.previousEarningsMinor, event.currency),
    }),
    saleAmountDelta: t.float({
      nullable: true,
      description: '`saleAmount` less `previousSaleAmount`: ADJUSTED only',
      resolve: (event) =>
        delta(event.transactionValueMinor, event.previousTransactionValueMinor, event.currency),
    }),
    earningsDelta: t.float({
      nullable: true,
      description: '`earnings` less `previousEarnings`: ADJUSTED only',
      resolve: (event) => delta(event.earningsMinor, event.previousEarningsMinor, event.currency),
    }),
    heldReason: t.expose('heldReason', {
      type: HoldReasonEnum,
      nullable: true,
      description: 'Why the order is held: HELD only (`note` says more)',
    }),
    earningId: t.exposeID('earningId', {
      nullable: true,
      description:
        'The ledger entry taking money back (GET /affiliate/earnings/{earningId}): CLAWBACK only',
    }),
    clawback: t.float({
      nullable: true,
      description: 'What the clawback takes back (negative): CLAWBACK only; its reason is `note`',
      resolve: (event) => amount(event.clawbackMinor, event.currency),
    }),
    locksAt: t.expose('locksAt', {
      type: 'DateTime',
      description:
        "The order's lock date after it: once past, the order no longer changes but for APPROVED to PAID (a sync needs not read the order to know it)",
    }),
    occurredAt: t.expose('occurredAt', {
      type: 'DateTime',
      description: "The start of the writer's transaction",
    }),
    // After the earlier fields: an answer's existing fields keep their places.
    couponCode: t.exposeString('couponCode', {
      nullable: true,
      description: "The order's coupon code after it (as Order.couponCode)",
    }),
    campaignId: t.exposeID('campaignId', {
      nullable: true,
      description:
        'The campaign the order came through after it (as Order.campaignId); kept when the campaign is deleted later',
    }),
    attribution: t.expose('attribution', {
      type: OrderAttribution,
      nullable: true,
      description: 'What brought the order to the affiliate after it (as Order.attribution)',
    }),
  }),
});

/** The oldest first. */
export const EVENT_ORDER = [{ number: 'asc' }] as const;

const OrderHistory = builder
  .objectRef<{ data: OrderEventRow[] }>('AffiliateOrderEvents')
  .implement({
    description: "An order's events, oldest first",
    fields: (t) => ({
      data: t.field({
        type: [OrderEvent],
        complexity: ENVELOPE_DATA,
        resolve: (history) => history.data,
      }),
    }),
  });

builder.queryField('affiliateOrderHistory', (t) =>
  t.field({
    type: OrderHistory,
    description: `GET /affiliate/orders/{orderId}/events: the events of one of the key's affiliate's orders, oldest first, the first ${MAX_ORDER_EVENTS}`,
    authScopes: keyAuth('affiliate', 'orders:read'),
    args: { orderId: t.arg({ type: 'ID', required: true }) },
    complexity: listOf(MAX_ORDER_EVENTS),
    resolve: async (_root, { orderId }, context) => {
      const id = String(orderId);
      const affiliateId = affiliateOf(context);
      const order =
        isUuid(id) &&
        (await prisma.order.findFirst({
          where: { id: id.toLowerCase(), affiliateId },
        }));
      if (!order) throw notFound('Order', id);
      const data = await prisma.orderEvent.findMany({
        where: { orderId: order.id },
        orderBy: [...EVENT_ORDER],
        take: MAX_ORDER_EVENTS,
      });
      return { data };
    },
  }),
);

interface FeedPage {
  data: OrderEventRow[];
  next: string;
  hasMore: boolean;
  finalThrough: Date;
}

const OrderEventFeed = builder.objectRef<FeedPage>('AffiliateOrderEventFeed').implement({
  description:
    "A page of the affiliate's order events in commit order, and where the next page starts",
  fields: (t) => ({
    data: t.field({ type: [OrderEvent], complexity: ENVELOPE_DATA, resolve: (page) => page.data }),
    next: t.exposeString('next', {
      description:
        'The cursor to ask the next page with (`after`); the same as `after` when the page is empty',
    }),
    hasMore: t.exposeBoolean('hasMore', {
      description: 'Whether more events follow now (ask again with `next` either way to keep up)',
    }),
    finalThrough: t.expose('finalThrough', {
      type: 'DateTime',
      description:
        'No order of the affiliate whose `locksAt` is before this time will change again (docs/order-lifecycle.md)',
    }),
  }),
});

/** The number a cursor stands for; 400 for anything that is not a cursor. */
function parseCursor(cursor: string | null | undefined): bigint {
  if (cursor === null || cursor === undefined || cursor === '') return 0n;
  if (!/^\d{1,18}$/.test(cursor)) {
    throw new BadRequestError('after must be a cursor from a previous page (its `next`)');
  }
  return BigInt(cursor);
}

builder.queryField('affiliateOrderEvents', (t) =>
  t.field({
    type: OrderEventFeed,
    description:
      "GET /affiliate/order-events: the key's affiliate's order events after a cursor, in the order they committed: a cursor never skips or repeats an event",
    authScopes: keyAuth('affiliate', 'orders:read'),
    args: {
      after: t.arg.string({
        description: 'The `next` of the previous page; none for the first event',
      }),
      types: t.arg({ type: [OrderEventTypeEnum], description: 'Only events of these types' }),
      limit: t.arg.int({
        extensions: { pageRule: FEED_LIMIT },
        description: `Events per page. Default ${FEED_DEFAULT_LIMIT}; values above ${FEED_MAX_LIMIT} are clamped to ${FEED_MAX_LIMIT}.`,
      }),
    },
    complexity: (args) => ({
      field: 1,
      multiplier: Math.min(Math.max(args.limit ?? FEED_DEFAULT_LIMIT, 1), FEED_MAX_LIMIT),
    }),
    resolve: async (_root, args, context) => {
      const affiliateId = affiliateOf(context);
      const after = parseCursor(args.after);
      const asked = args.limit ?? FEED_DEFAULT_LIMIT;
      if (asked < 1) throw new BadRequestError('limit must be an integer >= 1');
      const limit = Math.min(asked, FEED_MAX_LIMIT);
      // Side by side: an order final when the watermark is read stays final, whenever the page is.
      const [finalThrough, rows] = await Promise.all([
        finalThroughOf(affiliateId),
        prisma.orderEvent.findMany({
          where: {
            affiliateId,
            number: { gt: after },
            ...(args.types?.length && { type: { in: args.types } }),
          },
          orderBy: [...EVENT_ORDER],
          take: limit + 1,
        }),
      ]);
      const data = rows.slice(0, limit);
      return {
        data,
        next: (data.at(-1)?.number ?? after).toString(),
        hasMore: rows.length > limit,
        finalThrough,
      };
    },
  }),
);
