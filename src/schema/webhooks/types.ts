// The object and input types of webhook management. No type carries a signing secret except
// WebhookEndpointWithSecret, the answer of createWebhookEndpoint and rotateWebhookSecret.
import { prisma } from '../../db';
import { WebhookDeliveryState, WebhookEndpointEventKind } from '../../generated/prisma/client';
import { MAX_URL_LENGTH } from '../inputLimits';
import { builder } from '../builder';
import type { IssuedSecret } from '../idempotentIssue/issue';
import { ORDER_EVENT_TYPES } from '../../webhooks/events';
import { SECRET_GRACE_PERIOD_S } from '../../webhooks/signing';

const EVENTS_NOTE = `Event types: ${ORDER_EVENT_TYPES.join(', ')}`;

builder.enumType(WebhookDeliveryState, {
  name: 'WebhookDeliveryState',
  description:
    'PENDING: not yet delivered (retries scheduled); DELIVERED: the endpoint answered 2xx; ' +
    'FAILED: every retry failed (redeliverWebhook sends it again)',
});
builder.enumType(WebhookEndpointEventKind, {
  name: 'WebhookEndpointEventKind',
  description:
    'What the dashboard user did to the endpoint; DISABLED: the service disabled it after its ' +
    'deliveries kept failing',
});

builder.prismaObject('WebhookEndpoint', {
  description: 'Where order events are sent, without its signing secret',
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    events: t.exposeStringList('events', { description: EVENTS_NOTE }),
    description: t.exposeString('description', { nullable: true }),
    enabled: t.exposeBoolean('enabled'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    failingSince: t.expose('failingSince', {
      type: 'DateTime',
      nullable: true,
      description:
        'Since when every delivery that ended has failed (all retries, about a day); null once one succeeds',
    }),
    disabledAt: t.expose('disabledAt', { type: 'DateTime', nullable: true }),
    disabledReason: t.exposeString('disabledReason', {
      nullable: true,
      description: 'Why the service disabled the endpoint; null when its owner did',
    }),
    previousSecretExpiresAt: t.expose('previousSecretExpiresAt', {
      type: 'DateTime',
      nullable: true,
      description:
        'Until when the secret replaced by the last rotation still signs, beside the new one',
    }),
  }),
});

/** The endpoint's id, and its signing secret (`whsec_...`). */
export const WebhookEndpointWithSecret = builder
  .objectRef<IssuedSecret>('WebhookEndpointWithSecret')
  .implement({
    description:
      'An endpoint and its signing secret, answered only once (and to a retry of the same request)',
    fields: (t) => ({
      secret: t.exposeString('secret', {
        description:
          'The Standard Webhooks signing secret (whsec_...); store it now, it is not shown again',
      }),
      endpoint: t.prismaField({
        type: 'WebhookEndpoint',
        resolve: (query, parent) =>
          prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: parent.id } }),
      }),
    }),
  });

builder.prismaObject('WebhookAttempt', {
  description: 'One HTTP attempt of a delivery',
  fields: (t) => ({
    attemptedAt: t.expose('attemptedAt', { type: 'DateTime' }),
    statusCode: t.exposeInt('statusCode', {
      nullable: true,
      description: "The endpoint's HTTP status; null when no answer came",
    }),
    durationMs: t.exposeInt('durationMs'),
    error: t.exposeString('error', { nullable: true, description: 'Why it failed; null on 2xx' }),
    responseBody: t.exposeString('responseBody', {
      nullable: true,
      description: "The start of the endpoint's answer (at most 4 KiB)",
    }),
  }),
});

builder.prismaObject('WebhookDelivery', {
  description: 'One event sent to one endpoint, with its attempts',
  fields: (t) => ({
    id: t.exposeID('id'),
    webhookId: t.exposeID('eventId', {
      description: 'The `webhook-id` header: the same on every attempt, for deduplication',
    }),
    endpointId: t.exposeID('endpointId'),
    eventType: t.string({
      select: { event: { select: { type: true } } },
      resolve: (delivery) => delivery.event.type,
    }),
    orderId: t.exposeID('orderId', { nullable: true }),
    state: t.expose('state', { type: WebhookDeliveryState }),
    attemptCount: t.exposeInt('attemptCount'),
    nextAttemptAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the next attempt is due; null unless PENDING',
      select: { state: true, nextAttemptAt: true },
      resolve: (delivery) => (delivery.state === 'PENDING' ? delivery.nextAttemptAt : null),
    }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    attempts: t.relation('attempts', {
      description: 'Oldest first',
      query: { orderBy: [{ attemptedAt: 'asc' }, { id: 'asc' }] },
    }),
  }),
});

builder.prismaObject('WebhookEndpointEvent', {
  description: 'One entry of an endpoint’s audit trail (never holds a secret)',
  fields: (t) => ({
    id: t.exposeID('id'),
    endpointId: t.exposeID('endpointId'),
    kind: t.expose('kind', { type: WebhookEndpointEventKind }),
    actorUserId: t.exposeID('actorUserId', {
      nullable: true,
      description: 'The dashboard user who acted; null when the service did',
    }),
    ip: t.exposeString('ip', { nullable: true, description: 'Client address; null if unknown' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const URL_NOTE =
  'https, on a host whose every address is public (http and private addresses only where ' +
  'WEBHOOK_ALLOW_PRIVATE_URLS is set)';

export const CreateWebhookEndpointInput = builder.inputType('CreateWebhookEndpointInput', {
  fields: (t) => ({
    url: t.string({
      required: true,
      description: URL_NOTE,
      extensions: { maxLength: MAX_URL_LENGTH },
    }),
    events: t.stringList({ required: true, description: EVENTS_NOTE }),
    description: t.string({ description: 'Up to 500 characters' }),
  }),
});

export const UpdateWebhookEndpointInput = builder.inputType('UpdateWebhookEndpointInput', {
  description: 'Only the fields given change',
  fields: (t) => ({
    url: t.string({ description: URL_NOTE, extensions: { maxLength: MAX_URL_LENGTH } }),
    events: t.stringList({ description: EVENTS_NOTE }),
    description: t.string({ description: 'Up to 500 characters; empty removes it' }),
    enabled: t.boolean({
      description:
        'false pauses deliveries (they wait); true resumes them and clears a failing or disabled state',
    }),
  }),
});

export const SECRET_GRACE_NOTE = `the replaced secret keeps signing beside the new one for ${SECRET_GRACE_PERIOD_S / 3600} h`;
