// The response cache of REST GET routes (RESPONSE_CACHE_TTL; docs/decisions.md, "Performance") and
// conditional GETs: an answer is served again for the TTL only to whom it was made for (the key
// and its scopes; partner keys with the same scopes), after the key check; an affiliate's own
// writes show at once; every GET answer carries an ETag, and If-None-Match naming it gets 304.
import { once } from 'node:events';
import { signDashboardToken } from '../src/auth/dashboardToken';
import { config } from '../src/platform/config';
import { prisma } from '../src/platform/db';
import { createRedisClient, type RedisClient } from '../src/platform/redis';
import { registry } from '../src/platform/metrics';
import { callApp, createIsolatedApp, type App, useTestDatabase } from './support/app';
import { createAffiliate, createApiKey, createBrand, createCampaign } from './support/factories';
import { until } from './support/wait';

useTestDatabase();

// Partner keys share entries: each test asks its own question (limits under the maximum, which
// clamps), so it finds only its own entries.
const brandsPage = (limit: number) => `/api/partner/brands?limit=${limit}`;
const BRANDS = brandsPage(20);
const LINKS = '/affiliate/shortener/urls';

const brandNames = (answer: { body: { data: { name: string }[] } }) =>
  answer.body.data.map((brand) => brand.name);

/** Renames a brand as the back office does, behind the service's back. */
const renameInSql = (id: string, name: string) =>
  prisma.$executeRaw`UPDATE "Organization" SET "name" = ${name} WHERE "id" = ${id}::uuid`;

function describeCache(store: string, appWithCache: (ttlSeconds: number) => Promise<App>) {
  describe(`the response cache (${store})`, () => {
    let cached: App;
    beforeAll(async () => {
      cached = await appWithCache(3600);
    });

    test('a repeated GET is answered from the cache: a change made in SQL shows only later', async () => {
      const brand = await createBrand({ name: `Cached ${store}` });
      const { apiKey } = await createApiKey('partner');
      expect(brandNames(await callApp(cached, BRANDS, { key: apiKey }))).toContain(
        `Cached ${store}`,
      );
      await renameInSql(brand.id, `Renamed ${store}`);
      expect(brandNames(await callApp(cached, BRANDS, { key: apiKey }))).toContain(
        `Cached ${store}`,
      );
      const fresh = await appWithCache(0);
      expect(brandNames(await callApp(fresh, BRANDS, { key: apiKey }))).toContain(
        `Renamed ${store}`,
      );
    });

    test('an entry lives for the TTL, then the GET is answered afresh', async () => {
      const shortLived = await appWithCache(1);
      const brand = await createBrand({ name: `Short-lived ${store}` });
      const { apiKey } = await createApiKey('partner');
      expect(brandNames(await callApp(shortLived, brandsPage(19), { key: apiKey }))).toContain(
        `Short-lived ${store}`,
      );
      await renameInSql(brand.id, `Expired ${store}`);
      await until(
        async () =>
          brandNames(await callApp(shortLived, brandsPage(19), { key: apiKey })).includes(
            `Expired ${store}`,
          ),
        'answered afresh',
      );
    });

    test('partner keys with the same scopes share entries; a key without the scope gets 403', async () => {
      const brand = await createBrand({ name: `Shared ${store}` });
      const first = await createApiKey('partner');
      const second = await createApiKey('partner');
      const withoutBrands = await createApiKey('partner', { scopes: ['campaigns:read'] });
      expect((await callApp(cached, brandsPage(18), { key: first.apiKey })).status).toBe(200);
      await renameInSql(brand.id, `Shared renamed ${store}`);
      expect(brandNames(await callApp(cached, brandsPage(18), { key: second.apiKey }))).toContain(
        `Shared ${store}`,
      );
      expect((await callApp(cached, brandsPage(18), { key: withoutBrands.apiKey })).status).toBe(
        403,
      );
    });

    test('a revoked key is refused at once, its answer still cached', async () => {
      const { apiKey, row } = await createApiKey('partner');
      expect((await callApp(cached, BRANDS, { key: apiKey })).status).toBe(200);
      const revoked = await callApp(cached, '/graphql', {
        token: await signDashboardToken(row.ownerId),
        body: {
          query: 'mutation ($id: ID!) { revokeApiKey(id: $id) { id } }',
          variables: { id: row.id },
        },
      });
      expect(revoked.body.errors).toBeUndefined();
      expect((await callApp(cached, BRANDS, { key: apiKey })).status).toBe(401);
    });

    test("a closed account's key is refused at once, its answer still cached", async () => {
      const { apiKey, affiliateId } = await createAffiliate();
      expect((await callApp(cached, LINKS, { key: apiKey })).status).toBe(200);
      // The back office closes the account in SQL; every replica hears of it within moments.
      await prisma.$executeRaw`UPDATE "User" SET "deletedAt" = now() WHERE "id" = ${affiliateId}::uuid`;
      await until(
        async () => (await callApp(cached, LINKS, { key: apiKey })).status === 404,
        'refused',
      );
      expect((await callApp(cached, LINKS, { key: apiKey })).body.message).toBe(
        'Affiliate not found',
      );
    });

    test("an affiliate's answers are its own, and its own writes show at once", async () => {
      const brand = await createBrand({ websiteUrl: 'https://shop.example' });
      const campaign = await createCampaign(brand.id, { offerType: 'Spreadsheet' });
      const mine = await createAffiliate();
      const theirs = await createAffiliate();
      const codes = async (key: string) =>
        (await callApp(cached, LINKS, { key })).body.data.map(
          (link: { urlCode: string }) => link.urlCode,
        );
      expect(await codes(mine.apiKey)).toEqual([]);
      const created = await callApp(cached, '/affiliate/shortener/url', {
        key: mine.apiKey,
        body: { featureId: campaign.id },
      });
      expect(created.status).toBe(201);
      expect(await codes(mine.apiKey)).toEqual([created.body.data.urlCode]);
      expect(await codes(theirs.apiKey)).toEqual([]);
    });
  });
}

describeCache('memory', async (ttlSeconds) =>
  createIsolatedApp({ responseCacheTtlSeconds: ttlSeconds }),
);

const clients: RedisClient[] = [];
afterAll(() => Promise.all(clients.map((client) => client.quit().catch(() => undefined))));

async function redisClient(prefix: string): Promise<RedisClient> {
  const client = createRedisClient(config.redisUrl!, prefix);
  clients.push(client);
  if (client.status !== 'ready') await once(client, 'ready');
  return client;
}

if (config.redisUrl) {
  // One prefix for this file's run: the replicas of a deployment share it.
  const prefix = `cache${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}:`;
  describeCache('Redis', async (ttlSeconds) =>
    createIsolatedApp({ redis: await redisClient(prefix), responseCacheTtlSeconds: ttlSeconds }),
  );

  test('with Redis, a write on one replica shows on the other at once', async () => {
    const [a, b] = [
      createIsolatedApp({ redis: await redisClient(prefix), responseCacheTtlSeconds: 3600 }),
      createIsolatedApp({ redis: await redisClient(prefix), responseCacheTtlSeconds: 3600 }),
    ];
    const brand = await createBrand({ websiteUrl: 'https://replicas.example' });
    const campaign = await createCampaign(brand.id, { offerType: 'Spreadsheet' });
    const { apiKey } = await createAffiliate();
    expect((await callApp(b, LINKS, { key: apiKey })).body.data).toEqual([]);
    const created = await callApp(a, '/affiliate/shortener/url', {
      key: apiKey,
      body: { featureId: campaign.id },
    });
    expect(created.status).toBe(201);
    expect((await callApp(b, LINKS, { key: apiKey })).body.data).toHaveLength(1);
  });

  test('every key the cache writes in Redis expires by itself', async () => {
    const plain = await redisClient('');
    const keys = await plain.keys(`${prefix}response-cache:*`);
    expect(keys.length).toBeGreaterThan(0);
    // -1 is a key without expiry; -2 one that has expired since KEYS listed it.
    for (const key of keys) expect(await plain.pttl(key)).not.toBe(-1);
  });
}

test('cache lookups are counted in the metrics', async () => {
  const { apiKey } = await createApiKey('partner');
  const cached = createIsolatedApp({ responseCacheTtlSeconds: 60 });
  await callApp(cached, BRANDS, { key: apiKey });
  await callApp(cached, BRANDS, { key: apiKey });
  const text = await registry.metrics();
  expect(text).toMatch(/response_cache_lookups_total\{result="hit"\} [1-9]/);
  expect(text).toMatch(/response_cache_lookups_total\{result="miss"\} [1-9]/);
});

describe('conditional GETs', () => {
  const app = createIsolatedApp();
  let key: string;
  beforeAll(async () => {
    ({ apiKey: key } = await createApiKey('partner'));
    await createBrand({ name: 'Tagged' });
  });

  test('a GET answer carries a strong ETag; the same body, the same tag', async () => {
    const first = await callApp(app, BRANDS, { key });
    const second = await callApp(app, BRANDS, { key });
    expect(first.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
  });

  test.each(['GET', 'HEAD'])(
    '%s with If-None-Match naming the tag answers 304 without a body',
    async (method) => {
      const tag = (await callApp(app, BRANDS, { key })).headers.get('etag')!;
      for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
        const response = await app.fetch(`http://api.test${BRANDS}`, {
          method,
          headers: { 'x-api-key': key, 'if-none-match': ifNoneMatch },
        });
        expect(response.status).toBe(304);
        expect(response.headers.get('etag')).toBe(tag);
        expect(response.headers.get('cache-control')).toBe('no-store');
        expect(await response.text()).toBe('');
      }
    },
  );

  test('a changed body gets a new tag and a 200', async () => {
    const tag = (await callApp(app, BRANDS, { key })).headers.get('etag')!;
    await createBrand({ name: 'Tagged later' });
    const changed = await callApp(app, BRANDS, { key, headers: { 'if-none-match': tag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(tag);
  });

  test('errors and POST answers carry no ETag', async () => {
    const missing = await callApp(app, '/api/partner/brands/00000000-0000-4000-8000-000000000000', {
      key,
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('etag')).toBeNull();
    const brand = await createBrand({ websiteUrl: 'https://post.example' });
    const campaign = await createCampaign(brand.id, { offerType: 'Spreadsheet' });
    const { apiKey } = await createAffiliate();
    const created = await callApp(app, '/affiliate/shortener/url', {
      key: apiKey,
      body: { featureId: campaign.id },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBeNull();
  });
});
