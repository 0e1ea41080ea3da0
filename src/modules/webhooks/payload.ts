// The body of an order event: the order as `GET /affiliate/orders/{orderId}` answers it (read by
// src/modules/webhooks/orderAnswer.ts), the event type, the time of the change and, for a status change, the
// previous status. Pure.
import type { WebhookBody } from './events';

/** An order as its route answers it, for the order's affiliate (src/modules/webhooks/orderAnswer.ts). */
export type OrderAnswer = (orderId: string, affiliateId: string) => Promise<unknown>;

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
