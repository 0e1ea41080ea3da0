// The postback lane of the outbox (src/outbox/lane.ts): a delivery to a postback is its
// templates rendered for the order of the event, at each attempt (`{attempt}` counts them), sent
// as the postback says. A 2xx delivers it; where the postback names a success text, the answer
// must also contain it. The rendered request is kept with the attempt, its secrets redacted.
import type { Postback } from '../../generated/prisma/client';
import { prisma } from '../../platform/db';
import {
  failingStateData,
  judgeByStatus,
  UnsendableDelivery,
  type DeliveryLane,
} from '../../outbox/lane';
import type { AttemptOutcome } from '../../outbox/send';
import { readConversion } from './conversion';
import { postbackDeliveryAttempts, postbackDeliveryDuration } from './metrics';
import { renderAttempt } from './request';
import { settingsOf } from './settings';

/** Whether an answer delivers a postback: a 2xx, holding the success text where one is set. */
export function judgePostback(outcome: AttemptOutcome, successText: string | null) {
  const verdict = judgeByStatus(outcome);
  if (!verdict.delivered || successText === null) return verdict;
  return outcome.responseBody?.includes(successText)
    ? verdict
    : {
        delivered: false as const,
        error: `answered HTTP ${outcome.statusCode} without "${successText}"`,
      };
}

export const postbackLane: DeliveryLane<Postback> = {
  name: 'postback',
  targetColumn: 'postbackId',
  targetTable: 'Postback',
  loadTarget: (id) => prisma.postback.findUniqueOrThrow({ where: { id } }),
  async prepare(delivery, postback) {
    const event = await prisma.webhookEvent.findUniqueOrThrow({
      where: { id: delivery.eventId },
      select: { type: true, orderId: true, status: true, previousStatus: true, orderEventId: true },
    });
    const conversion = event.orderId ? await readConversion(event.orderId) : null;
    if (!conversion) throw new UnsendableDelivery('the order can no longer be read');
    const reason = event.orderEventId
      ? await prisma.orderEvent.findUnique({
          where: { id: event.orderEventId },
          select: { reason: true },
        })
      : null;
    // A delivery that a later one of the same order has overtaken (a redelivery of an old one)
    // reports the order as it is now: a tracker that books each postback must not end on a
    // status the order has left.
    const overtaken = await prisma.webhookDelivery.findFirst({
      where: {
        postbackId: postback.id,
        orderId: conversion.orderId,
        state: 'DELIVERED',
        seq: { gt: delivery.seq },
      },
      select: { id: true },
    });
    const attempt = renderAttempt(settingsOf(postback), conversion, {
      event: event.type,
      status: (!overtaken && event.status) || conversion.status,
      previousStatus: overtaken ? null : event.previousStatus,
      reason: reason?.reason ?? null,
      deliveryId: delivery.id,
      attempt: delivery.attemptCount + 1,
    });
    if (attempt.refusal !== null) throw new UnsendableDelivery(`not sent: ${attempt.refusal}`);
    return attempt;
  },
  judge: (outcome, postback) => judgePostback(outcome, postback.successText),
  async changeTarget(tx, postbackId, change) {
    await tx.postback.update({
      where: { id: postbackId },
      data: failingStateData(change, 'updatePostback'),
    });
  },
  attempts: postbackDeliveryAttempts,
  duration: postbackDeliveryDuration,
  prunesHistory: false,
};
