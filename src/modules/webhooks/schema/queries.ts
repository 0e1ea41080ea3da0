// listWebhookEndpoints, webhookDeliveries, webhookDelivery, webhookEndpointEvents: the dashboard
// user's own. Each list answers a bounded number of rows, which the operation cost counts.
import { prisma } from '../../../platform/db';
import { builder } from '../../../schema/builder';
import { listOf } from '../../../schema/complexity';
import { NEWEST_DELIVERIES_FIRST, ownTargetsNewestFirst } from '../../../schema/deliveryTargets';
import { deliveryOwnedBy, endpointOwnedBy, WEBHOOK_MANAGEMENT } from './access';
import { MAX_ENDPOINTS_PER_USER } from './rules';
import { WebhookDeliveryDetail } from './types';

/** The newest deliveries of an endpoint that webhookDeliveries answers. */
export const MAX_LISTED_DELIVERIES = 100;
/** The newest audit events of an endpoint that webhookEndpointEvents answers. */
export const MAX_ENDPOINT_EVENTS = 1_000;

builder.queryFields((root) => {
  const t = root.withAuth(WEBHOOK_MANAGEMENT);
  return {
    listWebhookEndpoints: t.prismaField({
      type: ['WebhookEndpoint'],
      description:
        "The dashboard user's webhook endpoints, newest first (secrets are never listed); a failing or disabled one says so",
      complexity: listOf(MAX_ENDPOINTS_PER_USER),
      resolve: (query, _root, _args, context) =>
        prisma.webhookEndpoint.findMany({
          ...query,
          ...ownTargetsNewestFirst(context.affiliateUser.id),
        }),
    }),
    webhookDeliveries: t.prismaField({
      type: ['WebhookDelivery'],
      description: `An endpoint's deliveries, newest first (at most the newest ${MAX_LISTED_DELIVERIES}), each with its newest attempts`,
      args: { endpointId: t.arg.id({ required: true }) },
      complexity: listOf(MAX_LISTED_DELIVERIES),
      resolve: async (query, _root, args, context) => {
        const endpoint = await endpointOwnedBy(context.affiliateUser.id, String(args.endpointId));
        return prisma.webhookDelivery.findMany({
          ...query,
          where: { endpointId: endpoint.id },
          orderBy: NEWEST_DELIVERIES_FIRST,
          take: MAX_LISTED_DELIVERIES,
        });
      },
    }),
    webhookDelivery: t.prismaField({
      type: WebhookDeliveryDetail,
      description:
        "One of the user's deliveries, with its attempts and the start of the endpoint's answer to each",
      args: { id: t.arg.id({ required: true }) },
      resolve: async (query, _root, args, context) => {
        const delivery = await deliveryOwnedBy(context.affiliateUser.id, String(args.id));
        return prisma.webhookDelivery.findUniqueOrThrow({ ...query, where: { id: delivery.id } });
      },
    }),
    webhookEndpointEvents: t.prismaField({
      type: ['WebhookEndpointEvent'],
      description: `The audit trail of one of the user's endpoints, newest first (at most the newest ${MAX_ENDPOINT_EVENTS})`,
      args: { endpointId: t.arg.id({ required: true }) },
      complexity: listOf(MAX_ENDPOINT_EVENTS),
      resolve: async (query, _root, args, context) => {
        const endpoint = await endpointOwnedBy(context.affiliateUser.id, String(args.endpointId));
        return prisma.webhookEndpointEvent.findMany({
          ...query,
          where: { endpointId: endpoint.id },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: MAX_ENDPOINT_EVENTS,
        });
      },
    }),
  };
});
