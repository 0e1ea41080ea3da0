// sendTestPostback: the postback's templates rendered for one of its owner's orders (or the
// documented sample) and sent now, through the same address check as deliveries; the answer is
// the request as shown (secrets redacted) and the tracker's answer, without the secrets the request
// carried. Nothing is recorded.
import { randomUUID } from 'node:crypto';
import type { Postback } from '../../generated/prisma/client';
import { config } from '../../platform/config';
import { attemptTimeoutMs } from '../../outbox/dispatcher';
import { withoutSecrets, type ShownRequest } from '../../outbox/lane';
import { sendToCheckedAddress, type AttemptOutcome } from '../../outbox/send';
import { type Resolve, resolveHost } from '../../outbox/urls';
import { readConversion } from './conversion';
import { TEST_EVENT_TYPE } from './eventTypes';
import { judgePostback } from './lane';
import { SAMPLE_CONVERSION } from './macros';
import { renderAttempt } from './request';
import { settingsOf } from './settings';

/** The status of the documented sample. */
export const SAMPLE_STATUS = 'APPROVED' as const;

/** What sendTestPostback sent and the tracker's answer. */
export interface TestSent {
  orderId: string | null;
  request: ShownRequest;
  statusCode: number | null;
  responseBody: string | null;
  durationMs: number;
  error: string | null;
  delivered: boolean;
}

async function sendAttempt(
  attempt: ReturnType<typeof renderAttempt>,
  resolve: Resolve,
): Promise<AttemptOutcome> {
  if (attempt.refusal !== null) {
    return {
      statusCode: null,
      durationMs: 0,
      error: `not sent: ${attempt.refusal}`,
      responseBody: null,
    };
  }
  const { outcome } = await sendToCheckedAddress(
    attempt.request,
    config.webhookAllowPrivateUrls,
    resolve,
    attemptTimeoutMs(config.webhookLeaseS),
  );
  return outcome;
}

export async function sendTestPostback(
  postback: Postback,
  orderId: string | null,
  resolve: Resolve = resolveHost,
): Promise<TestSent> {
  const order = orderId === null ? null : await readConversion(orderId);
  const conversion = order ?? { ...SAMPLE_CONVERSION, status: SAMPLE_STATUS };
  const settings = settingsOf(postback);
  const attempt = renderAttempt(settings, conversion, {
    event: TEST_EVENT_TYPE,
    status: conversion.status,
    previousStatus: null,
    reason: null,
    deliveryId: randomUUID(),
    attempt: 1,
  });
  const outcome = await sendAttempt(attempt, resolve);
  const verdict = judgePostback(outcome, settings.successText);
  return {
    orderId: order ? order.orderId : null,
    request: attempt.shown,
    statusCode: outcome.statusCode,
    responseBody:
      outcome.responseBody === null || attempt.refusal !== null
        ? outcome.responseBody
        : withoutSecrets(outcome.responseBody, attempt.secrets),
    durationMs: outcome.durationMs,
    error: verdict.delivered ? null : verdict.error,
    delivered: verdict.delivered,
  };
}
