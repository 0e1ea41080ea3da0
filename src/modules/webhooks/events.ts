// The events an endpoint can subscribe to, and the body every webhook carries.

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

/** Sent by sendTestWebhook to one endpoint, whatever it subscribes to. */
export const TEST_EVENT_TYPE = 'webhook.test';

export function isOrderEventType(type: string): type is OrderEventType {
  return (ORDER_EVENT_TYPES as readonly string[]).includes(type);
}

/**
 * Written by the database triggers on "Payout" (migrations payouts, payout_progress), one per
 * status a payout reaches: `payout.` and the status in lower case; no postback takes them.
 */
export const PAYOUT_EVENT_TYPES = [
  'payout.scheduled',
  'payout.processing',
  'payout.paid',
  'payout.failed',
  'payout.cancelled',
] as const;

/** Written by the database trigger on "Earning" (migration ledger) for each new ledger entry. */
export const EARNING_EVENT_TYPES = ['earning.created'] as const;

/** Every event an endpoint can subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  ...ORDER_EVENT_TYPES,
  ...PAYOUT_EVENT_TYPES,
  ...EARNING_EVENT_TYPES,
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(type: string): type is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}

/** The Standard Webhooks body: the event type, when it happened, and its data. */
export interface WebhookBody {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}
