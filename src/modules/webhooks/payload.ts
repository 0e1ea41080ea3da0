// The body of an order event: the order as `GET /affiliate/orders/{orderId}` answers it (read by
// src/modules/webhooks/orderAnswer.ts), the event type, the time of the change and, for a status change, the
// previous status; of a payout event, the payout as its route answers it. Pure.
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

export function orderEventBody(event: OrderEvent, order: unknown): WebhookBody {
  return {
    type: event.type,
    timestamp: event.occurredAt.toISOString(),
    data:
      event.previousStatus === null ? { order } : { order, previousStatus: event.previousStatus },
  };
}

/** The body of a payout event: the payout as `GET /affiliate/payouts/{payoutId}` answers it. */
export function payoutEventBody(
  event: Omit<OrderEvent, 'previousStatus'>,
  payout: unknown,
): WebhookBody {
  return { type: event.type, timestamp: event.occurredAt.toISOString(), data: { payout } };
}
