// Who is managing something over the dashboard: the user of the request's dashboard token, looked
// up and still open (an affiliate, for the features that are affiliates'), and how the audit trail
// names them.
import { prisma } from '../platform/db';
import { ForbiddenError, UnauthorizedError } from '../platform/errors';
import { isUuid } from '../platform/formats';
import type { Context } from './context';

export async function dashboardUser(userId: string | null) {
  const user =
    userId && isUuid(userId) ? await prisma.user.findUnique({ where: { id: userId } }) : null;
  if (!user) throw new UnauthorizedError('The dashboard token names no known user');
  if (user.deletedAt) throw new UnauthorizedError("The dashboard token's account is closed");
  return user;
}

/** The dashboard user, who must be an affiliate to use `feature` (orders are affiliates'). */
export async function affiliateOwner(userId: string | null, feature: string) {
  const user = await dashboardUser(userId);
  if (user.role !== 'AFFILIATE') throw new ForbiddenError(`${feature} are for affiliate accounts`);
  return user;
}

/** Who did it and from where, for the audit trail. */
export function actorOf(
  context: Context,
  userId: string,
): { actorUserId: string; ip: string | null } {
  return { actorUserId: userId, ip: context.record?.storableClientIp ?? null };
}
