// The object and input types of webhook management. No type carries a signing secret except
// WebhookEndpointWithSecret, the answer of createWebhookEndpoint and rotateWebhookSecret.
import { prisma } from '../../../platform/db';
import { WebhookDeliveryState, WebhookEndpointEventKind } from '../../../generated/prisma/client';
import { MAX_URL_LENGTH } from '../../../schema/inputLimits';
import { builder } from '../../../schema/builder';
import { listOf, storedTextOf } from '../../../schema/complexity';
import { DeliveryTarget, deliveryScheduleFields } from '../../../schema/deliveryTargets';
import type { IssuedSecret } from '../../secrets/issuance';
import { WEBHOOK_EVENT_TYPES } from '../eventTypes';
import { RESPONSE_BODY_MAX_BYTES } from '../../../outbox/send';
import { SECRET_GRACE_PERIOD_S } from '../signing';

const EVENTS_NOTE = `Event types: ${WEBHOOK_EVENT_TYPES.join(', ')}`;

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
  interfaces: [DeliveryTarget],
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    events: t.exposeStringList('events', { description: EVENTS_NOTE }),
    description: t.exposeString('description', { nullable: true }),
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

/** The newest attempts each delivery of a list shows (webhookDelivery shows more, with answers). */
export const MAX_LISTED_ATTEMPTS = 10;
/** The newest attempts webhookDelivery shows, each with the start of the endpoint's answer. */
export const MAX_DETAILED_ATTEMPTS = 50;

builder.prismaObject('WebhookAttempt', {
  description: "One HTTP attempt of a delivery (the endpoint's answer: webhookDelivery)",
  // Only the columns asked for are read: a list of attempts never reads their 4 KiB answers.
  select: { id: true },
  fields: (t) => ({
    attemptedAt: t.expose('attemptedAt', { type: 'DateTime' }),
    statusCode: t.exposeInt('statusCode', {
      nullable: true,
      description: "The endpoint's HTTP status; null when no answer came",
    }),
    durationMs: t.exposeInt('durationMs'),
    error: t.exposeString('error', { nullable: true, description: 'Why it failed; null on 2xx' }),
  }),
});

const WebhookAttemptDetail = builder.prismaObject('WebhookAttempt', {
  variant: 'WebhookAttemptDetail',
  description: "One HTTP attempt of a delivery, and the start of the endpoint's answer",
  select: { id: true },
  fields: (t) => ({
    attempt: t.variant('WebhookAttempt'),
    responseBody: t.exposeString('responseBody', {
      nullable: true,
      description: "The start of the endpoint's answer (at most 4 KiB, as JSON writes it)",
      complexity: storedTextOf(RESPONSE_BODY_MAX_BYTES),
    }),
  }),
});

/** Newest first: a delivery's attempts only grow (every redelivery adds a schedule's worth). */
const NEWEST_ATTEMPTS_FIRST = [{ attemptedAt: 'desc' as const }, { id: 'desc' as const }];

builder.prismaObject('WebhookDelivery', {
  description: 'One event sent to one endpoint, with its newest attempts',
  fields: (t) => ({
    id: t.exposeID('id'),
    webhookId: t.exposeID('eventId', {
      description: 'The `webhook-id` header: the same on every attempt, for deduplication',
    }),
    endpointId: t.id({
      select: { endpointId: true },
      // Webhook deliveries are read through their endpoint: the outbox's other target (a
      // postback) never shows here.
      resolve: (delivery) => delivery.endpointId!,
    }),
    eventType: t.string({
      select: { event: { select: { type: true } } },
      resolve: (delivery) => delivery.event.type,
    }),
    orderId: t.exposeID('orderId', { nullable: true }),
    state: t.expose('state', { type: WebhookDeliveryState }),
    ...deliveryScheduleFields(t, 'redeliverWebhook'),
    attempts: t.relation('attempts', {
      description: `The newest ${MAX_LISTED_ATTEMPTS}, newest first; all of them (the newest ${MAX_DETAILED_ATTEMPTS}) with the endpoint's answers: webhookDelivery`,
      query: { orderBy: NEWEST_ATTEMPTS_FIRST, take: MAX_LISTED_ATTEMPTS },
      complexity: listOf(MAX_LISTED_ATTEMPTS),
    }),
  }),
});

/** One delivery as webhookDelivery shows it: everything a list shows, and its attempts' answers. */
export const WebhookDeliveryDetail = builder.prismaObject('WebhookDelivery', {
  variant: 'WebhookDeliveryDetail',
  description: "One delivery, and its attempts with the endpoint's answers",
  fields: (t) => ({
    delivery: t.variant('WebhookDelivery'),
    attempts: t.relation('attempts', {
      type: WebhookAttemptDetail,
      description: `The newest ${MAX_DETAILED_ATTEMPTS}, newest first`,
      query: { orderBy: NEWEST_ATTEMPTS_FIRST, take: MAX_DETAILED_ATTEMPTS },
      complexity: listOf(MAX_DETAILED_ATTEMPTS),
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
  'https, on port 443 or 80, on a host whose every address is public (http, other ports and ' +
  'private addresses only where WEBHOOK_ALLOW_PRIVATE_URLS is set)';

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
