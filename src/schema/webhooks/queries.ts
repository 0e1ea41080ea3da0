// listWebhookEndpoints, webhookDeliveries, webhookEndpointEvents: the dashboard user's own.
import { prisma } from '../../db';
import { builder } from '../builder';
import { endpointOwnedBy, webhookOwner } from './access';

/** The newest deliveries of an endpoint that webhookDeliveries answers. */
export const MAX_LISTED_DELIVERIES = 100;
/** The newest audit events of an endpoint that webhookEndpointEvents answers. */
export const MAX_ENDPOINT_EVENTS = 1_000;

builder.queryFields((t) => ({
  listWebhookEndpoints: t.prismaField({
    type: ['WebhookEndpoint'],
    description:
      "The dashboard user's webhook endpoints, newest first (secrets are never listed); a failing or disabled one says so",
    authScopes: { dashboardUser: true },
    resolve: async (query, _root, _args, context) => {
      const user = await webhookOwner(context.dashboardUserId);
      return prisma.webhookEndpoint.findMany({
        ...query,
        where: { ownerId: user.id, deletedAt: null },
        orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      });
    },
  }),
  webhookDeliveries: t.prismaField({
    type: ['WebhookDelivery'],
    description: `An endpoint's deliveries, newest first (at most the newest ${MAX_LISTED_DELIVERIES}), each with its attempts`,
    authScopes: { dashboardUser: true },
    args: { endpointId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, context) => {
      const user = await webhookOwner(context.dashboardUserId);
      const endpoint = await endpointOwnedBy(user.id, String(args.endpointId));
      return prisma.webhookDelivery.findMany({
        ...query,
        where: { endpointId: endpoint.id },
        orderBy: [{ createdAt: 'desc' }, { seq: 'desc' }],
        take: MAX_LISTED_DELIVERIES,
      });
    },
  }),
  webhookEndpointEvents: t.prismaField({
    type: ['WebhookEndpointEvent'],
    description: `The audit trail of one of the user's endpoints, newest first (at most the newest ${MAX_ENDPOINT_EVENTS})`,
    authScopes: { dashboardUser: true },
    args: { endpointId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, context) => {
      const user = await webhookOwner(context.dashboardUserId);
      const endpoint = await endpointOwnedBy(user.id, String(args.endpointId));
      return prisma.webhookEndpointEvent.findMany({
        ...query,
        where: { endpointId: endpoint.id },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: MAX_ENDPOINT_EVENTS,
      });
    },
  }),
}));
