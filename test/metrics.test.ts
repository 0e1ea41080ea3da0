// GET /metrics: Prometheus text with the traffic the app has answered, by route template (never an
// id), the quota's refusals, key-cache hits and misses, click batches, the database pool and whether
// the dependencies answer, and the process's own metrics; behind a bearer token when one is set,
// and not served when turned off.
import { randomUUID } from 'node:crypto';
import { config } from '../src/platform/config';
import {
  app,
  callApp,
  createIsolatedApp,
  expectError,
  send,
  useTestDatabase,
  type App,
} from './support/app';
import { createAffiliate, createApiKey, createBrand, createLink } from './support/factories';
import { scrape, valueOf } from './support/metrics';

useTestDatabase();

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0';

/** How much each metric grew while `work` ran. */
async function growth(work: () => Promise<unknown>, target: App = app) {
  const before = await scrape(target);
  await work();
  const after = await scrape(target);
  return (name: string, labels: Record<string, string> = {}) =>
    valueOf(after, name, labels) - valueOf(before, name, labels);
}

test('counts requests by method, route template and status, with their durations', async () => {
  const { apiKey } = await createApiKey('partner');
  const unknownBrand = randomUUID();
  const grew = await growth(async () => {
    await callApp(app, '/api/partner/organizations', { key: apiKey });
    await callApp(app, `/api/partner/brands/${unknownBrand}`, { key: apiKey });
  });
  expect(
    grew('http_requests_total', {
      method: 'GET',
      route: '/api/partner/organizations',
      status: '200',
    }),
  ).toBe(1);
  expect(
    grew('http_requests_total', {
      method: 'GET',
      route: '/api/partner/brands/{brandId}',
      status: '404',
    }),
  ).toBe(1);
  expect(
    grew('http_request_duration_seconds_count', {
      method: 'GET',
      route: '/api/partner/organizations',
    }),
  ).toBe(1);
  const text = await scrape();
  expect(text).not.toContain(unknownBrand);
  expect(text).not.toContain(apiKey);
});

test('paths outside every route are one series, whatever the path', async () => {
  const grew = await growth(() => send(app, `/no/such/${randomUUID()}`));
  expect(grew('http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
});

test('counts the quota refusals by the limit that refused', async () => {
  const limited = createIsolatedApp({ settings: { max: 1 } });
  const { apiKey } = await createApiKey('partner');
  const grew = await growth(async () => {
    await callApp(limited, '/api/partner/organizations', { key: apiKey });
    expect((await callApp(limited, '/api/partner/organizations', { key: apiKey })).status).toBe(
      429,
    );
  }, limited);
  expect(grew('quota_refusals_total', { limit: 'requests' })).toBe(1);
});

test('counts key verifications that found the key remembered (hit) or read it (miss)', async () => {
  const { apiKey } = await createApiKey('partner');
  const grew = await growth(async () => {
    await callApp(app, '/api/partner/organizations', { key: apiKey });
    await callApp(app, '/api/partner/organizations', { key: apiKey });
  });
  expect(grew('api_key_cache_lookups_total', { result: 'miss' })).toBe(1);
  expect(grew('api_key_cache_lookups_total', { result: 'hit' })).toBe(1);
});

test("observes each click batch's size and lag", async () => {
  const { affiliateId } = await createAffiliate();
  const link = await createLink(affiliateId, (await createBrand()).id);
  const grew = await growth(async () => {
    const answer = await send(app, `/s/${link.urlCode}`, {
      headers: { 'user-agent': BROWSER },
      redirect: 'manual',
    });
    expect(answer.status).toBe(302);
  });
  expect(grew('click_batch_clicks_count')).toBe(1);
  expect(grew('click_batch_clicks_sum')).toBe(1);
  expect(grew('click_batch_lag_seconds_count')).toBe(1);
});

test('says whether the database and Redis answer, the pool, and the process', async () => {
  const text = await scrape();
  expect(valueOf(text, 'dependency_up', { dependency: 'database' })).toBe(1);
  if (config.redisUrl) {
    expect(valueOf(text, 'dependency_up', { dependency: 'redis' })).toBe(1);
  }
  if (config.databaseUrl) {
    expect(valueOf(text, 'database_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    expect(text).toMatch(/^database_pool_connections\{state="waiting"\} \d+$/m);
  }
  expect(text).toMatch(/^process_cpu_user_seconds_total \S+$/m);
  expect(text).toMatch(/^nodejs_eventloop_lag_seconds \S+$/m);
});

describe('with METRICS_TOKEN', () => {
  const token = 'a-metrics-token-for-tests';
  const guarded = createIsolatedApp({ settings: { metricsToken: token } });

  test.each([
    ['no Authorization', {}],
    ['another token', { authorization: 'Bearer a-metrics-token-for-test' }],
    ['the token without Bearer', { authorization: token }],
  ])('%s answers 401', async (_case, headers) => {
    const answer = await send(guarded, '/metrics', { headers });
    expectError(
      { status: answer.status, body: answer.json },
      'UNAUTHORIZED',
      /Authorization: Bearer <METRICS_TOKEN>/,
    );
  });

  test('the bearer token reads them', async () => {
    const answer = await send(guarded, '/metrics', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('# TYPE http_requests_total counter');
  });
});

test('turned off, /metrics is a path like any unknown one', async () => {
  const off = createIsolatedApp({ settings: { metricsEnabled: false } });
  const answer = await send(off, '/metrics');
  expectError({ status: answer.status, body: answer.json }, 'NOT_FOUND');
});
