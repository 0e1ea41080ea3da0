// Who is managing webhooks: the dashboard user of the request, an affiliate (orders are
// affiliates'; the `affiliateUser` scope checks it), and only their own endpoints and deliveries.
import { prisma } from '../../../platform/db';
import { affiliateUserAuth } from '../../../schema/builder';
import { ownedOrNotFound } from '../../../schema/deliveryTargets';

/** The scopes of every webhook management field. */
export const WEBHOOK_MANAGEMENT = affiliateUserAuth('Order webhooks');

/** The owner's endpoint (not deleted). */
export const endpointOwnedBy = (ownerId: string, endpointId: string) =>
  ownedOrNotFound('Webhook endpoint', endpointId, (id) =>
    prisma.webhookEndpoint.findFirst({ where: { id, ownerId, deletedAt: null } }),
  );

/** The owner's delivery to one of their endpoints (not deleted). */
export async function deliveryOwnedBy(ownerId: string, deliveryId: string) {
  const delivery = await ownedOrNotFound('Webhook delivery', deliveryId, (id) =>
    prisma.webhookDelivery.findFirst({ where: { id, endpoint: { ownerId, deletedAt: null } } }),
  );
  // Found through its endpoint, so it has one.
  return { ...delivery, endpointId: delivery.endpointId! };
}
