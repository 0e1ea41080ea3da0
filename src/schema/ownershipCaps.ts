// How many of a kind of row one user may hold (API keys, webhook endpoints, postbacks, short
// links), enforced atomically: the count and the creation run in one transaction that first locks
// the user's row, so concurrent creations for one user, on any replica, count one after the other
// and never pass the cap together.
import { prisma } from '../platform/db';
import { BadRequestError } from '../platform/errors';
import type { Prisma } from '../generated/prisma/client';

export interface OwnershipCap {
  max: number;
  /** The refusal, once the user holds `max`. */
  refusal: string;
  /** The rows of the user that the cap counts. */
  count(tx: Prisma.TransactionClient, userId: string): Promise<number>;
}

/**
 * Makes the user's capped creations take turns until `tx` ends. NO KEY UPDATE: another creation
 * for this user waits here until this one commits, while rows that merely reference the user
 * (orders, links) are written meanwhile.
 */
export async function takeUserTurn(tx: Prisma.TransactionClient, userId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "User" WHERE "id" = ${userId}::uuid FOR NO KEY UPDATE`;
}

/** Refuses with BAD_REQUEST once the user holds `cap.max` rows; call it on the user's turn. */
export async function requireRoom(
  tx: Prisma.TransactionClient,
  userId: string,
  cap: OwnershipCap,
): Promise<void> {
  if ((await cap.count(tx, userId)) >= cap.max) throw new BadRequestError(cap.refusal);
}

/** Runs `create` if the user holds fewer than `cap.max` rows, else refuses with BAD_REQUEST. */
export function createWithinCap<T>(
  userId: string,
  cap: OwnershipCap,
  create: (tx: Prisma.TransactionClient) => Promise<T>,
): Promise<T> {
  return prisma.$transaction(async (tx) => {
    await takeUserTurn(tx, userId);
    await requireRoom(tx, userId, cap);
    return create(tx);
  });
}
