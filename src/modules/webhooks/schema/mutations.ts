// createWebhookEndpoint, updateWebhookEndpoint, deleteWebhookEndpoint, rotateWebhookSecret,
// redeliverWebhook, sendTestWebhook. Each writes its audit event in the same statement as the
// change (a nested create), as key management does.
import { config } from '../../../platform/config';
import { prisma } from '../../../platform/db';
import { BadRequestError } from '../../../platform/errors';
import { TEST_EVENT_TYPE, type WebhookBody } from '../events';
import { freshSchedule } from '../../../outbox/retries';
import { announceDueDeliveries } from '../../../outbox/wakeUp';
import { newWebhookSecret, SECRET_GRACE_PERIOD_S } from '../signing';
import { savedUrlRefusal } from '../../../outbox/urls';
import { actorOf } from '../../../schema/dashboardUser';
import { builder } from '../../../schema/builder';
import { IDEMPOTENCY_NOTE, issueIdempotently } from '../../secrets/issuance';
import { createWithinCap, type OwnershipCap } from '../../secrets/ownershipCaps';
import { deliveryOwnedBy, endpointOwnedBy, webhookOwner } from './access';
import { MAX_ENDPOINTS_PER_USER, webhookDescription, webhookEvents } from './rules';
import {
  CreateWebhookEndpointInput,
  SECRET_GRACE_NOTE,
  UpdateWebhookEndpointInput,
  WebhookEndpointWithSecret,
} from './types';

/** The URL if an endpoint may have it: its form, then every address its host resolves to. */
async function webhookUrl(raw: string): Promise<string> {
  const url = raw.trim();
  const refusal = await savedUrlRefusal(url, {
    allowPrivate: config.webhookAllowPrivateUrls,
    isProduction: config.isProduction,
  });
  if (refusal) throw new BadRequestError(refusal);
  return url;
}

/** The endpoint cap (src/modules/secrets/ownershipCaps.ts): endpoints not deleted. */
const ENDPOINT_CAP: OwnershipCap = {
  max: MAX_ENDPOINTS_PER_USER,
  refusal: `At most ${MAX_ENDPOINTS_PER_USER} webhook endpoints per user: delete one first`,
  count: (tx, ownerId) => tx.webhookEndpoint.count({ where: { ownerId, deletedAt: null } }),
};

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    type: WebhookEndpointWithSecret,
    description:
      'Adds an endpoint for order events of the affiliate user; its signing secret is answered once.' +
      IDEMPOTENCY_NOTE,
    authScopes: { dashboardUser: true },
    managementLimit: true,
    issuesSecret: true,
    args: { input: t.arg({ type: CreateWebhookEndpointInput, required: true }) },
    resolve: async (_root, { input }, context, info) => {
      const user = await webhookOwner(context.dashboardUserId);
      const fingerprint = {
        field: 'createWebhookEndpoint',
        url: input.url,
        events: input.events,
        description: input.description ?? null,
      };
      return issueIdempotently(context, info, user.id, fingerprint, async () => {
        const events = webhookEvents(input.events);
        const description = webhookDescription(input.description);
        const url = await webhookUrl(input.url);
        const secret = newWebhookSecret();
        const endpoint = await createWithinCap(user.id, ENDPOINT_CAP, (tx) =>
          tx.webhookEndpoint.create({
            data: {
              ownerId: user.id,
              url,
              events,
              description,
              secret,
              auditTrail: { create: { kind: 'CREATED', ...actorOf(context, user.id) } },
            },
            select: { id: true },
          }),
        );
        return { id: endpoint.id, secret };
      });
    },
  }),
  updateWebhookEndpoint: t.prismaField({
    type: 'WebhookEndpoint',
    description:
      'Changes the fields given; enabling clears a failing or disabled state (waiting deliveries resume)',
    authScopes: { dashboardUser: true },
    managementLimit: true,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateWebhookEndpointInput, required: true }),
    },
    resolve: async (query, _root, { id, input }, context) => {
      const user = await webhookOwner(context.dashboardUserId);
      const endpoint = await endpointOwnedBy(user.id, String(id));
      const enabledChange =
        input.enabled === true
          ? { enabled: true, failingSince: null, disabledAt: null, disabledReason: null }
          : input.enabled === false && endpoint.enabled
            ? { enabled: false, disabledAt: new Date(), disabledReason: null }
            : {};
      return prisma.webhookEndpoint.update({
        ...query,
        where: { id: endpoint.id },
        data: {
          ...(input.url != null && { url: await webhookUrl(input.url) }),
          ...(input.events != null && { events: webhookEvents(input.events) }),
          ...(input.description !== undefined && {
            description: webhookDescription(input.description),
          }),
          ...enabledChange,
          auditTrail: { create: { kind: 'UPDATED', ...actorOf(context, user.id) } },
        },
      });
    },
  }),
  deleteWebhookEndpoint: t.id({
    description:
      'Deletes an endpoint: nothing more is sent to it (its undelivered deliveries are dropped); answers its id',
    authScopes: { dashboardUser: true },
    managementLimit: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, context) => {
      const user = await webhookOwner(context.dashboardUserId);
      const endpoint = await endpointOwnedBy(user.id, String(args.id));
      // What was delivered stays as history; nothing else will ever be sent.
      await prisma.$transaction([
        prisma.webhookEndpoint.update({
          where: { id: endpoint.id },
          data: {
            deletedAt: new Date(),
            enabled: false,
            auditTrail: { create: { kind: 'DELETED', ...actorOf(context, user.id) } },
          },
        }),
        prisma.webhookDelivery.deleteMany({
          where: { endpointId: endpoint.id, state: { not: 'DELIVERED' } },
        }),
      ]);
      return endpoint.id;
    },
  }),
  rotateWebhookSecret: t.field({
    type: WebhookEndpointWithSecret,
    description: `Issues a new signing secret, answered once; ${SECRET_GRACE_NOTE} (only the newest replaced secret: rotating again ends the previous grace)`,
    authScopes: { dashboardUser: true },
    managementLimit: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, context) => {
      const user = await webhookOwner(context.dashboardUserId);
      const endpoint = await endpointOwnedBy(user.id, String(args.id));
      const secret = newWebhookSecret();
      await prisma.webhookEndpoint.update({
        where: { id: endpoint.id },
        data: {
          secret,
          previousSecret: endpoint.secret,
          previousSecretExpiresAt: new Date(Date.now() + SECRET_GRACE_PERIOD_S * 1000),
          auditTrail: { create: { kind: 'SECRET_ROTATED', ...actorOf(context, user.id) } },
        },
      });
      return { id: endpoint.id, secret };
    },
  }),
  redeliverWebhook: t.prismaField({
    type: 'WebhookDelivery',
    description:
      'Sends a delivery again, now, with the same webhook-id and body and a fresh retry schedule',
    authScopes: { dashboardUser: true },
    managementLimit: true,
    args: { deliveryId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, context) => {
      const user = await webhookOwner(context.dashboardUserId);
      const delivery = await deliveryOwnedBy(user.id, String(args.deliveryId));
      const [redelivery] = await prisma.$transaction([
        prisma.webhookDelivery.update({
          ...query,
          where: { id: delivery.id },
          data: freshSchedule(new Date()),
        }),
        prisma.webhookEndpointEvent.create({
          data: {
            endpointId: delivery.endpointId,
            kind: 'REDELIVERY_REQUESTED',
            ...actorOf(context, user.id),
          },
        }),
        announceDueDeliveries(prisma),
      ]);
      return redelivery;
    },
  }),
  sendTestWebhook: t.prismaField({
    type: 'WebhookDelivery',
    description: `Sends a \`${TEST_EVENT_TYPE}\` event to the endpoint (whatever events it takes); follow it in webhookDeliveries`,
    authScopes: { dashboardUser: true },
    managementLimit: true,
    args: { endpointId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, context) => {
      const user = await webhookOwner(context.dashboardUserId);
      const endpoint = await endpointOwnedBy(user.id, String(args.endpointId));
      const occurredAt = new Date();
      const body: WebhookBody = {
        type: TEST_EVENT_TYPE,
        timestamp: occurredAt.toISOString(),
        data: { endpointId: endpoint.id },
      };
      return prisma.$transaction(async (tx) => {
        const event = await tx.webhookEvent.create({
          data: { type: TEST_EVENT_TYPE, occurredAt, payload: JSON.stringify(body) },
        });
        await tx.webhookEndpointEvent.create({
          data: { endpointId: endpoint.id, kind: 'TEST_SENT', ...actorOf(context, user.id) },
        });
        const delivery = await tx.webhookDelivery.create({
          ...query,
          data: { eventId: event.id, endpointId: endpoint.id, seq: event.seq },
        });
        await announceDueDeliveries(tx);
        return delivery;
      });
    },
  }),
}));
