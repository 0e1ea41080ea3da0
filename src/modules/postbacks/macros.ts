// The macros a postback's templates may hold, and their values for one request: an order (the
// conversion), the event it is sent for, the delivery and its attempt. A macro without a value is
// the empty text. Pure.
import { hash } from 'node:crypto';
import type {
  OrderAttribution,
  OrderStatus,
  PostbackPayoutRule,
} from '../../generated/prisma/client';
import { amountText } from '../../platform/currencies';

/** Every macro, with what it stands for (docs/postbacks.md lists the same). */
export const MACROS = {
  sub1: 'the order’s sub1, as the brand reported it (the value a link was followed with)',
  sub2: 'the order’s sub2',
  sub3: 'the order’s sub3',
  sub4: 'the order’s sub4',
  sub5: 'the order’s sub5',
  order_id: 'the order’s id (a UUID)',
  order_number: 'the order’s number at the brand',
  event:
    'the event: order.created, order.status_changed, order.adjusted, order.locked, order.paid, postback.replay or postback.test',
  status: 'the order’s status after the event, in the tracker’s word (the status map)',
  type: 'the tracker’s conversion type for that status (the type map), empty where it names none',
  previous_status: 'the status before a status change, as the network names it (PENDING ...)',
  reason: 'the reason the event gives for a rejection or a change of amounts (RETURNED ...)',
  payout:
    'the affiliate’s earnings on the order, written with every decimal of its currency (12.50 EUR, 1500 JPY, 1.234 BHD), or what the payout rule makes of them in the order’s status',
  original_payout: 'the earnings as first recorded, written as payout is',
  sale_amount: 'the order’s transaction value, written as payout is',
  currency: 'the order’s currency (ISO 4217, EUR)',
  brand_id: 'the brand’s id',
  campaign_id:
    'the campaign the order came through: its coupon code’s, else its link’s, if it has one',
  coupon: 'the coupon code the brand reported with the order (trimmed, upper case), if any',
  attribution: 'what brought the order: LINK, COUPON or LINK_AND_COUPON; empty for neither',
  link_code: 'the code of the order’s short link, if it has one',
  channel_id: 'the order’s channel, if it has one',
  payout_id: 'the payout that pays or paid the order, once one holds it',
  ordered_at: 'when the order was placed (ISO 8601, UTC)',
  ordered_at_unix: 'when the order was placed (Unix seconds)',
  delivery_id: 'the delivery: the same on every retry and redelivery',
  conversion_key:
    'the same for every request that reports one order in one status with one payout (retries, redeliveries, replays): a key for the tracker to deduplicate on',
  attempt: 'the attempt of the delivery’s current schedule: 1, 2, ...',
  secret: 'the postback’s secret: written once, never shown (a key in the tracker’s URL)',
} as const;

export type MacroName = keyof typeof MACROS;
export type MacroValues = Record<MacroName, string>;

export const MACRO_NAMES = Object.keys(MACROS) as MacroName[];

export function isMacroName(name: string): name is MacroName {
  return Object.hasOwn(MACROS, name);
}

/** An order as postbacks read it (src/modules/postbacks/conversion.ts). */
export interface Conversion {
  orderId: string;
  orderNumber: string;
  brandId: string;
  campaignId: string | null;
  /** The code reported with the order, normalised. */
  couponCode: string | null;
  attribution: OrderAttribution | null;
  linkCode: string | null;
  channelId: string | null;
  /** The payout holding the order, if one does. */
  payoutId: string | null;
  currency: string;
  earningsMinor: number;
  transactionValueMinor: number;
  /** The order's earnings as first recorded. */
  originalEarningsMinor: number;
  orderedAt: Date;
  /** sub1 ... sub5. */
  subIds: readonly (string | null)[];
}

/** What one request is sent for. */
export interface RequestContext {
  event: string;
  /** The order's status after the event (a replay's: its status when replayed). */
  status: OrderStatus;
  previousStatus: OrderStatus | null;
  /** The reason the order event gives for its change. */
  reason: string | null;
  deliveryId: string;
  attempt: number;
}

/**
 * The tracker's word for each order status; a status not named is sent as the network's. UNAPPROVED
 * names an approved or paid order moved back to PENDING, for a tracker that cannot take PENDING's
 * word after an approval (Keitaro documents no move from sale back to lead).
 */
export type StatusMap = Partial<Record<OrderStatus | 'UNAPPROVED', string>>;

/** The tracker's conversion type for each order status. */
export type TypeMap = Partial<Record<OrderStatus, string>>;

export function mappedStatus(
  status: OrderStatus,
  statusMap: StatusMap,
  previousStatus: OrderStatus | null = null,
): string {
  const unapproved =
    status === 'PENDING' && (previousStatus === 'APPROVED' || previousStatus === 'PAID');
  return (unapproved ? statusMap.UNAPPROVED : undefined) ?? statusMap[status] ?? status;
}

/** What `{payout}` is, in minor units, for an order in `status` under the postback's rule. */
export function payoutMinor(
  earningsMinor: number,
  status: OrderStatus,
  rule: PostbackPayoutRule,
): number {
  if (rule === 'EARNINGS' || status === 'APPROVED' || status === 'PAID') return earningsMinor;
  return rule === 'OWED_REVERSED' && status === 'REJECTED' ? -earningsMinor : 0;
}

/**
 * `{conversion_key}`: made of the order, its status and the payout reported (written as a UUID is,
 * a form trackers take for event ids), so every request that says the same thing about an order
 * carries the same key, and a change carries a new one.
 */
export function conversionKey(orderId: string, status: OrderStatus, payout: number): string {
  const hex = hash('sha256', `${orderId}|${status}|${payout}`, 'hex');
  return [0, 8, 12, 16, 20].map((at, n, starts) => hex.slice(at, starts[n + 1] ?? 32)).join('-');
}

/** How the postback renders statuses and payouts. */
export interface RenderRules {
  statusMap: StatusMap;
  typeMap: TypeMap;
  payoutRule: PostbackPayoutRule;
}

export function macroValues(
  conversion: Conversion,
  context: RequestContext,
  { statusMap, typeMap, payoutRule }: RenderRules,
  secret: string | null,
): MacroValues {
  const sub = (n: number) => conversion.subIds[n - 1] ?? '';
  const payout = payoutMinor(conversion.earningsMinor, context.status, payoutRule);
  return {
    sub1: sub(1),
    sub2: sub(2),
    sub3: sub(3),
    sub4: sub(4),
    sub5: sub(5),
    order_id: conversion.orderId,
    order_number: conversion.orderNumber,
    event: context.event,
    status: mappedStatus(context.status, statusMap, context.previousStatus),
    type: typeMap[context.status] ?? '',
    previous_status: context.previousStatus ?? '',
    reason: context.reason ?? '',
    payout: amountText(payout, conversion.currency),
    original_payout: amountText(conversion.originalEarningsMinor, conversion.currency),
    sale_amount: amountText(conversion.transactionValueMinor, conversion.currency),
    currency: conversion.currency,
    brand_id: conversion.brandId,
    campaign_id: conversion.campaignId ?? '',
    coupon: conversion.couponCode ?? '',
    attribution: conversion.attribution ?? '',
    link_code: conversion.linkCode ?? '',
    channel_id: conversion.channelId ?? '',
    payout_id: conversion.payoutId ?? '',
    ordered_at: conversion.orderedAt.toISOString(),
    ordered_at_unix: String(Math.floor(conversion.orderedAt.getTime() / 1000)),
    delivery_id: context.deliveryId,
    conversion_key: conversionKey(conversion.orderId, context.status, payout),
    attempt: String(context.attempt),
    secret: secret ?? '',
  };
}

/**
 * The documented sample conversion: what sendTestPostback renders without an order, and what a
 * template is tried with when it is saved.
 */
export const SAMPLE_CONVERSION: Conversion = {
  orderId: '6f1c2b9e-3d4a-4e5f-8a7b-9c0d1e2f3a4b',
  orderNumber: 'SAMPLE-1001',
  brandId: '0b7e5c1a-2f3d-4c5b-9e8f-7a6b5c4d3e2f',
  campaignId: '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a',
  couponCode: null,
  attribution: 'LINK',
  linkCode: 'Ab12Cd34',
  channelId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  payoutId: null,
  currency: 'EUR',
  earningsMinor: 1250,
  transactionValueMinor: 25000,
  originalEarningsMinor: 1250,
  orderedAt: new Date('2026-01-15T10:30:00.000Z'),
  subIds: ['sample-click-id', 'newsletter', null, null, null],
};
