// Who is managing webhooks: the dashboard user of the request, an affiliate (orders are
// affiliates'), and only their own endpoints and deliveries.
import { prisma } from '../../../platform/db';
import { notFound } from '../../../platform/errors';
import { isUuid } from '../../../platform/formats';
import { affiliateOwner } from '../../../schema/dashboardUser';

export const webhookOwner = (userId: string | null) => affiliateOwner(userId, 'Order webhooks');

/** The owner's endpoint; another user's (or a deleted one) is NOT_FOUND, so it is not revealed. */
export async function endpointOwnedBy(ownerId: string, endpointId: string) {
  const endpoint = isUuid(endpointId)
    ? await prisma.webhookEndpoint.findFirst({
        where: { id: endpointId, ownerId, deletedAt: null },
      })
    : null;
  if (!endpoint) throw notFound('Webhook endpoint', endpointId);
  return endpoint;
}

/** The owner's delivery (to one of their endpoints not deleted); else NOT_FOUND. */
export async function deliveryOwnedBy(ownerId: string, deliveryId: string) {
  const delivery = isUuid(deliveryId)
    ? await prisma.webhookDelivery.findFirst({
        where: { id: deliveryId, endpoint: { ownerId, deletedAt: null } },
      })
    : null;
  if (!delivery?.endpointId) throw notFound('Webhook delivery', deliveryId);
  return { ...delivery, endpointId: delivery.endpointId };
}
