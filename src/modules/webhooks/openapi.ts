// The webhooks in the document's `webhooks` section (OpenAPI 3.1): the requests the service sends
// to an endpoint, their Standard Webhooks headers and bodies, so integrators (and the typed client)
// read the body's type where they read the routes'. Each event is as its module declares it
// (src/modules/webhooks/eventTypes.ts gathers them).
import { typeNamesOf, type EventKind, type EventTypeDeclaration } from '../../outbox/eventTypes';
import { SENT_EVENT_KINDS, WEBHOOK_EVENT_KINDS } from './eventTypes';
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

/** The request body of an event: its type, when it happened, and its `data` as its module declares. */
function bodySchemaOf(type: string, event: EventTypeDeclaration): Json {
  return {
    type: 'object',
    description: event.description ?? event.summary,
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: { type: 'string', const: type },
      timestamp,
      data: { type: 'object', ...event.data },
    },
  };
}

/** `order.status_changed`: OrderStatusChanged. */
const wordsOf = (type: string) =>
  type.replace(/(?:^|[._])([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** An event as the document describes it: its body's schema (a component) and its summary. */
interface EventDocument {
  operationId: string;
  schemaName: string;
  summary: string;
  schema: Json;
}

/** Every event an endpoint can receive, each described once: its body, and the `webhooks` entry. */
function eventDocuments(): [string, EventDocument][] {
  return SENT_EVENT_KINDS.flatMap((kind) =>
    Object.entries(kind.types).map(([type, event]): [string, EventDocument] => {
      const name = event.name ?? wordsOf(type);
      return [
        type,
        {
          operationId: `${name[0]!.toLowerCase()}${name.slice(1)}Webhook`,
          schemaName: `${name}Webhook`,
          summary: event.summary,
          schema: bodySchemaOf(type, event),
        },
      ];
    }),
  );
}

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

/** `order events (`order.created`, ...)`. */
const listed = (kind: EventKind) =>
  `${kind.label} (${typeNamesOf(kind)
    .map((type) => `\`${type}\``)
    .join(', ')})`;

/** The subscribed kinds and their types, as a sentence's subject: `Order events (...), ... and ...`. */
function kindsListed(): string {
  const kinds = WEBHOOK_EVENT_KINDS.map(listed);
  const text = `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)!}`;
  return `${text[0]!.toUpperCase()}${text.slice(1)}`;
}

/** The document's `webhooks` and the component schemas of their bodies. */
export function webhookDocumentation(): Required<
  Pick<OpenApiFragment, 'webhooks' | 'schemas' | 'tags' | 'description'>
> {
  const events = eventDocuments();
  return {
    tags: [TAG],
    description: `**Webhooks.** ${kindsListed()} are sent to the endpoints an affiliate user manages over GraphQL, signed per Standard Webhooks; the \`webhooks\` section describes their requests.`,
    webhooks: Object.fromEntries(events.map(([type, event]) => [type, webhookOperation(event)])),
    schemas: Object.fromEntries(events.map(([, event]) => [event.schemaName, event.schema])),
  };
}
