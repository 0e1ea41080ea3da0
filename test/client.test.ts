// The typed client (client/, a package of its own) against the running app: generated types up to date, typed calls,
// page iteration, both short-URL and error shapes, and Retry-After on 429.
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ApiError,
  apiErrorOf,
  createApiClient,
  NetworkError,
  retryAfterMs,
  retryingFetch,
  shortUrlOf,
  type ShortUrl,
} from '../client/src';
import { createIsolatedApp, app, useTestDatabase } from './support/app';
import { createAffiliate, createApiKey, createBrand } from './support/factories';
import { freePort } from './support/replica';

useTestDatabase();

let partnerKey: string;
let affiliateKey: string;
const brandIds: string[] = [];

// The app on a real port: the client speaks HTTP to it like any integrator's code.
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ({ apiKey: partnerKey } = await createApiKey('partner'));
  ({ apiKey: affiliateKey } = await createAffiliate());
  for (let i = 0; i < 5; i += 1) brandIds.push((await createBrand({ name: `Client ${i}` })).id);
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('generated types', () => {
  it('are up to date with GET /openapi.json (npm run client:generate)', () => {
    // A fresh in-memory app: the document does not depend on the database or the configuration.
    const { DATABASE_URL: _database, REDIS_URL: _redis, ...env } = process.env;
    const check = spawnSync(
      process.execPath,
      ['node_modules/tsx/dist/cli.mjs', 'scripts/generate-client.ts', '--check'],
      {
        cwd: `${__dirname}/..`,
        env: { ...env, PGLITE_DATA_DIR: 'memory://', LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      },
    );
    expect({ status: check.status, stderr: check.stderr }).toEqual({ status: 0, stderr: '' });
  }, 60_000);
});

describe('the client against the app', () => {
  const partner = () => createApiClient({ baseUrl, apiKey: partnerKey });
  const affiliate = () => createApiClient({ baseUrl, apiKey: affiliateKey });

  it('makes typed calls with list parameters', async () => {
    const body = await partner().get('/api/partner/brands', {
      query: { limit: 2, search: 'Client', categories: [] },
    });
    expect(body.meta).toEqual({ total: 5, page: 1, limit: 2, totalPages: 3 });
    expect(body.data.map((brand) => brand.name)).toEqual(['Client 0', 'Client 1']);

    const one = await partner().get('/api/partner/brands/{brandId}', {
      path: { brandId: brandIds[0]! },
    });
    expect(one.data.id).toBe(brandIds[0]);
    const campaigns = await affiliate().get('/affiliate/campaigns', {
      query: { types: ['Offer', 'GenericCoupon'], status: ['onTime'] },
    });
    expect(campaigns.meta.page).toBe(1);
  });

  it('iterates pages and items of meta and pagination envelopes', async () => {
    const client = partner();
    const pages = [];
    for await (const page of client.pages('/api/partner/brands', { search: 'Client', limit: 2 })) {
      pages.push(page.data.map((brand) => brand.name));
    }
    expect(pages).toEqual([['Client 0', 'Client 1'], ['Client 2', 'Client 3'], ['Client 4']]);

    const names: string[] = [];
    for await (const brand of affiliate().items('/affiliate/brands', {
      search: 'Client',
      limit: 3,
    })) {
      names.push(brand.name);
    }
    expect(names).toEqual(['Client 0', 'Client 1', 'Client 2', 'Client 3', 'Client 4']);

    // An empty list is one page.
    const empty = [];
    for await (const page of client.pages('/api/partner/brands', { search: 'nothing' })) {
      empty.push(page);
    }
    expect(empty).toHaveLength(1);
  });

  it('creates and reads short links', async () => {
    const client = affiliate();
    const first = await client.createShortUrl(
      { organizationId: brandIds[1]! },
      { idempotencyKey: 'client-test-1' },
    );
    expect(first.created).toBe(true);
    const again = await client.createShortUrl({ organizationId: brandIds[1]! });
    expect(again).toEqual({ shortUrl: first.shortUrl, created: false });
    const read: ShortUrl = await client.shortUrl(first.shortUrl.urlCode);
    expect(read).toEqual(first.shortUrl);
  });

  it('throws ApiError with the code, status and request id of the error body', async () => {
    const client = affiliate();
    const notFound = await client.shortUrl('zzzzzzzz').catch((error: unknown) => error);
    expect(notFound).toBeInstanceOf(ApiError);
    expect(notFound).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect((notFound as ApiError).requestId).toEqual(expect.any(String));

    const wrongKey = await partner()
      .get('/affiliate/channels')
      .catch((error: unknown) => error);
    expect(wrongKey).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });

    const badBody = await client
      .createShortUrl({ organizationId: 'not-a-uuid' })
      .catch((error: unknown) => error);
    expect(badBody).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
  });

  it('waits out a 429 as Retry-After says, on a real port', async () => {
    // One request per 2 s: the second call is refused, then let through after the wait.
    const limited = createIsolatedApp({ settings: { max: 1, windowSeconds: 2 } });
    const limitedServer = createServer(limited);
    await new Promise<void>((resolve) => limitedServer.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = limitedServer.address() as AddressInfo;
      const waits: number[] = [];
      const client = createApiClient({
        baseUrl: `http://127.0.0.1:${port}`,
        apiKey: partnerKey,
        sleep: (ms) => {
          waits.push(ms);
          return new Promise((resolve) => setTimeout(resolve, ms));
        },
      });
      await client.get('/api/partner/organizations');
      const second = await client.get('/api/partner/organizations');
      expect(second.meta.page).toBe(1);
      expect(waits).toHaveLength(1);
      expect([1000, 2000]).toContain(waits[0]);
    } finally {
      await new Promise((resolve) => limitedServer.close(resolve));
    }
  });
});

describe('the client on its own', () => {
  it('reports a service it cannot reach as NetworkError, an ApiError, with the cause', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const client = createApiClient({ baseUrl: nowhere, apiKey: partnerKey });
    for (const call of [
      () => client.get('/api/partner/organizations'),
      () => client.createShortUrl({ organizationId: brandIds[0]! }),
    ]) {
      const error = await call().catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR', requestId: undefined });
      expect((error as Error).message).toMatch(
        new RegExp(`^could not reach ${nowhere}: connect ECONNREFUSED`),
      );
      expect((error as Error).cause).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
    }
  });

  it('leaves an abort the caller asked for as it is', async () => {
    const client = createApiClient({
      baseUrl: 'http://api.test',
      apiKey: partnerKey,
      fetch: (request) => fetch(request, { signal: AbortSignal.abort() }),
    });
    const error = await client.get('/api/partner/organizations').catch((thrown: unknown) => thrown);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe('AbortError');
  });

  it('accepts both documented short-URL shapes', () => {
    const link = {
      urlCode: 'Ab3dEf9h',
      shortUrl: 'https://s.example/Ab3dEf9h',
      originalUrl: 'https://brand.example/?aff=1',
      organizationId: 'b',
      active: true,
      count: 0,
      linkType: 'BrandPage',
      createdAt: '2026-01-01T00:00:00.000Z',
    } satisfies ShortUrl;
    expect(shortUrlOf({ data: link })).toBe(link);
    expect(shortUrlOf(link)).toBe(link);
  });

  it('reads both documented error shapes', () => {
    const response = (status: number) =>
      new Response(null, { status, headers: { 'X-Request-Id': 'req-1' } });
    expect(
      apiErrorOf(response(403), { success: false, message: 'no scope', code: 'FORBIDDEN' }),
    ).toMatchObject({ status: 403, code: 'FORBIDDEN', message: 'no scope', requestId: 'req-1' });
    expect(
      apiErrorOf(response(404), {
        message: 'Short URL not found',
        error: 'Not Found',
        statusCode: 404,
      }),
    ).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'Short URL not found' });
    expect(apiErrorOf(response(502), 'Bad gateway')).toMatchObject({
      status: 502,
      code: 'HTTP_502',
    });
  });

  it('retries a 429 a bounded number of times, and not past the longest wait', async () => {
    const tooMany = (retryAfter: string) =>
      new Response('{}', { status: 429, headers: { 'Retry-After': retryAfter } });
    let calls = 0;
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
    };
    const always429 = retryingFetch(
      async () => {
        calls += 1;
        return tooMany('2');
      },
      { maxRetries: 2, sleep },
    );
    expect((await always429(new Request('http://x.test/'))).status).toBe(429);
    expect([calls, waits]).toEqual([3, [2000, 2000]]);

    calls = 0;
    const tooLong = retryingFetch(
      async () => {
        calls += 1;
        return tooMany('3600');
      },
      { maxDelayMs: 60_000, sleep },
    );
    expect((await tooLong(new Request('http://x.test/'))).status).toBe(429);
    expect(calls).toBe(1);

    // A POST body is sent again in full.
    const bodies: string[] = [];
    const flaky = retryingFetch(
      async (request) => {
        bodies.push(await request.text());
        return bodies.length === 1 ? tooMany('1') : new Response('{}', { status: 201 });
      },
      { sleep },
    );
    const post = new Request('http://x.test/', { method: 'POST', body: '{"a":1}' });
    expect((await flaky(post)).status).toBe(201);
    expect(bodies).toEqual(['{"a":1}', '{"a":1}']);
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', Date.UTC(2026, 0, 1))).toBe(10_000);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
  });
});
