// The webhook lane of the outbox (src/outbox/lane.ts): a delivery to an endpoint is its
// event's body, built once (by whichever dispatcher comes first) so every attempt sends the same
// bytes, POSTed as JSON and signed as Standard Webhooks says; any 2xx delivers it.
import type { WebhookEndpoint } from '../../generated/prisma/client';
import { prisma } from '../../platform/db';
import { logger } from '../../platform/logger';
import { webhookDeliveryAttempts, webhookDeliveryDuration } from '../../platform/metrics';
import {
  dispatcherSettingsFromConfig,
  startDeliveryDispatcher,
  type Dispatcher,
  type DispatcherSettings,
} from '../../outbox/dispatcher';
import {
  failingStateData,
  judgeByStatus,
  UnsendableDelivery,
  type DeliveryLane,
} from '../../outbox/lane';
import { changeOf, orderEventBody, rowEventBody, type EventAnswers } from './payload';
import { activeSecrets, signedHeaders } from './signing';

/** The event's body: built at its first attempt, then kept. */
async function eventBody(eventId: string, answers: EventAnswers): Promise<string> {
  const event = await prisma.webhookEvent.findUniqueOrThrow({ where: { id: eventId } });
  if (event.payload !== null) return event.payload;
  if (event.payoutId !== null) {
    return keepBody(eventId, await rowBody(event, 'payout', event.payoutId, answers));
  }
  if (event.earningId !== null) {
    return keepBody(eventId, await rowBody(event, 'earning', event.earningId, answers));
  }
  if (event.orderId === null) throw new Error(`event ${eventId} has neither body nor order`);
  const order = await prisma.order.findUnique({
    where: { id: event.orderId },
    select: { affiliateId: true },
  });
  if (!order) throw new Error('the order can no longer be read');
  const orderEvent = event.orderEventId
    ? await prisma.orderEvent.findUnique({ where: { id: event.orderEventId } })
    : null;
  const body = JSON.stringify(
    orderEventBody(
      { type: event.type, previousStatus: event.previousStatus, occurredAt: event.occurredAt },
      await answers.order(event.orderId, order.affiliateId),
      orderEvent ? changeOf(orderEvent) : {},
    ),
  );
  return keepBody(eventId, body);
}

/** A payout's or a ledger entry's event body: the row as its route answers it now. */
async function rowBody(
  event: { type: string; occurredAt: Date },
  name: 'payout' | 'earning',
  id: string,
  answers: EventAnswers,
): Promise<string> {
  const select = { affiliateId: true } as const;
  const owner =
    name === 'payout'
      ? await prisma.payout.findUnique({ where: { id }, select })
      : await prisma.earning.findUnique({ where: { id }, select });
  if (!owner) throw new Error(`the ${name} can no longer be read`);
  const answer = await answers[name](id, owner.affiliateId);
  return JSON.stringify(
    rowEventBody(event, name === 'payout' ? { payout: answer } : { earning: answer }),
  );
}

/** Keeps the first body built for an event (another dispatcher may have built one meanwhile). */
async function keepBody(eventId: string, body: string): Promise<string> {
  await prisma.webhookEvent.updateMany({
    where: { id: eventId, payload: null },
    data: { payload: body },
  });
  return (await prisma.webhookEvent.findUniqueOrThrow({ where: { id: eventId } })).payload!;
}

/** The lane of webhook endpoints; `answers` read orders and payouts as their routes answer them. */
export function webhookLane(answers: EventAnswers): DeliveryLane<WebhookEndpoint> {
  return {
    name: 'webhook',
    targetColumn: 'endpointId',
    targetTable: 'WebhookEndpoint',
    loadTarget: (id) => prisma.webhookEndpoint.findUniqueOrThrow({ where: { id } }),
    async prepare(delivery, endpoint, now) {
      let body: string;
      try {
        body = await eventBody(delivery.eventId, answers);
      } catch (error) {
        logger.warn({ err: error, deliveryId: delivery.id }, 'webhook body could not be built');
        throw new UnsendableDelivery('the order, payout or entry can no longer be read');
      }
      const headers = {
        ...signedHeaders(delivery.eventId, body, activeSecrets(endpoint, now), now),
        'content-type': 'application/json',
        'user-agent': 'affiliate-network-webhooks/1',
      };
      return {
        request: { method: 'POST', url: new URL(endpoint.url), headers, body },
        shown: null,
      };
    },
    judge: judgeByStatus,
    async changeTarget(tx, endpointId, change) {
      await tx.webhookEndpoint.update({
        where: { id: endpointId },
        data: {
          ...failingStateData(change, 'updateWebhookEndpoint'),
          ...(change.kind === 'disabled' && { auditTrail: { create: { kind: 'DISABLED' } } }),
        },
      });
    },
    attempts: webhookDeliveryAttempts,
    duration: webhookDeliveryDuration,
    prunesHistory: true,
  };
}

/** Starts the webhook lane's dispatcher; `answers` read orders and payouts as their routes answer them. */
export function startWebhookDispatcher(
  answers: EventAnswers,
  settings: DispatcherSettings = dispatcherSettingsFromConfig(),
): Dispatcher {
  return startDeliveryDispatcher(webhookLane(answers), settings);
}
