// The events an endpoint can subscribe to, as the modules that cause them declare them, and the
// body every webhook carries.
import { typeNamesOf, type EventKind, type TypeNameOf } from '../../outbox/eventTypes';
import { ORDER_EVENTS } from '../orders/eventTypes';
import { EARNING_EVENTS, PAYOUT_EVENTS } from '../payouts/eventTypes';

/** Sent by sendTestWebhook to one endpoint, whatever it subscribes to. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** Every kind of event an endpoint can subscribe to, in the order the reference lists them. */
export const WEBHOOK_EVENT_KINDS = [ORDER_EVENTS, PAYOUT_EVENTS, EARNING_EVENTS] as const;

/** Every event an endpoint can subscribe to. */
export const WEBHOOK_EVENT_TYPES = WEBHOOK_EVENT_KINDS.flatMap(typeNamesOf);
export type WebhookEventType = TypeNameOf<(typeof WEBHOOK_EVENT_KINDS)[number]>;

export function isWebhookEventType(type: string): type is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}

/** The test event, sent to one endpoint on request (sendTestWebhook): no endpoint subscribes to it. */
const TEST_EVENTS = {
  name: 'test',
  label: 'test event',
  types: {
    [TEST_EVENT_TYPE]: {
      name: 'Test',
      summary: 'A test from the dashboard',
      description: 'Sent by `sendTestWebhook`',
      data: {
        required: ['endpointId'],
        properties: { endpointId: { type: 'string', format: 'uuid' } },
      },
    },
  },
} satisfies EventKind;

/** Every event an endpoint can receive: the subscribed kinds, then the test. */
export const SENT_EVENT_KINDS: readonly EventKind[] = [...WEBHOOK_EVENT_KINDS, TEST_EVENTS];

/** The Standard Webhooks body: the event type, when it happened, and its data. */
export interface WebhookBody {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}
