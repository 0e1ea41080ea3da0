// replayPostbacks: every order of a postback's scope placed in a window is sent again, once, as it
// is now (`{event}` postback.replay, `{status}` its current status). Each order gets a replay
// event in the outbox and a delivery to this postback alone, sent after the order's deliveries
// still being retried; deliveries that failed for good do not hold it (they stay as history).
// Bounded: at most MAX_REPLAYED_ORDERS orders a call. Idempotent: a replay is its postback and
// window, and a call for a window replayed within REPLAY_REMEMBERED_MS answers that replay and
// sends nothing (concurrent calls take turns on the postback's row, so they too); `force` sends it
// again, and even then an order whose replay is still waiting is not queued twice.
import type { Postback } from '../../generated/prisma/client';
import { Prisma } from '../../generated/prisma/client';
import { prisma } from '../../platform/db';
import { BadRequestError } from '../../platform/errors';
import { announceDueDeliveries } from '../../outbox/wakeUp';
import { REPLAY_EVENT_TYPE } from './eventTypes';

export const MAX_REPLAYED_ORDERS = 1_000;
/** How long a replay of a window is remembered: a repeated call within it sends nothing. */
export const REPLAY_REMEMBERED_MS = 86_400_000;

/** A replay as replayPostbacks answers it. */
export interface Replay {
  id: string;
  since: Date;
  until: Date;
  queued: number;
  alreadyQueued: number;
  requestedAt: Date;
  /** This call repeated a replay of the window (within a day) and sent nothing. */
  repeated: boolean;
}

const answerOf = (
  replay: {
    id: string;
    since: Date;
    until: Date;
    queued: number;
    alreadyQueued: number;
    createdAt: Date;
  },
  repeated: boolean,
): Replay => ({
  id: replay.id,
  since: replay.since,
  until: replay.until,
  queued: replay.queued,
  alreadyQueued: replay.alreadyQueued,
  requestedAt: replay.createdAt,
  repeated,
});

const utc = (time: Date) => Prisma.sql`(${time.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;

type Scope = Pick<
  Postback,
  'id' | 'ownerId' | 'brandId' | 'campaignId' | 'linkCode' | 'events' | 'statuses'
>;

/**
 * The orders placed in [since, until) that the postback would have been sent: of its scope, in a
 * status it takes, with an event of a type it takes (a postback of final conversions replays no
 * order that is not final); and whether a replay of each waits.
 */
function windowOrders(postback: Scope, since: Date, until: Date) {
  return Prisma.sql`
    SELECT placed."id", placed."status", placed."orderedAt",
      EXISTS (
        SELECT 1 FROM "WebhookDelivery" waiting
        WHERE waiting."postbackId" = ${postback.id}::uuid AND waiting."orderId" = placed."id"
          AND waiting."isReplay" AND waiting."state" = 'PENDING'
      ) AS "isWaiting"
    FROM "Order" placed
    WHERE placed."affiliateId" = ${postback.ownerId}::uuid
      AND placed."orderedAt" >= ${utc(since)} AND placed."orderedAt" < ${utc(until)}
      AND (${postback.brandId}::uuid IS NULL OR placed."organizationId" = ${postback.brandId}::uuid)
      AND (${postback.campaignId}::uuid IS NULL OR placed."campaignId" = ${postback.campaignId}::uuid)
      AND (${postback.linkCode}::text IS NULL OR placed."shortUrlCode" = ${postback.linkCode}::text)
      ${postback.statuses.length ? Prisma.sql`AND placed."status"::text IN (${Prisma.join(postback.statuses)})` : Prisma.empty}
      AND EXISTS (
        SELECT 1 FROM "OrderEvent" happened
        WHERE happened."orderId" = placed."id"
          AND 'order.' || lower(happened."type"::text) IN (${Prisma.join(postback.events)})
      )`;
}

export async function replayPostback(
  postback: Scope,
  since: Date,
  until: Date,
  force = false,
): Promise<Replay> {
  if (since >= until) throw new BadRequestError('since must be before until');
  return prisma.$transaction(async (tx) => {
    // A concurrent replay of the same postback waits here, then sees what this one queued.
    await tx.$queryRaw`SELECT 1 FROM "Postback" WHERE "id" = ${postback.id}::uuid FOR UPDATE`;
    const remembered = new Date(Date.now() - REPLAY_REMEMBERED_MS);
    await tx.postbackReplay.deleteMany({
      where: { postbackId: postback.id, createdAt: { lt: remembered } },
    });
    if (!force) {
      const earlier = await tx.postbackReplay.findFirst({
        where: { postbackId: postback.id, since, until },
        orderBy: { createdAt: 'asc' },
      });
      if (earlier) return answerOf(earlier, true);
    }
    const [counts] = await tx.$queryRaw<{ total: number; waiting: number }[]>`
      SELECT count(*)::int AS "total", count(*) FILTER (WHERE "isWaiting")::int AS "waiting"
      FROM (${windowOrders(postback, since, until)} LIMIT ${MAX_REPLAYED_ORDERS + 1}) AS orders`;
    if (counts!.total > MAX_REPLAYED_ORDERS) {
      throw new BadRequestError(
        `The window holds more than ${MAX_REPLAYED_ORDERS} orders: replay shorter windows, one after the other`,
      );
    }
    const queued = await tx.$executeRaw`
      WITH chosen AS (${windowOrders(postback, since, until)}),
      events AS (
        INSERT INTO "WebhookEvent" ("id", "type", "orderId", "status", "occurredAt")
        SELECT gen_random_uuid(), ${REPLAY_EVENT_TYPE}, chosen."id", chosen."status",
          now() AT TIME ZONE 'UTC'
        FROM chosen WHERE NOT chosen."isWaiting"
        ORDER BY chosen."orderedAt", chosen."id"
        RETURNING "id", "seq", "orderId"
      )
      INSERT INTO "WebhookDelivery"
        ("id", "eventId", "postbackId", "orderId", "seq", "isReplay", "nextAttemptAt", "createdAt")
      SELECT gen_random_uuid(), events."id", ${postback.id}::uuid, events."orderId", events."seq",
        true, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
      FROM events`;
    if (queued > 0) await announceDueDeliveries(tx);
    const replay = await tx.postbackReplay.create({
      data: {
        postbackId: postback.id,
        since,
        until,
        queued,
        alreadyQueued: counts!.waiting,
        forced: force,
      },
    });
    return answerOf(replay, false);
  });
}
