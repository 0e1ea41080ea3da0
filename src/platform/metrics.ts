// The service's Prometheus metrics (prom-client), in one registry. Modules record what they do
// here; GET /metrics (src/http/metricsEndpoint.ts) writes them out. Labels hold route templates
// and fixed words only, never ids or keys, so the series stay few.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method and route template',
  labelNames: ['method', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [registry],
});

export const quotaRefusals = new Counter({
  name: 'quota_refusals_total',
  help: 'Requests answered 429, by the limit that refused them',
  labelNames: ['limit'] as const,
  registers: [registry],
});

export const keyCacheLookups = new Counter({
  name: 'api_key_cache_lookups_total',
  help: 'API key verifications by whether the key was remembered (hit) or read from the database (miss)',
  labelNames: ['result'] as const,
  registers: [registry],
});

export const responseCacheLookups = new Counter({
  name: 'response_cache_lookups_total',
  help: 'REST GET answers looked up in the response cache, by whether one was there (hit) or not (miss)',
  labelNames: ['result'] as const,
  registers: [registry],
});

export const clickBatchSize = new Histogram({
  name: 'click_batch_clicks',
  help: 'Clicks written by one statement of the redirect',
  buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
  registers: [registry],
});

export const clickBatchLag = new Histogram({
  name: 'click_batch_lag_seconds',
  help: "From a batch's first click to its commit",
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
  registers: [registry],
});

/** A gauge read when /metrics is scraped. */
export function gaugeOnScrape(
  name: string,
  help: string,
  read: (gauge: Gauge) => void | Promise<void>,
  labelNames: string[] = [],
): void {
  new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      await read(this);
    },
  });
}

export const webhookDeliveryAttempts = new Counter({
  name: 'webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by outcome: delivered (a 2xx) or failed (another status, no answer in time, connection error, address refused, body not built)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const webhookDeliveryDuration = new Histogram({
  name: 'webhook_delivery_duration_seconds',
  help: 'Time of one webhook HTTP request until its answer; attempts cut at the 10 s deadline land above the last bucket',
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});
