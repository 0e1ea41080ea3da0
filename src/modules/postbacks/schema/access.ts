// Who is managing postbacks: the dashboard user of the request, an affiliate, and only their own
// postbacks, deliveries and orders; another's is NOT_FOUND, so it is not revealed.
import { prisma } from '../../../platform/db';
import { notFound } from '../../../platform/errors';
import { isUuid } from '../../../platform/formats';
import { affiliateOwner } from '../../../schema/dashboardUser';

export const postbackOwner = (userId: string | null) => affiliateOwner(userId, 'Postbacks');

/** The owner's postback (not deleted). */
export async function postbackOwnedBy(ownerId: string, postbackId: string) {
  const postback = isUuid(postbackId)
    ? await prisma.postback.findFirst({ where: { id: postbackId, ownerId, deletedAt: null } })
    : null;
  if (!postback) throw notFound('Postback', postbackId);
  return postback;
}

/** The owner's delivery to one of their postbacks (not deleted). */
export async function postbackDeliveryOwnedBy(ownerId: string, deliveryId: string) {
  const delivery = isUuid(deliveryId)
    ? await prisma.webhookDelivery.findFirst({
        where: { id: deliveryId, postback: { ownerId, deletedAt: null } },
      })
    : null;
  if (!delivery?.postbackId) throw notFound('Postback delivery', deliveryId);
  return { ...delivery, postbackId: delivery.postbackId };
}

/** The owner's order. */
export async function orderOwnedBy(ownerId: string, orderId: string) {
  const order = isUuid(orderId)
    ? await prisma.order.findFirst({
        where: { id: orderId, affiliateId: ownerId },
        select: { id: true },
      })
    : null;
  if (!order) throw notFound('Order', orderId);
  return order;
}
