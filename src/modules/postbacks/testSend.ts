// sendTestPostback: the postback's templates rendered for one of its owner's orders (or the
// documented sample) and sent now, through the same address check as deliveries; the answer is
// the request as shown (secrets redacted) and the tracker's answer. Nothing is recorded.
import { randomUUID } from 'node:crypto';
import type { Postback } from '../../generated/prisma/client';
import { config } from '../../platform/config';
import { attemptTimeoutMs } from '../webhooks/dispatcher';
import { sendToCheckedAddress } from '../webhooks/send';
import { type Resolve, resolveHost } from '../webhooks/urls';
import { readConversion } from './conversion';
import { TEST_EVENT_TYPE } from './events';
import { judgePostback } from './lane';
import { macroValues, SAMPLE_CONVERSION } from './macros';
import {
  outgoingRequest,
  parsePostback,
  renderedRefusal,
  renderRequest,
  shownRequest,
} from './request';
import type { TestSent } from './schema/types';
import { settingsOf } from './settings';

/** The status of the documented sample. */
export const SAMPLE_STATUS = 'APPROVED' as const;

export async function sendTestPostback(
  postback: Postback,
  orderId: string | null,
  resolve: Resolve = resolveHost,
): Promise<TestSent> {
  const order = orderId === null ? null : await readConversion(orderId);
  const conversion = order ?? { ...SAMPLE_CONVERSION, status: SAMPLE_STATUS };
  const settings = settingsOf(postback);
  const values = macroValues(
    conversion,
    {
      event: TEST_EVENT_TYPE,
      status: conversion.status,
      previousStatus: null,
      reason: null,
      deliveryId: randomUUID(),
      attempt: 1,
    },
    settings.statusMap,
    settings.secret,
  );
  const parsed = parsePostback(settings);
  const rendered = renderRequest(parsed, values);
  const request = shownRequest(parsed, values);
  const refusal = renderedRefusal(rendered);
  const { outcome } = refusal
    ? {
        outcome: {
          statusCode: null,
          durationMs: 0,
          error: `not sent: ${refusal}`,
          responseBody: null,
        },
      }
    : await sendToCheckedAddress(
        outgoingRequest(rendered),
        config.webhookAllowPrivateUrls,
        resolve,
        attemptTimeoutMs(config.webhookLeaseS),
      );
  const verdict = judgePostback(outcome, settings.successText);
  return {
    orderId: order ? order.orderId : null,
    request,
    statusCode: outcome.statusCode,
    responseBody: outcome.responseBody,
    durationMs: outcome.durationMs,
    error: verdict.delivered ? null : verdict.error,
    delivered: verdict.delivered,
  };
}
