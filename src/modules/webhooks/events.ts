// The events an endpoint can subscribe to, and the body every webhook carries.
import { ORDER_EVENT_TYPES } from '../orders/eventTypes';
import { PAYOUT_EVENT_TYPES } from '../payouts/eventTypes';

/** Sent by sendTestWebhook to one endpoint, whatever it subscribes to. */
export const TEST_EVENT_TYPE = 'webhook.test';

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
