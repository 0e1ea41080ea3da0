// What the dashboard's delivery targets share, webhook endpoints and postbacks alike (the outbox's
// targets, src/outbox/lane.ts): their state and their deliveries' schedule as GraphQL shows them,
// the owner's own found or NOT_FOUND, the order they and their deliveries are listed in, pausing
// and resuming, and deletion.
import type { Prisma } from '../generated/prisma/client';
import type PrismaTypes from '../generated/pothos-types';
import type { DeliveryLane } from '../outbox/lane';
import { prisma } from '../platform/db';
import { notFound } from '../platform/errors';
import { isUuid } from '../platform/formats';
import { builder } from './builder';

/** The columns of a target that the outbox keeps and DeliveryTarget shows. */
interface TargetState {
  enabled: boolean;
  createdAt: Date;
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
}

export const DeliveryTarget = builder.interfaceRef<TargetState>('DeliveryTarget').implement({
  description:
    'Where the outbox sends events (a webhook endpoint or a postback): whether it takes them, and whether they keep failing',
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    failingSince: t.expose('failingSince', {
      type: 'DateTime',
      nullable: true,
      description:
        'Since when every delivery that ended has failed (all retries, about a day); null once one succeeds',
    }),
    disabledAt: t.expose('disabledAt', { type: 'DateTime', nullable: true }),
    disabledReason: t.exposeString('disabledReason', {
      nullable: true,
      description: 'Why the service disabled it; null when its owner did',
    }),
  }),
});

type DeliveryModel = PrismaTypes['WebhookDelivery'];

/**
 * A delivery's schedule, the same to either target (WebhookDelivery and its variants); `redeliver`
 * names the mutation that restarts it.
 */
export const deliveryScheduleFields = (
  t: Pick<
    PothosSchemaTypes.PrismaObjectFieldBuilder<typeof builder.$inferSchemaTypes, DeliveryModel>,
    'expose' | 'exposeInt' | 'field'
  >,
  redeliver: string,
) => ({
  attemptCount: t.exposeInt('attemptCount', {
    description: `Attempts of the current schedule (${redeliver} starts a new one)`,
  }),
  nextAttemptAt: t.field({
    type: 'DateTime',
    nullable: true,
    description: 'When the next attempt is due; null unless PENDING',
    // No field select: a delivery type has no type-level select, so its rows hold every column.
    resolve: (delivery) => (delivery.state === 'PENDING' ? delivery.nextAttemptAt : null),
  }),
  deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
  createdAt: t.expose('createdAt', { type: 'DateTime' }),
});

/**
 * One of the owner's rows, found by its id (`find` filters by owner): NOT_FOUND naming `what` for
 * another owner's, a deleted one and an id that is no UUID alike, so what exists is not revealed.
 */
export async function ownedOrNotFound<Row>(
  what: string,
  id: string,
  find: (id: string) => Promise<Row | null>,
): Promise<Row> {
  const row = isUuid(id) ? await find(id) : null;
  if (!row) throw notFound(what, id);
  return row;
}

/** The owner's targets not deleted, newest first. */
export function ownTargetsNewestFirst(ownerId: string) {
  return {
    where: { ownerId, deletedAt: null },
    orderBy: [{ createdAt: 'desc' as const }, { id: 'asc' as const }],
  };
}

/** A target's deliveries, newest first (`seq` orders those of one transaction). */
export const NEWEST_DELIVERIES_FIRST = [{ createdAt: 'desc' as const }, { seq: 'desc' as const }];

/**
 * What an update's `enabled` writes: true resumes the target and clears a failing or disabled
 * state; false pauses an enabled one (its deliveries wait); absent changes nothing.
 */
export function enabledChange(enabled: boolean | null | undefined, isEnabled: boolean) {
  if (enabled === true) {
    return { enabled: true, failingSince: null, disabledAt: null, disabledReason: null };
  }
  if (enabled === false && isEnabled) {
    return { enabled: false, disabledAt: new Date(), disabledReason: null };
  }
  return {};
}

/** The columns of a deleted target: it takes nothing more. */
export const deletedTarget = () => ({ deletedAt: new Date(), enabled: false });

/**
 * Deletes a target (`markDeleted` writes deletedTarget() on it) and drops its undelivered
 * deliveries, in one transaction: nothing more will be sent, and what was delivered stays as
 * history. Answers the target's id.
 */
export async function deleteTarget(
  column: DeliveryLane<never>['targetColumn'],
  id: string,
  markDeleted: Prisma.PrismaPromise<unknown>,
): Promise<string> {
  await prisma.$transaction([
    markDeleted,
    prisma.webhookDelivery.deleteMany({ where: { [column]: id, state: { not: 'DELIVERED' } } }),
  ]);
  return id;
}
