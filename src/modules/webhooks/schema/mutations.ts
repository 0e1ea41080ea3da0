// createWebhookEndpoint, updateWebhookEndpoint, deleteWebhookEndpoint, rotateWebhookSecret,
// redeliverWebhook, sendTestWebhook. Each writes its audit event in the same statement as the
// change (a nested create), as key management does.
import { prisma } from '../../../platform/db';
import { TEST_EVENT_TYPE, type WebhookBody } from '../eventTypes';
import { freshSchedule } from '../../../outbox/retries';
import { announceDueDeliveries } from '../../../outbox/wakeUp';
import { builder } from '../../../schema/builder';
import { deletedTarget, deleteTarget } from '../../../schema/deliveryTargets';
import { IDEMPOTENCY_NOTE, issueIdempotently } from '../../secrets/issuance';
import { deliveryOwnedBy, endpointOwnedBy, WEBHOOK_MANAGEMENT } from './access';
import { audited, auditEntry, createEndpoint, endpointChange, rotateSecret } from './endpoints';
import {
  CreateWebhookEndpointInput,
  SECRET_GRACE_NOTE,
  UpdateWebhookEndpointInput,
  WebhookEndpointWithSecret,
} from './types';

builder.mutationField('createWebhookEndpoint', (t) =>
  t.withAuth(WEBHOOK_MANAGEMENT).field({
    type: WebhookEndpointWithSecret,
    description:
      'Adds an endpoint for order events of the affiliate user; its signing secret is answered once.' +
      IDEMPOTENCY_NOTE,
    managementLimit: true,
    issuesSecret: true,
    args: { input: t.arg({ type: CreateWebhookEndpointInput, required: true }) },
    resolve: (_root, { input }, context, info) => {
      const fingerprint = {
        field: 'createWebhookEndpoint',
        url: input.url,
        events: input.events,
        description: input.description ?? null,
      };
      return issueIdempotently(context, info, context.affiliateUser.id, fingerprint, () =>
        createEndpoint(context, input),
      );
    },
  }),
);

builder.mutationField('updateWebhookEndpoint', (t) =>
  t.withAuth(WEBHOOK_MANAGEMENT).prismaField({
    type: 'WebhookEndpoint',
    description:
      'Changes the fields given; enabling clears a failing or disabled state (waiting deliveries resume)',
    managementLimit: true,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateWebhookEndpointInput, required: true }),
    },
    resolve: async (query, _root, { id, input }, context) => {
      const endpoint = await endpointOwnedBy(context.affiliateUser.id, String(id));
      return prisma.webhookEndpoint.update({
        ...query,
        where: { id: endpoint.id },
        data: await endpointChange(context, endpoint, input),
      });
    },
  }),
);

builder.mutationField('deleteWebhookEndpoint', (t) =>
  t.withAuth(WEBHOOK_MANAGEMENT).id({
    description:
      'Deletes an endpoint: nothing more is sent to it (its undelivered deliveries are dropped); answers its id',
    managementLimit: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, context) => {
      const { id } = await endpointOwnedBy(context.affiliateUser.id, String(args.id));
      return deleteTarget(
        'endpointId',
        id,
        prisma.webhookEndpoint.update({
          where: { id },
          data: { ...deletedTarget(), ...audited(context, 'DELETED') },
        }),
      );
    },
  }),
);

builder.mutationField('rotateWebhookSecret', (t) =>
  t.withAuth(WEBHOOK_MANAGEMENT).field({
    type: WebhookEndpointWithSecret,
    description: `Issues a new signing secret, answered once; ${SECRET_GRACE_NOTE} (only the newest replaced secret: rotating again ends the previous grace)`,
    managementLimit: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, context) => {
      const endpoint = await endpointOwnedBy(context.affiliateUser.id, String(args.id));
      return rotateSecret(context, endpoint);
    },
  }),
);

builder.mutationField('redeliverWebhook', (t) =>
  t.withAuth(WEBHOOK_MANAGEMENT).prismaField({
    type: 'WebhookDelivery',
    description:
      'Sends a delivery again, now, with the same webhook-id and body and a fresh retry schedule',
    managementLimit: true,
    args: { deliveryId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, context) => {
      const delivery = await deliveryOwnedBy(context.affiliateUser.id, String(args.deliveryId));
      const [redelivery] = await prisma.$transaction([
        prisma.webhookDelivery.update({
          ...query,
          where: { id: delivery.id },
          data: freshSchedule(new Date()),
        }),
        prisma.webhookEndpointEvent.create({
          data: {
            endpointId: delivery.endpointId,
            ...auditEntry(context, 'REDELIVERY_REQUESTED'),
          },
        }),
        announceDueDeliveries(prisma),
      ]);
      return redelivery;
    },
  }),
);

builder.mutationField('sendTestWebhook', (t) =>
  t.withAuth(WEBHOOK_MANAGEMENT).prismaField({
    type: 'WebhookDelivery',
    description: `Sends a \`${TEST_EVENT_TYPE}\` event to the endpoint (whatever events it takes); follow it in webhookDeliveries`,
    managementLimit: true,
    args: { endpointId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, context) => {
      const endpoint = await endpointOwnedBy(context.affiliateUser.id, String(args.endpointId));
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
          data: { endpointId: endpoint.id, ...auditEntry(context, 'TEST_SENT') },
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
);
