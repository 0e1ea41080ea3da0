// The body of an order event: the order as `GET /affiliate/orders/{orderId}` answers it (read by
// src/modules/webhooks/orderAnswer.ts), the event type, the time of the change, for a status change
// (and a payment) the previous status, and what the order event says of the change: its reason,
// and for an adjustment the amounts before it and the deltas; of a payout event, the payout as its
// route answers it. Pure.
import type { OrderEvent as OrderEventRow } from '../../generated/prisma/client';
import { fromMinor } from '../../platform/currencies';
import type { WebhookBody } from './events';

/** An order as its route answers it, for the order's affiliate (src/modules/webhooks/orderAnswer.ts). */
export type OrderAnswer = (orderId: string, affiliateId: string) => Promise<unknown>;

/** A payout as its route answers it, for the payout's affiliate (src/modules/webhooks/orderAnswer.ts). */
export type PayoutAnswer = (payoutId: string, affiliateId: string) => Promise<unknown>;

/** How the bodies of events read what they carry. */
export interface EventAnswers {
  order: OrderAnswer;
  payout: PayoutAnswer;
}

export interface OrderEvent {
  type: string;
  previousStatus: string | null;
  occurredAt: Date;
}

/** What an order event adds to the body: its reason when it has one, an adjustment's amounts. */
export function changeOf(
  event: Pick<
    OrderEventRow,
    | 'type'
    | 'reason'
    | 'note'
    | 'currency'
    | 'transactionValueMinor'
    | 'earningsMinor'
    | 'previousTransactionValueMinor'
    | 'previousEarningsMinor'
  >,
): Record<string, unknown> {
  const reason = event.reason === null ? {} : { reason: event.reason, note: event.note };
  if (
    event.type !== 'ADJUSTED' ||
    event.previousTransactionValueMinor === null ||
    event.previousEarningsMinor === null
  ) {
    return reason;
  }
  const money = (minor: number) => fromMinor(minor, event.currency);
  return {
    ...reason,
    previousSaleAmount: money(event.previousTransactionValueMinor),
    previousEarnings: money(event.previousEarningsMinor),
    saleAmountDelta: money(event.transactionValueMinor - event.previousTransactionValueMinor),
    earningsDelta: money(event.earningsMinor - event.previousEarningsMinor),
  };
}

export function orderEventBody(
  event: OrderEvent,
  order: unknown,
  change: Record<string, unknown> = {},
): WebhookBody {
  return {
    type: event.type,
    timestamp: event.occurredAt.toISOString(),
    data: {
      order,
      ...(event.previousStatus !== null && { previousStatus: event.previousStatus }),
      ...change,
    },
  };
}

/** The body of a payout event: the payout as `GET /affiliate/payouts/{payoutId}` answers it. */
export function payoutEventBody(
  event: Omit<OrderEvent, 'previousStatus'>,
  payout: unknown,
): WebhookBody {
  return { type: event.type, timestamp: event.occurredAt.toISOString(), data: { payout } };
}
