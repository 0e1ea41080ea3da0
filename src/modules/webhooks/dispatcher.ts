// The dispatcher, one per lane (src/modules/webhooks/lane.ts: webhook endpoints, postbacks) in
// every replica: it claims due deliveries with a lease (FOR UPDATE SKIP LOCKED, so two
// dispatchers never claim one delivery; the lease, not a row lock, covers the HTTP call, so a
// killed dispatcher's claim simply expires and another sends it again), checks the target's
// address after DNS and connects to the address checked, sends, records each attempt, schedules
// retries, and marks a target failing, then disabled. An order's delivery to a target waits while
// an earlier one of the same order (or payout) to that target is not delivered, so each order's
// (and payout's) events arrive in order. Woken by the database's notification at commit, it also polls, so nothing waits on a
// lost notification for longer than the poll interval. Each lane has its own dispatcher, so a slow
// tracker never holds a webhook back, nor the reverse.
import { Prisma } from '../../generated/prisma/client';
import { config } from '../../platform/config';
import { prisma } from '../../platform/db';
import { logger } from '../../platform/logger';
import { gaugeOnScrape } from '../../platform/metrics';
import {
  UnsendableDelivery,
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
import { onDueDeliveries } from './wakeUp';
import type { EventAnswers } from './payload';
import { webhookLane } from './webhookLane';

/** The Standard Webhooks deadline of one attempt, which postbacks keep too. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** Deliveries claimed (and sent concurrently) at a time. */
const CLAIM_BATCH = 10;
/** How often a dispatcher deletes old finished history (src/modules/webhooks/history.ts). */
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
 * Claims up to CLAIM_BATCH of the lane's due deliveries for `leaseS` seconds. A delivery waits
 * for the earlier deliveries of its order to its target: those still being retried, and those
 * that failed for good unless it is a replay (which sends the order as it is now).
 */
function claimDueDeliveries(
  lane: Pick<DeliveryLane<never>, 'targetColumn' | 'targetTable'>,
  leaseS: number,
): Promise<ClaimedDelivery[]> {
  // Names of the lane's own, never input.
  const target = Prisma.raw(`"${lane.targetColumn}"`);
  const targets = Prisma.raw(`"${lane.targetTable}"`);
  return prisma.$queryRaw<ClaimedDelivery[]>`
    UPDATE "WebhookDelivery" AS claimed
    SET "lockedUntil" = (now() AT TIME ZONE 'UTC') + make_interval(secs => ${leaseS})
    WHERE claimed."id" IN (
      SELECT due."id" FROM "WebhookDelivery" due
      JOIN ${targets} target ON target."id" = due.${target}
      JOIN "User" owner ON owner."id" = target."ownerId"
      WHERE due."state" = 'PENDING'
        AND due."nextAttemptAt" <= (now() AT TIME ZONE 'UTC')
        AND (due."lockedUntil" IS NULL OR due."lockedUntil" <= (now() AT TIME ZONE 'UTC'))
        AND target."enabled" AND target."deletedAt" IS NULL AND owner."deletedAt" IS NULL
        AND NOT EXISTS (
          SELECT 1 FROM "WebhookDelivery" earlier
          WHERE earlier.${target} = due.${target}
            AND (earlier."orderId" = due."orderId" OR earlier."payoutId" = due."payoutId")
            AND earlier."seq" < due."seq"
            AND (earlier."state" = 'PENDING' OR (earlier."state" = 'FAILED' AND NOT due."isReplay"))
        )
      ORDER BY due."seq"
      LIMIT ${CLAIM_BATCH}
      FOR UPDATE OF due SKIP LOCKED
    )
    RETURNING claimed."id", claimed."eventId", claimed.${target} AS "targetId",
      claimed."orderId", claimed."attemptCount"`;
}

function failedOutcome(error: string): AttemptOutcome {
  return { statusCode: null, durationMs: 0, error, responseBody: null };
}

export interface Dispatcher {
  /** Looks for due deliveries now. */
  wake(): void;
  /** Stops claiming and waits for the attempts in flight. */
  stop(): Promise<void>;
}

/** Starts a dispatcher of one lane's deliveries. */
export function startDeliveryDispatcher<Target extends { failingSince: Date | null }>(
  lane: DeliveryLane<Target>,
  settings: DispatcherSettings = dispatcherSettingsFromConfig(),
): Dispatcher {
  const resolve = settings.resolve ?? resolveHost;
  const timeoutMs = attemptTimeoutMs(settings.leaseS);
  let running = true;
  let wakeUp: (() => void) | null = null;
  let pendingWake = false;

  /** Builds and sends one claimed delivery, or says why it could not be sent. */
  async function send(
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
      resolve,
      timeoutMs,
    );
    // Only requests that were made: an attempt refused before sending took no time at the receiver.
    if (sent) lane.duration.observe(outcome.durationMs / 1000);
    return { outcome, prepared };
  }

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const target = await lane.loadTarget(delivery.targetId);
    const now = new Date();
    const { outcome, prepared } = await send(delivery, target, now);
    const verdict = lane.judge(outcome, target);
    lane.attempts.inc({ outcome: attemptOutcomeLabel(verdict) });
    await recordAttempt(delivery, target.failingSince, outcome, verdict, prepared, now);
  }

  async function recordAttempt(
    delivery: ClaimedDelivery,
    failingSince: Date | null,
    outcome: AttemptOutcome,
    verdict: Verdict,
    prepared: PreparedAttempt | null,
    attemptedAt: Date,
  ): Promise<void> {
    const attemptCount = delivery.attemptCount + 1;
    const delay = verdict.delivered ? null : retryDelayMs(attemptCount, settings.retryDelaysS);
    const state = verdict.delivered ? 'DELIVERED' : delay === null ? 'FAILED' : 'PENDING';
    const now = new Date();
    await prisma.$transaction(async (tx) => {
      // Only this claim's attempt counts: a claim that outlived its lease records nothing twice.
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
          responseBody: outcome.responseBody,
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

  async function dispatchDue(): Promise<number> {
    const claimed = await claimDueDeliveries(lane, settings.leaseS);
    await Promise.all(
      claimed.map((delivery) =>
        attempt(delivery).catch((error: unknown) =>
          logger.error(
            { err: error, deliveryId: delivery.id },
            `${lane.name} attempt not recorded`,
          ),
        ),
      ),
    );
    return claimed.length;
  }

  function idle(): Promise<void> {
    if (pendingWake) {
      pendingWake = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, settings.pollIntervalMs);
      timer.unref();
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });
  }

  const wake = () => {
    if (wakeUp) wakeUp();
    else pendingWake = true;
  };

  const loop = (async () => {
    while (running) {
      let claimed = 0;
      try {
        claimed = await dispatchDue();
      } catch (error) {
        logger.warn({ err: error }, `${lane.name} dispatcher could not claim deliveries`);
      }
      if (claimed === 0 && running) await idle();
    }
  })();

  const prune = () =>
    pruneWebhookHistory(new Date()).catch((error: unknown) =>
      logger.warn({ err: error }, 'old outbox history could not be deleted'),
    );
  const pruning = lane.prunesHistory ? setInterval(prune, PRUNE_INTERVAL_MS) : null;
  pruning?.unref();

  const stopHearing = onDueDeliveries(wake);
  return {
    wake,
    async stop() {
      running = false;
      if (pruning) clearInterval(pruning);
      stopHearing();
      wake();
      await loop;
    },
  };
}

/** Starts the webhook lane's dispatcher; `answers` read orders and payouts as their routes answer them. */
export function startWebhookDispatcher(
  answers: EventAnswers,
  settings: DispatcherSettings = dispatcherSettingsFromConfig(),
): Dispatcher {
  return startDeliveryDispatcher(webhookLane(answers), settings);
}
