// The order webhooks in the document's `webhooks` section (OpenAPI 3.1): the requests the service
// sends to an endpoint, their Standard Webhooks headers and bodies, so integrators (and the typed
// client) read the body's type where they read the routes'.
import { ORDER_EVENT_TYPES } from '../orders/eventTypes';
import { PAYOUT_EVENT_TYPES } from '../payouts/eventTypes';
import { EARNING_EVENT_TYPES, TEST_EVENT_TYPE, type WebhookEventType } from './events';
import { SECRET_GRACE_PERIOD_S } from './signing';
import type { OpenApiFragment } from '../../rest/openapi/fragment';
import { ref, type Json } from '../../rest/openapi/json';

const TAG = 'Webhooks';

const HEADERS: Json[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The message id: the same on every retry and redelivery (deduplicate on it)',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix time (seconds) of this attempt; refuse messages far from your clock',
    schema: { type: 'integer' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description: `\`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">\` by the endpoint's secret; space-separated, one per secret, during the ${SECRET_GRACE_PERIOD_S / 3600} h after a rotation`,
    schema: { type: 'string' },
  },
];

const timestamp = {
  type: 'string',
  format: 'date-time',
  description: 'When the change happened',
};

/**
 * A payout event's body, or a new entry's: the payout as `GET /affiliate/payouts/{payoutId}`
 * answers it (`data.payout`), or the entry as `GET /affiliate/earnings/{earningId}` (`data.earning`).
 */
function rowWebhookSchema(type: string, description: string, key: string, schema: string): Json {
  return {
    type: 'object',
    description,
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: { type: 'string', const: type },
      timestamp,
      data: { type: 'object', required: [key], properties: { [key]: ref(schema) } },
    },
  };
}

/** A change's reason and note, when the order event has one (docs/order-lifecycle.md). */
const reasonProperties = {
  reason: ref('OrderStatusReason'),
  note: { type: ['string', 'null'], description: "The brand's words beside the reason" },
};

/** The body of a lifecycle event: the order, and what the event adds. */
function lifecycleWebhook(
  type: string,
  description: string,
  properties: Record<string, Json> = {},
  required: string[] = [],
): Json {
  return {
    type: 'object',
    description,
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: { type: 'string', const: type },
      timestamp,
      data: {
        type: 'object',
        required: ['order', ...required],
        properties: { order: ref('Order'), ...properties },
      },
    },
  };
}

const money = (description: string) => ({
  type: 'number',
  description: `${description}, in the order's \`currency\` with its decimals`,
});

/** An event as the document describes it: its body's schema (a component) and its summary. */
interface EventDocument {
  operationId: string;
  schemaName: string;
  summary: string;
  schema: Json;
}

const payoutEvent = (
  type: string,
  name: string,
  summary: string,
  description: string,
): EventDocument => ({
  operationId: `payout${name}Webhook`,
  schemaName: `Payout${name}Webhook`,
  summary,
  schema: rowWebhookSchema(type, `${summary}: ${description}`, 'payout', 'Payout'),
});

/** Every event an endpoint can receive, each described once: its body, and the `webhooks` entry. */
const EVENTS: Record<WebhookEventType | typeof TEST_EVENT_TYPE, EventDocument> = {
  'order.created': {
    operationId: 'orderCreatedWebhook',
    schemaName: 'OrderCreatedWebhook',
    summary: 'An order of the affiliate was recorded',
    schema: lifecycleWebhook('order.created', 'An order of the affiliate was recorded'),
  },
  'order.status_changed': {
    operationId: 'orderStatusChangedWebhook',
    schemaName: 'OrderStatusChangedWebhook',
    summary: "An order's status changed",
    schema: lifecycleWebhook(
      'order.status_changed',
      "The order's status changed from `previousStatus` to the order's `status`",
      { previousStatus: ref('OrderStatus'), ...reasonProperties },
      ['previousStatus'],
    ),
  },
  'order.adjusted': {
    operationId: 'orderAdjustedWebhook',
    schemaName: 'OrderAdjustedWebhook',
    summary: "An order's amounts changed",
    schema: lifecycleWebhook(
      'order.adjusted',
      "The order's amounts changed: the order has the new ones, `previous*` the old ones",
      {
        ...reasonProperties,
        previousSaleAmount: money('The transaction value before the change'),
        previousEarnings: money('The earnings before the change'),
        saleAmountDelta: money('The new transaction value less the previous one'),
        earningsDelta: money('The new earnings less the previous ones'),
      },
      ['reason', 'previousSaleAmount', 'previousEarnings', 'saleAmountDelta', 'earningsDelta'],
    ),
  },
  'order.locked': {
    operationId: 'orderLockedWebhook',
    schemaName: 'OrderLockedWebhook',
    summary: 'An order locked',
    schema: lifecycleWebhook(
      'order.locked',
      'The order passed its lock date: it no longer changes, but for APPROVED to PAID',
    ),
  },
  'order.paid': {
    operationId: 'orderPaidWebhook',
    schemaName: 'OrderPaidWebhook',
    summary: 'An order was paid',
    schema: lifecycleWebhook(
      'order.paid',
      'The order was paid (an `order.status_changed` to PAID comes with it)',
      { previousStatus: ref('OrderStatus') },
      ['previousStatus'],
    ),
  },
  'order.held': {
    operationId: 'orderHeldWebhook',
    schemaName: 'OrderHeldWebhook',
    summary: 'An order was held',
    schema: lifecycleWebhook(
      'order.held',
      "The order was held for review, a dispute or a fraud check: its earnings are in the balance's `held`, never paid while held",
      {
        heldReason: ref('HoldReason'),
        note: { type: ['string', 'null'], description: "The network's words beside the reason" },
      },
      ['heldReason'],
    ),
  },
  'order.released': {
    operationId: 'orderReleasedWebhook',
    schemaName: 'OrderReleasedWebhook',
    summary: 'An order was released from its hold',
    schema: lifecycleWebhook(
      'order.released',
      'The hold ended: the order is payable again once approved and locked (a rejection ends a hold too)',
    ),
  },
  'order.clawback': {
    operationId: 'orderClawbackWebhook',
    schemaName: 'OrderClawbackWebhook',
    summary: 'Money was taken back from a paid order',
    schema: lifecycleWebhook(
      'order.clawback',
      "A CLAWBACK entry takes back part or all of the paid order's earnings from the next payout (its `earning.created` comes with it)",
      {
        earningId: { type: 'string', format: 'uuid', description: 'The CLAWBACK entry' },
        clawback: money('What it takes back (negative)'),
        note: { type: 'string', description: "The entry's reason" },
      },
      ['earningId', 'clawback', 'note'],
    ),
  },
  'payout.scheduled': payoutEvent(
    'payout.scheduled',
    'Scheduled',
    'A payout of the affiliate was scheduled',
    'its orders are in payment',
  ),
  'payout.processing': payoutEvent(
    'payout.processing',
    'Processing',
    "A payout's payment started",
    'the payout is PROCESSING since its `initiatedAt`',
  ),
  'payout.paid': payoutEvent(
    'payout.paid',
    'Paid',
    'A payout of the affiliate was paid',
    'its orders are PAID (each with its order.status_changed)',
  ),
  'payout.failed': payoutEvent(
    'payout.failed',
    'Failed',
    'A payout of the affiliate failed',
    'its `failureReason` says why, and its orders are available for another payout',
  ),
  'payout.cancelled': payoutEvent(
    'payout.cancelled',
    'Cancelled',
    'A payout of the affiliate was cancelled',
    'the network changed its mind before paying; its orders are available for another payout',
  ),
  'earning.created': {
    operationId: 'earningCreatedWebhook',
    schemaName: 'EarningCreatedWebhook',
    summary: 'A ledger entry of the affiliate was written',
    schema: rowWebhookSchema(
      'earning.created',
      'A ledger entry was written (a bonus, pay per click, a credit, a debit or a clawback): paid through the next payout, counted in the balance',
      'earning',
      'Earning',
    ),
  },
  [TEST_EVENT_TYPE]: {
    operationId: 'testWebhook',
    schemaName: 'TestWebhook',
    summary: 'A test from the dashboard',
    schema: {
      type: 'object',
      description: 'Sent by `sendTestWebhook`',
      required: ['type', 'timestamp', 'data'],
      properties: {
        type: { type: 'string', const: TEST_EVENT_TYPE },
        timestamp,
        data: {
          type: 'object',
          required: ['endpointId'],
          properties: { endpointId: { type: 'string', format: 'uuid' } },
        },
      },
    },
  },
};

function webhookOperation({ operationId, schemaName, summary }: EventDocument): Json {
  return {
    post: {
      operationId,
      tags: [TAG],
      summary,
      description:
        'Sent as a JSON POST to every enabled endpoint subscribed to the event (GraphQL `createWebhookEndpoint`). Verify `webhook-signature` on the raw body before parsing it (any Standard Webhooks library). Answer 2xx within 10 s; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (with jitter). One order’s (or payout’s) events arrive in order.',
      security: [],
      parameters: HEADERS,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref(schemaName) } },
      },
      responses: { '2XX': { description: 'Received' } },
    },
  };
}

const listed = (types: readonly string[]) => types.map((type) => `\`${type}\``).join(', ');

/** The document's `webhooks` and the component schemas of their bodies. */
export function webhookDocumentation(): Required<
  Pick<OpenApiFragment, 'webhooks' | 'schemas' | 'tags' | 'description'>
> {
  const events = Object.entries(EVENTS);
  return {
    tags: [TAG],
    description: `**Webhooks.** Order events (${listed(ORDER_EVENT_TYPES)}), payout events (${listed(PAYOUT_EVENT_TYPES)}) and ledger events (${listed(EARNING_EVENT_TYPES)}) are sent to the endpoints an affiliate user manages over GraphQL, signed per Standard Webhooks; the \`webhooks\` section describes their requests.`,
    webhooks: Object.fromEntries(events.map(([type, event]) => [type, webhookOperation(event)])),
    schemas: Object.fromEntries(events.map(([, event]) => [event.schemaName, event.schema])),
  };
}
