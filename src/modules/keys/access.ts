// Whose keys a dashboard user manages: only their own.
import { prisma } from '../../platform/db';
import { notFound } from '../../platform/errors';
import { isUuid } from '../../platform/formats';

/** The owner's key; another user's key is NOT_FOUND, so its existence is not revealed. */
export async function keyOwnedBy(ownerId: string, keyId: string) {
  const key = isUuid(keyId)
    ? await prisma.apiKey.findFirst({ where: { id: keyId, ownerId } })
    : null;
  if (!key) throw notFound('API key', keyId);
  return key;
}
