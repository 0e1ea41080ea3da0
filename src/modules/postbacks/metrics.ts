// The postback lane's metrics, beside the webhooks' (src/platform/metrics.ts): the same two
// outcomes, never a postback, a URL or an owner as a label.
import { Counter, Histogram } from 'prom-client';
import { registry } from '../../platform/metrics';

export const postbackDeliveryAttempts = new Counter({
  name: 'postback_delivery_attempts_total',
  help: 'Postback delivery attempts by outcome: delivered (a 2xx, with the success text where one is set) or failed (anything else, no answer in time, connection error, address refused, request not built)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const postbackDeliveryDuration = new Histogram({
  name: 'postback_delivery_duration_seconds',
  help: 'Time of one postback HTTP request until its answer; attempts cut at the 10 s deadline land above the last bucket',
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});
