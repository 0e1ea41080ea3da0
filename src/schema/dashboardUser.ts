// Who is managing something over the dashboard: the user of the request's dashboard token, looked
// up and still open (an affiliate, for the features that are affiliates'), and how the audit trail
// names them.
import { createContextCache } from '@pothos/core';
import type { User } from '../generated/prisma/client';
import { prisma } from '../platform/db';
import { ForbiddenError, UnauthorizedError } from '../platform/errors';
import { isUuid } from '../platform/formats';
import type { Context } from './context';

async function dashboardUser(userId: string | null) {
  const user =
    userId && isUuid(userId) ? await prisma.user.findUnique({ where: { id: userId } }) : null;
  if (!user) throw new UnauthorizedError('The dashboard token names no known user');
  if (user.deletedAt) throw new UnauthorizedError("The dashboard token's account is closed");
  return user;
}

/** The request's dashboard user, looked up once however many fields ask. */
const requestUser = createContextCache((context: Context) =>
  dashboardUser(context.dashboardUserId),
);

/** The context of a field whose `openUser` scope held: its dashboard user, open. */
export type OpenUserContext = Context & { openUser: User };

/** The context of a field whose `affiliateUser` scope held: its dashboard user, an open affiliate. */
export type AffiliateUserContext = Context & { affiliateUser: User };

/**
 * The `openUser` scope: the request's dashboard user must be known and open (else 401, thrown as
 * the `affiliateUser` scope's are). The user is left on the context for the field's resolver.
 */
export async function admitOpenUser(context: Context): Promise<true> {
  const user = await requestUser(context);
  Object.assign(context, { openUser: user } satisfies Partial<OpenUserContext>);
  return true;
}

/**
 * The `affiliateUser` scope: the request's dashboard user must be open (else 401) and an affiliate
 * to use `feature` (else 403 naming it). Refusals are thrown, not answered false, because
 * scope-auth's unauthorizedError cannot wait for the lookup that tells them apart. The user is left
 * on the context for the field's resolver.
 */
export async function admitAffiliateUser(context: Context, feature: string): Promise<true> {
  const user = await requestUser(context);
  if (user.role !== 'AFFILIATE') throw new ForbiddenError(`${feature} are for affiliate accounts`);
  Object.assign(context, { affiliateUser: user } satisfies Partial<AffiliateUserContext>);
  return true;
}

/** Who did it and from where, for the audit trail. */
export function actorOf(
  context: Context,
  userId: string,
): { actorUserId: string; ip: string | null } {
  return { actorUserId: userId, ip: context.record?.storableClientIp ?? null };
}
