// Who is managing postbacks: the dashboard user of the request, an affiliate (the `affiliateUser`
// scope checks it), and only their own postbacks, deliveries and orders; another's is NOT_FOUND,
// so it is not revealed.
import { prisma } from '../../../platform/db';
import { affiliateUserAuth } from '../../../schema/builder';
import { ownedOrNotFound } from '../../../schema/deliveryTargets';

/** The scopes of every postback field. */
export const POSTBACK_MANAGEMENT = affiliateUserAuth('Postbacks');

/** The owner's postback (not deleted). */
export const postbackOwnedBy = (ownerId: string, postbackId: string) =>
  ownedOrNotFound('Postback', postbackId, (id) =>
    prisma.postback.findFirst({ where: { id, ownerId, deletedAt: null } }),
  );

/** The owner's delivery to one of their postbacks (not deleted). */
export const postbackDeliveryOwnedBy = (ownerId: string, deliveryId: string) =>
  ownedOrNotFound('Postback delivery', deliveryId, (id) =>
    prisma.webhookDelivery.findFirst({ where: { id, postback: { ownerId, deletedAt: null } } }),
  );

/** The owner's order. */
export const orderOwnedBy = (ownerId: string, orderId: string) =>
  ownedOrNotFound('Order', orderId, (id) =>
    prisma.order.findFirst({ where: { id, affiliateId: ownerId }, select: { id: true } }),
  );
