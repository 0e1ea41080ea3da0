// The order webhooks in the document's `webhooks` section (OpenAPI 3.1): the requests the service
// sends to an endpoint, their Standard Webhooks headers and bodies, so integrators (and the typed
// client) read the body's type where they read the routes'.
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

/** A payout event's body: the payout as `GET /affiliate/payouts/{payoutId}` answers it. */
function payoutWebhookSchema(type: string, description: string): Json {
  return {
    type: 'object',
    description,
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: { type: 'string', const: type },
      timestamp,
      data: { type: 'object', required: ['payout'], properties: { payout: ref('Payout') } },
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

const SCHEMAS: Record<string, Json> = {
  OrderCreatedWebhook: {
    type: 'object',
    description: 'An order of the affiliate was recorded',
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: { type: 'string', const: 'order.created' },
      timestamp,
      data: {
        type: 'object',
        required: ['order'],
        properties: { order: ref('Order') },
      },
    },
  },
  OrderStatusChangedWebhook: {
    type: 'object',
    description: "The order's status changed from `previousStatus` to the order's `status`",
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: { type: 'string', const: 'order.status_changed' },
      timestamp,
      data: {
        type: 'object',
        required: ['order', 'previousStatus'],
        properties: {
          order: ref('Order'),
          previousStatus: ref('OrderStatus'),
          ...reasonProperties,
        },
      },
    },
  },
  PayoutScheduledWebhook: payoutWebhookSchema(
    'payout.scheduled',
    'A payout of the affiliate was scheduled: its orders are in payment',
  ),
  PayoutPaidWebhook: payoutWebhookSchema(
    'payout.paid',
    'A payout of the affiliate was paid: its orders are PAID (each with its order.status_changed)',
  ),
  PayoutFailedWebhook: payoutWebhookSchema(
    'payout.failed',
    'A payout of the affiliate failed: its orders are available for another payout',
  ),
  OrderAdjustedWebhook: lifecycleWebhook(
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
  OrderLockedWebhook: lifecycleWebhook(
    'order.locked',
    'The order passed its lock date: it no longer changes, but for APPROVED to PAID',
  ),
  OrderPaidWebhook: lifecycleWebhook(
    'order.paid',
    'The order was paid (an `order.status_changed` to PAID comes with it)',
    { previousStatus: ref('OrderStatus') },
    ['previousStatus'],
  ),
  TestWebhook: {
    type: 'object',
    description: 'Sent by `sendTestWebhook`',
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: { type: 'string', const: 'webhook.test' },
      timestamp,
      data: {
        type: 'object',
        required: ['endpointId'],
        properties: { endpointId: { type: 'string', format: 'uuid' } },
      },
    },
  },
};

function webhookOperation(operationId: string, schema: string, summary: string): Json {
  return {
    post: {
      operationId,
      tags: [TAG],
      summary,
      description:
        'Sent as a JSON POST to every enabled endpoint subscribed to the event (GraphQL `createWebhookEndpoint`). Verify `webhook-signature` on the raw body before parsing it (any Standard Webhooks library). Answer 2xx within 10 s; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (with jitter). One order’s (or payout’s) events arrive in order.',
      security: [],
      parameters: HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: ref(schema) } } },
      responses: { '2XX': { description: 'Received' } },
    },
  };
}

/** The document's `webhooks` and the component schemas of their bodies. */
export function webhookDocumentation(): Required<
  Pick<OpenApiFragment, 'webhooks' | 'schemas' | 'tags' | 'description'>
> {
  return {
    tags: [TAG],
    description:
      '**Webhooks.** Order events (`order.created`, `order.status_changed`, `order.adjusted`, `order.locked`, `order.paid`) and payout events (`payout.scheduled`, `payout.paid`, `payout.failed`) are sent to the endpoints an affiliate user manages over GraphQL, signed per Standard Webhooks; the `webhooks` section describes their requests.',
    webhooks: {
      'order.created': webhookOperation(
        'orderCreatedWebhook',
        'OrderCreatedWebhook',
        'An order of the affiliate was recorded',
      ),
      'order.status_changed': webhookOperation(
        'orderStatusChangedWebhook',
        'OrderStatusChangedWebhook',
        "An order's status changed",
      ),
      'payout.scheduled': webhookOperation(
        'payoutScheduledWebhook',
        'PayoutScheduledWebhook',
        'A payout of the affiliate was scheduled',
      ),
      'payout.paid': webhookOperation(
        'payoutPaidWebhook',
        'PayoutPaidWebhook',
        'A payout of the affiliate was paid',
      ),
      'payout.failed': webhookOperation(
        'payoutFailedWebhook',
        'PayoutFailedWebhook',
        'A payout of the affiliate failed',
      ),
      'order.adjusted': webhookOperation(
        'orderAdjustedWebhook',
        'OrderAdjustedWebhook',
        "An order's amounts changed",
      ),
      'order.locked': webhookOperation(
        'orderLockedWebhook',
        'OrderLockedWebhook',
        'An order locked',
      ),
      'order.paid': webhookOperation('orderPaidWebhook', 'OrderPaidWebhook', 'An order was paid'),
      'webhook.test': webhookOperation('testWebhook', 'TestWebhook', 'A test from the dashboard'),
    },
    schemas: SCHEMAS,
  };
}
