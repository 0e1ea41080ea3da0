// Who is managing keys: the dashboard user of the request, and only their own keys.
import { prisma } from '../../platform/db';
import type { Context } from '../context';
import { notFound, UnauthorizedError } from '../../platform/errors';
import { isUuid } from '../../platform/formats';

export async function dashboardUser(userId: string | null) {
  const user =
    userId && isUuid(userId) ? await prisma.user.findUnique({ where: { id: userId } }) : null;
  if (!user) throw new UnauthorizedError('The dashboard token names no known user');
  if (user.deletedAt) throw new UnauthorizedError("The dashboard token's account is closed");
  return user;
}

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

/** Who did it and from where, for the audit trail. */
export function actorOf(
  context: Context,
  userId: string,
): { actorUserId: string; ip: string | null } {
  return { actorUserId: userId, ip: context.http?.storableClientIp ?? null };
}
