// Whose keys a dashboard user manages: only their own.
import { prisma } from '../../platform/db';
import { notFound } from '../../platform/errors';
import { isUuid } from '../../platform/formats';
import { dashboardUser } from '../../schema/dashboardUser';

/** The owner's key; another user's key is NOT_FOUND, so its existence is not revealed. */
export async function keyOwnedBy(ownerId: string, keyId: string) {
  const key = isUuid(keyId)
    ? await prisma.apiKey.findFirst({ where: { id: keyId, ownerId } })
    : null;
  if (!key) throw notFound('API key', keyId);
  return key;
}

/** The dashboard user's key (see keyOwnedBy). */
export async function ownKey(userId: string | null, keyId: string) {
  const user = await dashboardUser(userId);
  return keyOwnedBy(user.id, keyId);
}
