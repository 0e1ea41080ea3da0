// Probes, request ids and the access log: /healthz, /readyz (database and Redis), X-Request-Id in
// and out (and in error bodies), one structured log line per request without credentials.
import { createApp } from '../src/app';
import { config } from '../src/platform/config';
import { createRedisClient, type RedisClient } from '../src/platform/redis';
import { logger } from '../src/platform/logger';
import { app, call, useTestDatabase } from './support/app';
import { createApiKey } from './support/factories';

useTestDatabase();

test('/healthz answers while the process runs', async () => {
  const { status, body, headers } = await call('/healthz');
  expect(status).toBe(200);
  expect(body).toEqual({ status: 'ok' });
  expect(headers.get('x-request-id')).toBeTruthy();
});

test('/readyz checks the database, and Redis when configured', async () => {
  const { status, body } = await call('/readyz');
  expect(status).toBe(200);
  expect(body).toEqual({
    status: 'ok',
    checks: { database: 'ok', ...(config.redisUrl && { redis: 'ok' }) },
  });
});

describe('/readyz with Redis unreachable', () => {
  let redis: RedisClient;
  afterAll(() => redis.disconnect());

  test('answers 503 naming what is down, at once', async () => {
    redis = createRedisClient('redis://127.0.0.1:6390');
    const started = Date.now();
    const response = await createApp({ redis }).fetch('http://api.test/readyz');
    // The probe's own timeout decides, not ioredis's reconnects (which would queue the command for
    // as long as Redis stays away); the bound leaves room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      status: 'unavailable',
      checks: { database: 'ok', redis: 'unreachable' },
    });
  });
});

describe('X-Request-Id', () => {
  test('a sane id from the caller is echoed and named in error bodies', async () => {
    const requestId = 'client-req_42.a:b';
    const { status, body, headers } = await call('/api/partner/brands', {
      headers: { 'x-request-id': requestId },
    });
    expect(status).toBe(401);
    expect(headers.get('x-request-id')).toBe(requestId);
    expect(body).toEqual({
      success: false,
      code: 'UNAUTHORIZED',
      message: expect.any(String),
      requestId,
    });
  });

  test('errors raised during execution (Sofa error handler) carry it too', async () => {
    const { apiKey } = await createApiKey('partner');
    const { status, body } = await call('/api/partner/brands?limit=abc', {
      key: apiKey,
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(status).toBe(400);
    expect(body.requestId).toBe('abc-123');
    const missing = await call('/api/partner/brands/00000000-0000-4000-8000-000000000000', {
      key: apiKey,
      headers: { 'x-request-id': 'abc-124' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ statusCode: 404, requestId: 'abc-124' });
  });

  test('without a caller id, the generated one is in the header and the error body alike', async () => {
    const { headers, body } = await call('/api/partner/brands');
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(headers.get('x-request-id')).toBe(body.requestId);
  });

  test('an unusable id is replaced by a generated one', async () => {
    for (const given of ['x'.repeat(129), 'has space', 'new\u00e9line']) {
      const { headers } = await call('/healthz', { headers: { 'x-request-id': given } });
      expect(headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    const { headers } = await call('/healthz', { headers: { 'x-request-id': 'y'.repeat(128) } });
    expect(headers.get('x-request-id')).toBe('y'.repeat(128));
  });

  test('every answer carries one, successes included', async () => {
    const { apiKey } = await createApiKey('partner');
    const { status, headers } = await call('/api/partner/organizations', { key: apiKey });
    expect(status).toBe(200);
    expect(headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

test('one access log line per request: route, status, duration, who and from where; no key', async () => {
  const level = logger.level;
  logger.level = 'info';
  const info = jest.spyOn(logger, 'info').mockImplementation(() => undefined);
  const { apiKey, row: key } = await createApiKey('partner');
  await app.fetch('http://api.test/api/partner/brands/not-a-brand?search=secret-term', {
    headers: { 'x-api-key': apiKey, 'x-request-id': 'log-1', 'user-agent': 'curl/8.5.0' },
  });
  const lines = info.mock.calls.filter(
    ([fields, message]) =>
      message === 'request' && (fields as { requestId?: string }).requestId === 'log-1',
  );
  expect(lines).toHaveLength(1);
  expect(lines[0]![0]).toEqual({
    requestId: 'log-1',
    method: 'GET',
    path: '/api/partner/brands/not-a-brand',
    route: '/api/partner/brands/{brandId}',
    status: 404,
    durationMs: expect.any(Number),
    keyId: key.id,
    userId: key.ownerId,
    clientIp: expect.any(String),
    userAgent: 'curl/8.5.0',
  });
  expect(JSON.stringify(info.mock.calls)).not.toContain(apiKey);
  info.mockRestore();
  logger.level = level;
});
