// The dispatcher, one in every replica: it claims due deliveries with a lease (FOR UPDATE SKIP
// LOCKED, so two dispatchers never claim one delivery; the lease, not a row lock, covers the HTTP
// call, so a killed dispatcher's claim simply expires and another sends it again, with the same
// webhook-id), sends them, records each attempt, and schedules retries. An order's delivery to an
// endpoint waits while an earlier one of the same order to that endpoint is not delivered, so
// each order's events arrive in order. Woken by the database's notification at commit, it also
// polls, so nothing waits on a lost notification for longer than the poll interval.
import { config } from '../../platform/config';
import { prisma } from '../../platform/db';
import { logger } from '../../platform/logger';
import {
  gaugeOnScrape,
  webhookDeliveryAttempts,
  webhookDeliveryDuration,
} from '../../platform/metrics';
import { orderEventBody, type OrderAnswer } from './payload';
import { setPendingDeliveries } from './pending';
import { pruneWebhookHistory } from './history';
import { retryDelayMs } from './retries';
import { isSuccess, postWebhook, type AttemptOutcome } from './send';
import { activeSecrets, signedHeaders, type SigningSecrets } from './signing';
import { checkedAddress, type Resolve, resolveHost } from './urls';
import { onDueDeliveries } from './wakeUp';

/** The Standard Webhooks deadline of one attempt. */
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

interface ClaimedDelivery {
  id: string;
  eventId: string;
  endpointId: string;
  attemptCount: number;
}

// Every replica runs a dispatcher and reports the same database-wide count: aggregate with max.
gaugeOnScrape(
  'webhook_deliveries_pending',
  'Webhook deliveries waiting to be sent: due, scheduled for a retry, or held by a paused endpoint or a closed account',
  (gauge) => setPendingDeliveries(gauge),
);

/** The `outcome` label of an attempt: two values, whatever the receiver or the error. */
function attemptOutcomeLabel(outcome: AttemptOutcome): 'delivered' | 'failed' {
  return isSuccess(outcome.statusCode) ? 'delivered' : 'failed';
}

/** Claims up to CLAIM_BATCH due deliveries for `leaseS` seconds. */
function claimDueDeliveries(leaseS: number): Promise<ClaimedDelivery[]> {
  return prisma.$queryRaw<ClaimedDelivery[]>`
    UPDATE "WebhookDelivery" AS claimed
    SET "lockedUntil" = (now() AT TIME ZONE 'UTC') + make_interval(secs => ${leaseS})
    WHERE claimed."id" IN (
      SELECT due."id" FROM "WebhookDelivery" due
      JOIN "WebhookEndpoint" endpoint ON endpoint."id" = due."endpointId"
      JOIN "User" owner ON owner."id" = endpoint."ownerId"
      WHERE due."state" = 'PENDING'
        AND due."nextAttemptAt" <= (now() AT TIME ZONE 'UTC')
        AND (due."lockedUntil" IS NULL OR due."lockedUntil" <= (now() AT TIME ZONE 'UTC'))
        AND endpoint."enabled" AND endpoint."deletedAt" IS NULL AND owner."deletedAt" IS NULL
        AND NOT EXISTS (
          SELECT 1 FROM "WebhookDelivery" earlier
          WHERE earlier."endpointId" = due."endpointId" AND earlier."orderId" = due."orderId"
            AND earlier."seq" < due."seq" AND earlier."state" <> 'DELIVERED'
        )
      ORDER BY due."seq"
      LIMIT ${CLAIM_BATCH}
      FOR UPDATE OF due SKIP LOCKED
    )
    RETURNING claimed."id", claimed."eventId", claimed."endpointId", claimed."attemptCount"`;
}

/** The event's body, built once (by whichever dispatcher comes first) so every attempt sends the same bytes. */
async function eventBody(eventId: string, orderAnswer: OrderAnswer): Promise<string> {
  const event = await prisma.webhookEvent.findUniqueOrThrow({ where: { id: eventId } });
  if (event.payload !== null) return event.payload;
  if (event.orderId === null) throw new Error(`event ${eventId} has neither body nor order`);
  const order = await prisma.order.findUnique({
    where: { id: event.orderId },
    select: { affiliateId: true },
  });
  if (!order) throw new Error('the order can no longer be read');
  const body = JSON.stringify(
    orderEventBody(
      { type: event.type, previousStatus: event.previousStatus, occurredAt: event.occurredAt },
      await orderAnswer(event.orderId, order.affiliateId),
    ),
  );
  await prisma.webhookEvent.updateMany({
    where: { id: eventId, payload: null },
    data: { payload: body },
  });
  return (await prisma.webhookEvent.findUniqueOrThrow({ where: { id: eventId } })).payload!;
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

/** Starts a dispatcher; `orderAnswer` reads an order as its route answers it (src/modules/webhooks/orderAnswer.ts). */
export function startWebhookDispatcher(
  orderAnswer: OrderAnswer,
  settings: DispatcherSettings = dispatcherSettingsFromConfig(),
): Dispatcher {
  const resolve = settings.resolve ?? resolveHost;
  const timeoutMs = attemptTimeoutMs(settings.leaseS);
  let running = true;
  let wakeUp: (() => void) | null = null;
  let pendingWake = false;

  /** Sends one claimed delivery, or says why it could not be sent. */
  async function send(
    delivery: ClaimedDelivery,
    endpoint: { url: string } & SigningSecrets,
    now: Date,
  ): Promise<AttemptOutcome> {
    let body: string;
    try {
      body = await eventBody(delivery.eventId, orderAnswer);
    } catch (error) {
      logger.warn({ err: error, deliveryId: delivery.id }, 'webhook body could not be built');
      return failedOutcome('the order can no longer be read');
    }
    const url = new URL(endpoint.url);
    const check = await checkedAddress(url, settings.allowPrivateUrls, resolve);
    if (!check.ok) return failedOutcome(`not sent: ${check.reason}`);
    const headers = signedHeaders(delivery.eventId, body, activeSecrets(endpoint, now), now);
    const outcome = await postWebhook(url, check.address, headers, body, timeoutMs);
    // Only requests that were made: an attempt refused before sending took no time at the receiver.
    webhookDeliveryDuration.observe(outcome.durationMs / 1000);
    return outcome;
  }

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const endpoint = await prisma.webhookEndpoint.findUniqueOrThrow({
      where: { id: delivery.endpointId },
    });
    const now = new Date();
    const outcome = await send(delivery, endpoint, now);
    webhookDeliveryAttempts.inc({ outcome: attemptOutcomeLabel(outcome) });
    await recordAttempt(delivery, endpoint.failingSince, outcome, now);
  }

  async function recordAttempt(
    delivery: ClaimedDelivery,
    failingSince: Date | null,
    outcome: AttemptOutcome,
    attemptedAt: Date,
  ): Promise<void> {
    const attemptCount = delivery.attemptCount + 1;
    const delay = isSuccess(outcome.statusCode)
      ? null
      : retryDelayMs(attemptCount, settings.retryDelaysS);
    const state = isSuccess(outcome.statusCode)
      ? 'DELIVERED'
      : delay === null
        ? 'FAILED'
        : 'PENDING';
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
          error: outcome.error,
          responseBody: outcome.responseBody,
        },
      });
      if (state === 'DELIVERED' && failingSince !== null) {
        await tx.webhookEndpoint.update({
          where: { id: delivery.endpointId },
          data: { failingSince: null },
        });
      } else if (state === 'FAILED') {
        await markFailing(tx, delivery.endpointId, failingSince ?? now, now);
      }
    });
  }

  /** An endpoint whose deliveries keep failing is marked failing, then disabled (with its reason). */
  async function markFailing(
    tx: Parameters<Parameters<typeof prisma.$transaction>[0]>[0],
    endpointId: string,
    failingSince: Date,
    now: Date,
  ): Promise<void> {
    const isDue = now.getTime() - failingSince.getTime() >= settings.disableAfterS * 1000;
    await tx.webhookEndpoint.update({
      where: { id: endpointId },
      data: isDue
        ? {
            failingSince,
            enabled: false,
            disabledAt: now,
            disabledReason: `Every delivery failed since ${failingSince.toISOString()}; enable it again with updateWebhookEndpoint`,
            auditTrail: { create: { kind: 'DISABLED' } },
          }
        : { failingSince },
    });
  }

  async function dispatchDue(): Promise<number> {
    const claimed = await claimDueDeliveries(settings.leaseS);
    await Promise.all(
      claimed.map((delivery) =>
        attempt(delivery).catch((error: unknown) =>
          logger.error({ err: error, deliveryId: delivery.id }, 'webhook attempt not recorded'),
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
        logger.warn({ err: error }, 'webhook dispatcher could not claim deliveries');
      }
      if (claimed === 0 && running) await idle();
    }
  })();

  const prune = () =>
    pruneWebhookHistory(new Date()).catch((error: unknown) =>
      logger.warn({ err: error }, 'old webhook history could not be deleted'),
    );
  const pruning = setInterval(prune, PRUNE_INTERVAL_MS);
  pruning.unref();

  const stopHearing = onDueDeliveries(wake);
  return {
    wake,
    async stop() {
      running = false;
      clearInterval(pruning);
      stopHearing();
      wake();
      await loop;
    },
  };
}
