// The outbox's order event types: the ones a webhook endpoint subscribes to and a postback fires on.

/**
 * Written to the outbox by the database for each order event (migration order_lifecycle): `order.`
 * and the order event's type in lower case.
 */
export const ORDER_EVENT_TYPES = [
  'order.created',
  'order.status_changed',
  'order.adjusted',
  'order.locked',
  'order.paid',
  'order.held',
  'order.released',
  'order.clawback',
] as const;
export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];

export function isOrderEventType(type: string): type is OrderEventType {
  return (ORDER_EVENT_TYPES as readonly string[]).includes(type);
}
