// The dispatcher, one per lane (src/outbox/lane.ts: webhook endpoints, postbacks) in every
// replica: it claims due deliveries with a lease (the lease, not a row lock, covers the HTTP call,
// so a killed dispatcher's claim simply expires and another sends it again), checks the
// target's address after DNS and connects to the address checked, sends, records each attempt,
// schedules retries, and marks a target failing, then disabled. An order's delivery to a target
// waits while an earlier one of the same order (or payout) to that target is not delivered, so each
// order's (and payout's) events arrive in order. Woken by the database's notification at commit
// (src/outbox/wakeUp.ts: the app that starts it calls `wake`) and by each attempt that ends, it
// also polls, so nothing waits on a lost notification for longer than the poll interval. Each
// lane has its own dispatcher, so a slow tracker never holds a webhook back, nor the reverse;
// within a lane, attempts in flight are shared fairly between affiliates and their targets
// (claimDueDeliveries), so one affiliate's slow receivers never hold another's.
import { Prisma } from '../generated/prisma/client';
import { config } from '../platform/config';
import { prisma } from '../platform/db';
import { logger } from '../platform/logger';
import { gaugeOnScrape } from '../platform/metrics';
import {
  UnsendableDelivery,
  withoutSecrets,
  type ClaimedDelivery,
  type DeliveryLane,
  type PreparedAttempt,
  type Verdict,
} from './lane';
import { setPendingDeliveries } from './pending';
import { pruneWebhookHistory } from './history';
import { retryDelayMs } from './retries';
import { sendToCheckedAddress, type AttemptOutcome } from './send';
import { type Resolve, resolveHost } from './urls';

/** The Standard Webhooks deadline of one attempt, which postbacks keep too. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** Attempts one replica's dispatcher of a lane has in flight at most. */
export const ATTEMPTS_IN_FLIGHT = 20;
/**
 * Attempts in flight at most, across every replica, to one affiliate's targets of a lane and to one
 * target: an affiliate whose receivers never answer holds at most this many of a dispatcher's
 * ATTEMPTS_IN_FLIGHT, and the rest go to everyone else (docs/decisions.md, "Webhooks").
 */
export const OWNER_ATTEMPTS_IN_FLIGHT = 5;
export const TARGET_ATTEMPTS_IN_FLIGHT = 4;
/** How often a dispatcher deletes old finished history (src/outbox/history.ts). */
const PRUNE_INTERVAL_MS = 3_600_000;

export interface DispatcherSettings {
  pollIntervalMs: number;
  leaseS: number;
  retryDelaysS: readonly number[];
  disableAfterS: number;
  allowPrivateUrls: boolean;
  /** How host names are resolved (tests point a name at an address). */
  resolve?: Resolve;
}

export function dispatcherSettingsFromConfig(): DispatcherSettings {
  return {
    pollIntervalMs: config.webhookPollIntervalMs,
    leaseS: config.webhookLeaseS,
    retryDelaysS: config.webhookRetryDelaysS,
    disableAfterS: config.webhookDisableAfterS,
    allowPrivateUrls: config.webhookAllowPrivateUrls,
  };
}

/** An attempt never outlives its claim: at most half the lease, so no one else sends it meanwhile. */
export function attemptTimeoutMs(leaseS: number): number {
  return Math.min(ATTEMPT_TIMEOUT_MS, (leaseS * 1000) / 2);
}

// Every replica runs a dispatcher and reports the same database-wide count: aggregate with max.
gaugeOnScrape(
  'webhook_deliveries_pending',
  'Webhook deliveries waiting to be sent: due, scheduled for a retry, or held by a paused endpoint or a closed account',
  (gauge) => setPendingDeliveries(gauge, 'endpointId'),
);

/** The `outcome` label of an attempt: two values, whatever the receiver or the error. */
function attemptOutcomeLabel(verdict: Verdict): 'delivered' | 'failed' {
  return verdict.delivered ? 'delivered' : 'failed';
}

/**
 * Claims up to `slots` of the lane's due deliveries for `leaseS` seconds, fairly: each target's
 * oldest first, the affiliate with the fewest attempts in flight first (an affiliate with a
 * thousand due deliveries is served one for one with an affiliate with one), and never more than
 * OWNER_ATTEMPTS_IN_FLIGHT of an affiliate's or TARGET_ATTEMPTS_IN_FLIGHT of a target's in flight,
 * counting the other replicas' leases. Claims of a lane take turns (an advisory lock for the
 * transaction), so those bounds are exact. A delivery waits for the earlier deliveries of its order
 * to its target: those still being retried, and those that failed for good unless it is a replay
 * (which sends the order as it is now).
 */
function claimDueDeliveries(
  lane: Pick<DeliveryLane<never>, 'targetColumn' | 'targetTable'>,
  leaseS: number,
  slots: number,
): Promise<ClaimedDelivery[]> {
  // Names of the lane's own, never input.
  const target = Prisma.raw(`"${lane.targetColumn}"`);
  const targets = Prisma.raw(`"${lane.targetTable}"`);
  const now = Prisma.sql`(now() AT TIME ZONE 'UTC')`;
  const isDue = (delivery: Prisma.Sql) => Prisma.sql`${delivery}."state" = 'PENDING'
    AND ${delivery}."nextAttemptAt" <= ${now}
    AND (${delivery}."lockedUntil" IS NULL OR ${delivery}."lockedUntil" <= ${now})`;
  return prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`outbox claim ${lane.targetTable}`}))`;
    return tx.$queryRaw<ClaimedDelivery[]>`
      WITH in_flight AS (
        SELECT held.${target} AS "targetId", target."ownerId"
        FROM "WebhookDelivery" held JOIN ${targets} target ON target."id" = held.${target}
        WHERE held."state" = 'PENDING' AND held."lockedUntil" > ${now}
      ),
      due_targets AS (
        SELECT DISTINCT due.${target} AS "targetId" FROM "WebhookDelivery" due
        WHERE ${isDue(Prisma.raw('due'))} AND due.${target} IS NOT NULL
      ),
      -- Each sendable target's oldest due deliveries, as many as it may have in flight.
      candidates AS (
        SELECT oldest."id", oldest."seq", target."id" AS "targetId", target."ownerId"
        FROM due_targets
        JOIN ${targets} target ON target."id" = due_targets."targetId"
        JOIN "User" owner ON owner."id" = target."ownerId"
        CROSS JOIN LATERAL (
          SELECT due."id", due."seq" FROM "WebhookDelivery" due
          WHERE due.${target} = target."id" AND ${isDue(Prisma.raw('due'))}
            AND NOT EXISTS (
              SELECT 1 FROM "WebhookDelivery" earlier
              WHERE earlier.${target} = due.${target}
                AND (earlier."orderId" = due."orderId" OR earlier."payoutId" = due."payoutId")
                AND earlier."seq" < due."seq"
                AND (earlier."state" = 'PENDING' OR (earlier."state" = 'FAILED' AND NOT due."isReplay"))
            )
          ORDER BY due."seq"
          LIMIT ${TARGET_ATTEMPTS_IN_FLIGHT}
        ) AS oldest
        WHERE target."enabled" AND target."deletedAt" IS NULL AND owner."deletedAt" IS NULL
      ),
      loads AS (
        SELECT candidates."id", candidates."seq",
          row_number() OVER (PARTITION BY candidates."ownerId" ORDER BY candidates."seq")
            + (SELECT count(*) FROM in_flight WHERE in_flight."ownerId" = candidates."ownerId")
            AS "ownerLoad",
          row_number() OVER (PARTITION BY candidates."targetId" ORDER BY candidates."seq")
            + (SELECT count(*) FROM in_flight WHERE in_flight."targetId" = candidates."targetId")
            AS "targetLoad"
        FROM candidates
      ),
      chosen AS (
        SELECT loads."id" FROM loads
        WHERE loads."ownerLoad" <= ${OWNER_ATTEMPTS_IN_FLIGHT}
          AND loads."targetLoad" <= ${TARGET_ATTEMPTS_IN_FLIGHT}
        ORDER BY loads."ownerLoad", loads."targetLoad", loads."seq"
        LIMIT ${slots}
      )
      UPDATE "WebhookDelivery" AS claimed
      SET "lockedUntil" = ${now} + make_interval(secs => ${leaseS})
      FROM chosen
      -- Rechecked on the row as it is when updated: a lease taken meanwhile is never taken twice.
      WHERE claimed."id" = chosen."id" AND ${isDue(Prisma.raw('claimed'))}
      RETURNING claimed."id", claimed."eventId", claimed.${target} AS "targetId",
        claimed."orderId", claimed."seq", claimed."attemptCount"`;
  });
}

function failedOutcome(error: string): AttemptOutcome {
  return { statusCode: null, durationMs: 0, error, responseBody: null };
}

/** Builds and sends one claimed delivery, or says why it could not be sent. */
async function send<Target extends { failingSince: Date | null }>(
  lane: DeliveryLane<Target>,
  settings: DispatcherSettings,
  delivery: ClaimedDelivery,
  target: Target,
  now: Date,
): Promise<{ outcome: AttemptOutcome; prepared: PreparedAttempt | null }> {
  let prepared: PreparedAttempt;
  try {
    prepared = await lane.prepare(delivery, target, now);
  } catch (error) {
    if (error instanceof UnsendableDelivery) {
      return { outcome: failedOutcome(error.message), prepared: null };
    }
    logger.warn({ err: error, deliveryId: delivery.id }, `${lane.name} request not built`);
    return { outcome: failedOutcome('the request could not be built'), prepared: null };
  }
  const { outcome, sent } = await sendToCheckedAddress(
    prepared.request,
    settings.allowPrivateUrls,
    settings.resolve ?? resolveHost,
    attemptTimeoutMs(settings.leaseS),
  );
  // Only requests that were made: an attempt refused before sending took no time at the receiver.
  if (sent) lane.duration.observe(outcome.durationMs / 1000);
  return { outcome, prepared };
}

/**
 * Records an attempt and what follows from it: the delivery delivered, scheduled again or failed
 * for good, and its target recovered, failing or disabled. Only the claim's own attempt counts: a
 * claim that outlived its lease records nothing twice.
 */
async function recordAttempt<Target extends { failingSince: Date | null }>(
  lane: DeliveryLane<Target>,
  settings: DispatcherSettings,
  delivery: ClaimedDelivery,
  failingSince: Date | null,
  attempt: { outcome: AttemptOutcome; verdict: Verdict; prepared: PreparedAttempt | null },
  attemptedAt: Date,
): Promise<void> {
  const { outcome, verdict, prepared } = attempt;
  const attemptCount = delivery.attemptCount + 1;
  const delay = verdict.delivered ? null : retryDelayMs(attemptCount, settings.retryDelaysS);
  const state = verdict.delivered ? 'DELIVERED' : delay === null ? 'FAILED' : 'PENDING';
  const now = new Date();
  await prisma.$transaction(async (tx) => {
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id: delivery.id, attemptCount: delivery.attemptCount },
      data: {
        attemptCount,
        state,
        lockedUntil: null,
        ...(state === 'DELIVERED' && { deliveredAt: now }),
        ...(delay !== null && { nextAttemptAt: new Date(now.getTime() + delay) }),
      },
    });
    if (count === 0) return;
    await tx.webhookAttempt.create({
      data: {
        deliveryId: delivery.id,
        attemptedAt,
        statusCode: outcome.statusCode,
        durationMs: outcome.durationMs,
        error: verdict.delivered ? null : verdict.error,
        responseBody:
          outcome.responseBody === null
            ? null
            : withoutSecrets(outcome.responseBody, prepared?.secrets ?? []),
        requestMethod: prepared?.shown?.method ?? null,
        requestUrl: prepared?.shown?.url ?? null,
        requestBody: prepared?.shown?.body ?? null,
      },
    });
    if (state === 'DELIVERED' && failingSince !== null) {
      await lane.changeTarget(tx, delivery.targetId, { kind: 'recovered' });
    } else if (state === 'FAILED') {
      // A target whose deliveries keep failing is marked failing, then disabled.
      const since = failingSince ?? now;
      const isDue = now.getTime() - since.getTime() >= settings.disableAfterS * 1000;
      await lane.changeTarget(
        tx,
        delivery.targetId,
        isDue
          ? { kind: 'disabled', failingSince: since, disabledAt: now }
          : { kind: 'failing', failingSince: since },
      );
    }
  });
}

/** One claimed delivery: its attempt, sent and recorded. */
async function attemptDelivery<Target extends { failingSince: Date | null }>(
  lane: DeliveryLane<Target>,
  settings: DispatcherSettings,
  delivery: ClaimedDelivery,
): Promise<void> {
  const target = await lane.loadTarget(delivery.targetId);
  const now = new Date();
  const { outcome, prepared } = await send(lane, settings, delivery, target, now);
  const verdict = lane.judge(outcome, target);
  lane.attempts.inc({ outcome: attemptOutcomeLabel(verdict) });
  await recordAttempt(
    lane,
    settings,
    delivery,
    target.failingSince,
    { outcome, verdict, prepared },
    now,
  );
}

/** Waits until woken or the poll interval passes; a wake while not waiting is kept for the next wait. */
function wakeableSleep(intervalMs: number) {
  let wakeUp: (() => void) | null = null;
  let pendingWake = false;
  return {
    wake() {
      if (wakeUp) wakeUp();
      else pendingWake = true;
    },
    sleep(): Promise<void> {
      if (pendingWake) {
        pendingWake = false;
        return Promise.resolve();
      }
      return new Promise((resolve) => {
        const timer = setTimeout(done, intervalMs);
        timer.unref();
        function done() {
          clearTimeout(timer);
          wakeUp = null;
          resolve();
        }
        wakeUp = done;
      });
    },
  };
}

export interface Dispatcher {
  /** Looks for due deliveries now. */
  wake(): void;
  /** Stops claiming and waits for the attempts in flight. */
  stop(): Promise<void>;
}

/**
 * Starts a dispatcher of one lane's deliveries: it keeps up to ATTEMPTS_IN_FLIGHT attempts going,
 * claiming more as each one ends, so a slow receiver holds its own slot only.
 */
export function startDeliveryDispatcher<Target extends { failingSince: Date | null }>(
  lane: DeliveryLane<Target>,
  settings: DispatcherSettings = dispatcherSettingsFromConfig(),
): Dispatcher {
  let running = true;
  const inFlight = new Set<Promise<void>>();
  const { wake, sleep } = wakeableSleep(settings.pollIntervalMs);

  function start(delivery: ClaimedDelivery): void {
    const attempt = attemptDelivery(lane, settings, delivery)
      .catch((error: unknown) =>
        logger.error({ err: error, deliveryId: delivery.id }, `${lane.name} attempt not recorded`),
      )
      .finally(() => {
        inFlight.delete(attempt);
        wake();
      });
    inFlight.add(attempt);
  }

  const loop = (async () => {
    while (running) {
      const slots = ATTEMPTS_IN_FLIGHT - inFlight.size;
      let claimed = 0;
      if (slots > 0) {
        try {
          const deliveries = await claimDueDeliveries(lane, settings.leaseS, slots);
          deliveries.forEach(start);
          claimed = deliveries.length;
        } catch (error) {
          logger.warn({ err: error }, `${lane.name} dispatcher could not claim deliveries`);
        }
      }
      // Every slot busy, or nothing more is due: until an attempt ends, a notice or the poll.
      if (running && claimed < Math.max(slots, 1)) await sleep();
    }
    await Promise.all(inFlight);
  })();

  const prune = () =>
    pruneWebhookHistory(new Date()).catch((error: unknown) =>
      logger.warn({ err: error }, 'old outbox history could not be deleted'),
    );
  const pruning = lane.prunesHistory ? setInterval(prune, PRUNE_INTERVAL_MS) : null;
  pruning?.unref();

  return {
    wake,
    async stop() {
      running = false;
      if (pruning) clearInterval(pruning);
      wake();
      await loop;
    },
  };
}
