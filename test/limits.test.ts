// Limits (docs/decisions.md, "Limits"): the request quota per (API key, client IP) on every
// route, REST and GraphQL alike, across replicas sharing Redis; the failed-authentication limit;
// Redis failures; the payload limit; the request deadline; legacy-host headers.
import { once } from 'node:events';
import { createApp, type AppOptions } from '../src/app';
import { MAX_BODY_BYTES } from '../src/limits/bodyLimit';
import { signDashboardToken } from '../src/auth/dashboardToken';
import { generateApiKey } from '../src/auth/keyFormat';
import { config } from '../src/platform/config';
import { isEmbeddedDatabase, prisma, withSqlConnection } from '../src/platform/db';
import type { EdgeSettings } from '../src/http/edge';
import { createRedisClient, type RedisClient } from '../src/platform/redis';
import { logger } from '../src/platform/logger';
import { FAILED_AUTH_LIMIT } from '../src/limits/requestQuota';
import { proxyRange, TrustedProxies } from '../src/platform/trustProxy';
import { expectError, listen, useTestDatabase } from './support/app';
import { holdLock, untilWaitingFor, type HeldLock } from './support/locks';
import { startReplica, type Replica } from './support/replica';
import { createApiKey, createUser } from './support/factories';
import { until } from './support/wait';

useTestDatabase();

type App = ReturnType<typeof createApp>;

/** TRUST_PROXY as a comma list of addresses and ranges. */
const trustedProxies = (list: string) =>
  new TrustedProxies(list.split(',').map((range) => proxyRange(range)!));

const QUOTA_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'ratelimit',
  'ratelimit-policy',
];

/** Apps made here get Redis only when a test asks for it, so quota windows never collide. */
function appWith(settings: Partial<EdgeSettings> = {}, redis: RedisClient | null = null): App {
  const options: AppOptions = {
    settings: { max: 60, windowSeconds: 60, trustProxy: 1, ...settings },
    redis,
  };
  return createApp(options);
}

interface HitOptions {
  key?: string;
  ip?: string;
  method?: string;
  host?: string;
  headers?: Record<string, string>;
  body?: BodyInit;
}

async function hit(app: App, path: string, options: HitOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['x-api-key'] = options.key;
  if (options.ip) headers['x-forwarded-for'] = options.ip;
  const response = await app.fetch(`http://${options.host ?? 'api.test'}${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body,
    ...(options.body instanceof ReadableStream && { duplex: 'half' }),
  } as RequestInit);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : null,
  };
}

function graphqlBody(query: string): string {
  return JSON.stringify({ query });
}

const gql = (app: App, query: string, options: HitOptions = {}) =>
  hit(app, '/graphql', {
    ...options,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body: graphqlBody(query),
  });

const ORGANIZATIONS = '/api/partner/organizations';
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('request quota headers', () => {
  const app = appWith();

  function expectQuotaHeaders(headers: Headers, remaining: number) {
    expect(headers.get('x-ratelimit-limit')).toBe('60');
    expect(headers.get('x-ratelimit-remaining')).toBe(String(remaining));
    const reset = Number(headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(nowSeconds());
    expect(reset).toBeLessThanOrEqual(nowSeconds() + 61);
    expect(headers.get('ratelimit-policy')).toBe('"requests";q=60;w=60');
    expect(headers.get('ratelimit')).toMatch(new RegExp(`^"requests";r=${remaining};t=\\d+$`));
  }

  test('every answer to a keyed request carries them: 200, 400, 403, 404, REST and GraphQL', async () => {
    const { apiKey } = await createApiKey('partner', { scopes: ['organizations:read'] });
    const ip = '198.51.100.1';
    const answers = [
      await hit(app, ORGANIZATIONS, { key: apiKey, ip }),
      await hit(app, `${ORGANIZATIONS}?limit=abc`, { key: apiKey, ip }),
      await hit(app, '/api/partner/brands', { key: apiKey, ip }),
      await hit(app, `/api/partner/organizations/nope`, { key: apiKey, ip }),
      await gql(app, '{ partnerOrganizations { meta { total } } }', { key: apiKey, ip }),
      await gql(app, '{ partnerBrands { meta { total } } }', { key: apiKey, ip }),
      await gql(app, '{ nope }', { key: apiKey, ip }),
    ];
    // GraphQL answers its errors at 200 (with application/json), REST with the status.
    expect(answers.map((answer) => answer.status)).toEqual([200, 400, 403, 404, 200, 200, 200]);
    expect(answers[5]!.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(answers[6]!.body.errors[0].message).toMatch(/nope/);
    answers.forEach((answer, index) => expectQuotaHeaders(answer.headers, 59 - index));
  });

  test('a key that fails verification carries the failed-authentication budget of its address', async () => {
    const ip = '198.51.100.2';
    const unknownKeys = [generateApiKey('test').apiKey, generateApiKey('test').apiKey];
    for (const [n, key] of unknownKeys.entries()) {
      const { status, headers } = await hit(app, ORGANIZATIONS, { key, ip });
      expect(status).toBe(401);
      expect(headers.get('x-ratelimit-limit')).toBe('30');
      expect(headers.get('ratelimit-policy')).toBe('"failed-auth";q=30;w=60');
      expect(headers.get('x-ratelimit-remaining')).toBe(String(29 - n));
    }
    // A malformed key is refused before any lookup, and says so in the same fields.
    const malformed = await hit(app, ORGANIZATIONS, { key: 'not-a-key', ip });
    expect(malformed.status).toBe(401);
    expect(malformed.headers.get('ratelimit-policy')).toBe('"failed-auth";q=30;w=60');
  });

  test('the 61st request in a window is a 429 with Retry-After in 1..60', async () => {
    const { apiKey } = await createApiKey('partner');
    const ip = '198.51.100.3';
    for (let n = 1; n <= 60; n += 1) {
      const path = n % 2 ? ORGANIZATIONS : '/graphql';
      const { status } =
        path === '/graphql'
          ? await gql(app, '{ partnerOrganizations { meta { total } } }', { key: apiKey, ip })
          : await hit(app, path, { key: apiKey, ip });
      expect(status).toBe(200);
    }
    for (const answer of [
      await hit(app, ORGANIZATIONS, { key: apiKey, ip }),
      await gql(app, '{ partnerOrganizations { meta { total } } }', { key: apiKey, ip }),
    ]) {
      expectError(answer, 'TOO_MANY_REQUESTS');
      const retryAfter = Number(answer.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expectQuotaHeaders(answer.headers, 0);
    }
  });
});

describe('callers without a key', () => {
  test('requests without a credential count against their client address, REST and GraphQL alike', async () => {
    const app = appWith({ max: 3 });
    const ip = '198.51.100.20';
    const answers = [
      await hit(app, ORGANIZATIONS, { ip }),
      await gql(app, '{ __typename }', { ip }),
      await hit(app, '/api/partner/nowhere', { ip }),
      await gql(app, '{ __typename }', { ip }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([401, 200, 404, 429]);
    expect(answers[0]!.headers.get('ratelimit-policy')).toBe('"anonymous";q=3;w=60');
    expect(answers[2]!.headers.get('x-ratelimit-remaining')).toBe('0');
    expectError(answers[3]!, 'TOO_MANY_REQUESTS');
    expect(Number(answers[3]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another address has its own budget.
    expect((await gql(app, '{ __typename }', { ip: '198.51.100.21' })).status).toBe(200);
  });

  test('the probes, the API reference and the redirect are public: not counted, no quota headers', async () => {
    const app = appWith({ max: 1 });
    const ip = '198.51.100.25';
    for (const path of [
      '/healthz',
      '/readyz',
      '/openapi.json',
      '/docs',
      '/s/Nope0000',
      '/healthz',
    ]) {
      const { headers } = await app.fetch(`http://api.test${path}`, {
        headers: { 'x-forwarded-for': ip },
      });
      for (const name of QUOTA_HEADERS) expect(headers.get(name)).toBeNull();
    }
    expect((await gql(app, '{ __typename }', { ip })).status).toBe(200);
  });

  test('a dashboard user counts per user (the token subject), from any address', async () => {
    const app = appWith({ max: 3 });
    const [ana, ben] = [await createUser(), await createUser()];
    const listKeys = async (userId: string, ip: string) =>
      gql(app, '{ listApiKeys { id } }', {
        ip,
        headers: { 'x-api-token': await signDashboardToken(userId) },
      });
    const statuses = [];
    for (const ip of ['198.51.100.30', '198.51.100.31', '198.51.100.32', '198.51.100.33']) {
      statuses.push((await listKeys(ana.id, ip)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const other = await listKeys(ben.id, '198.51.100.30');
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-policy')).toBe('"dashboard";q=3;w=60');
    expect(other.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  test('100 anonymous and 100 dashboard requests meet their 429s', async () => {
    const app = appWith();
    const user = await createUser();
    const token = await signDashboardToken(user.id);
    const anonymous = [];
    const dashboard = [];
    for (let n = 0; n < 100; n += 1) {
      anonymous.push((await gql(app, '{ __typename }', { ip: '198.51.100.40' })).status);
      dashboard.push(
        (await gql(app, '{ listApiKeys { id } }', { headers: { 'x-api-token': token } })).status,
      );
    }
    expect(anonymous.filter((status) => status === 429)).toHaveLength(40);
    expect(dashboard.filter((status) => status === 429)).toHaveLength(40);
  });
});

describe('what is counted', () => {
  test('one GraphQL request counts once, whatever its aliases', async () => {
    const app = appWith({ max: 2 });
    const { apiKey } = await createApiKey('partner');
    const aliased = `{ ${Array.from({ length: 5 }, (_, n) => `a${n}: partnerOrganizations { meta { total } }`).join(' ')} }`;
    const first = await gql(app, aliased, { key: apiKey });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body.data)).toHaveLength(5);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await gql(app, aliased, { key: apiKey })).status).toBe(200);
    expect((await gql(app, aliased, { key: apiKey })).status).toBe(429);
  });

  test('client IPs are counted apart (X-Forwarded-For behind a trusted proxy)', async () => {
    const app = appWith({ max: 2 });
    const { apiKey } = await createApiKey('partner');
    for (const ip of ['203.0.113.1', '203.0.113.1']) {
      expect((await hit(app, ORGANIZATIONS, { key: apiKey, ip })).status).toBe(200);
    }
    expect((await hit(app, ORGANIZATIONS, { key: apiKey, ip: '203.0.113.1' })).status).toBe(429);
    const other = await hit(app, ORGANIZATIONS, { key: apiKey, ip: '203.0.113.2' });
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('1');
    // The proxy appends the address it saw: the right-most entry counts.
    const forwarded = await hit(app, ORGANIZATIONS, {
      key: apiKey,
      ip: '203.0.113.9, 203.0.113.1',
    });
    expect(forwarded.status).toBe(429);
  });

  test('without TRUST_PROXY, X-Forwarded-For is ignored', async () => {
    const app = appWith({ max: 2, trustProxy: 0 });
    const { apiKey } = await createApiKey('partner');
    const statuses = [];
    for (const ip of ['203.0.113.10', '203.0.113.11', '203.0.113.12']) {
      statuses.push((await hit(app, ORGANIZATIONS, { key: apiKey, ip })).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  test('behind two proxies (TRUST_PROXY=2), the address the outer one saw counts, whatever the client wrote', async () => {
    const app = appWith({ max: 1, trustProxy: 2 });
    const { apiKey } = await createApiKey('partner');
    const client = (written: string) =>
      hit(app, ORGANIZATIONS, { key: apiKey, ip: `${written}, 203.0.113.30, 10.0.0.7` });
    expect((await client('192.0.2.1')).status).toBe(200);
    expect((await client('192.0.2.2')).status).toBe(429);
  });

  test("with the proxies' addresses (TRUST_PROXY=127.0.0.1), X-Forwarded-For counts only from them", async () => {
    const { apiKey } = await createApiKey('partner');
    const statusesFrom = async (proxies: string, ips: string[]) => {
      const server = await listen(appWith({ max: 1, trustProxy: trustedProxies(proxies) }));
      try {
        const statuses = [];
        for (const ip of ips) {
          const response = await fetch(`${server.base}${ORGANIZATIONS}`, {
            headers: { 'x-api-key': apiKey, 'x-forwarded-for': ip },
          });
          await response.arrayBuffer();
          statuses.push(response.status);
        }
        return statuses;
      } finally {
        await server.close();
      }
    };
    // The socket's peer is the loopback: through the proxy, each forwarded address is a client.
    expect(await statusesFrom('127.0.0.0/8', ['203.0.113.40', '203.0.113.41'])).toEqual([200, 200]);
    // From an address that is no proxy, the header is believed in nothing: one client.
    expect(await statusesFrom('192.0.2.1', ['203.0.113.42', '203.0.113.43'])).toEqual([200, 429]);
  });

  test('an IPv6 client counts by its /64: new addresses in it get no new quota', async () => {
    const app = appWith({ max: 2 });
    const { apiKey } = await createApiKey('partner');
    const statuses = [];
    for (const ip of [
      '2001:db8:1:2::1',
      '2001:db8:1:2::2',
      '2001:db8:1:2:ffff::3',
      '2001:db8:1:3::1',
    ]) {
      statuses.push((await hit(app, ORGANIZATIONS, { key: apiKey, ip })).status);
    }
    expect(statuses).toEqual([200, 200, 429, 200]);
  });

  test('forwarded values that are not addresses make no buckets of their own', async () => {
    const app = appWith({ max: 2 });
    const { apiKey } = await createApiKey('partner');
    const statuses = [];
    for (const ip of ['junk-1', 'x'.repeat(3000), 'junk-3']) {
      statuses.push((await hit(app, ORGANIZATIONS, { key: apiKey, ip })).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  test('keys are counted apart', async () => {
    const app = appWith({ max: 1 });
    const first = await createApiKey('partner');
    const second = await createApiKey('partner');
    expect((await hit(app, ORGANIZATIONS, { key: first.apiKey })).status).toBe(200);
    expect((await hit(app, ORGANIZATIONS, { key: first.apiKey })).status).toBe(429);
    expect((await hit(app, ORGANIZATIONS, { key: second.apiKey })).status).toBe(200);
  });

  test('failed authentications are limited per IP, so keys cannot be guessed fast', async () => {
    const app = appWith({ failedAuthMax: 3 });
    const { apiKey } = await createApiKey('partner');
    const ip = '192.0.2.50';
    const guesses = [];
    for (let n = 0; n < 4; n += 1) {
      guesses.push(await hit(app, ORGANIZATIONS, { key: `guess-${n}`, ip }));
    }
    expect(guesses.map((guess) => guess.status)).toEqual([401, 401, 401, 429]);
    expectError(
      guesses[3]!,
      'TOO_MANY_REQUESTS',
      expect.stringMatching(
        /^Too many failed authentications from this address: its requests are refused for \d+ s, even with a valid key$/,
      ),
    );
    expect(Number(guesses[3]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // From that IP even a valid key waits (a guess that hit would look the same); elsewhere not.
    expect((await hit(app, ORGANIZATIONS, { key: apiKey, ip })).status).toBe(429);
    expect((await hit(app, ORGANIZATIONS, { key: apiKey, ip: '192.0.2.51' })).status).toBe(200);
  });

  test('failed dashboard authentications are limited per IP too', async () => {
    const app = appWith({ failedAuthMax: 3 });
    const token = await signDashboardToken((await createUser()).id);
    const ip = '192.0.2.70';
    const listKeys = (headers: Record<string, string>, from = ip) =>
      hit(app, '/graphql', {
        ip: from,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ listApiKeys { id } }' }),
      });
    const attempts = [];
    for (let n = 0; n < 4; n += 1) attempts.push(await listKeys({ 'x-api-token': `forged.${n}` }));
    expect(attempts.map((attempt) => attempt.status)).toEqual([200, 200, 200, 429]);
    expect(attempts[0]!.body.errors[0].extensions.code).toBe('UNAUTHORIZED');
    expect(attempts[3]!.body.code).toBe('TOO_MANY_REQUESTS');
    // The valid token waits as well from that IP; from another it is answered.
    expect((await listKeys({ 'x-api-token': token })).status).toBe(429);
    const elsewhere = await listKeys({ 'x-api-token': token }, '192.0.2.71');
    expect(elsewhere.body).toEqual({ data: { listApiKeys: [] } });
  });

  test("a dashboard token beside a key does not lift the key's quota; its user is charged too", async () => {
    const app = appWith({ max: 3 });
    const token = await signDashboardToken((await createUser()).id);
    const { apiKey } = await createApiKey('affiliate');
    const ip = '192.0.2.92';
    const statuses = [];
    for (let n = 0; n < 3; n += 1) {
      statuses.push(
        (await gql(app, '{ affiliateChannels { count } }', { key: apiKey, ip })).status,
      );
    }
    const withToken = await gql(app, '{ affiliateChannels { count } }', {
      key: apiKey,
      ip,
      headers: { 'x-api-token': token },
    });
    expect([...statuses, withToken.status]).toEqual([200, 200, 200, 429]);
    expect(withToken.headers.get('ratelimit-policy')).toBe('"requests";q=3;w=60');
    // The refused request counted against the user as well: this is the user's second.
    const tokenAlone = await gql(app, '{ listApiKeys { id } }', {
      headers: { 'x-api-token': token },
    });
    expect(tokenAlone.status).toBe(200);
    expect(tokenAlone.headers.get('ratelimit-policy')).toBe('"dashboard";q=3;w=60');
    expect(tokenAlone.headers.get('x-ratelimit-remaining')).toBe('1');
  });

  test("keys beside a dashboard token do not lift its user's quota: every key and address spends it", async () => {
    const app = appWith({ max: 3 });
    const token = await signDashboardToken((await createUser()).id);
    const answers = [];
    for (const n of [0, 1, 2, 3]) {
      const { apiKey } = await createApiKey('affiliate');
      answers.push(
        await gql(app, '{ listApiKeys { id } }', {
          key: apiKey,
          ip: `198.51.100.${80 + n}`,
          headers: { 'x-api-token': token },
        }),
      );
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    // Each answer names the tighter budget: the key's while they tie, then the user's.
    expect(answers.map((answer) => answer.headers.get('ratelimit'))).toEqual([
      expect.stringMatching(/^"requests";r=2;/),
      expect.stringMatching(/^"dashboard";r=1;/),
      expect.stringMatching(/^"dashboard";r=0;/),
      expect.stringMatching(/^"dashboard";r=0;/),
    ]);
  });

  test('a forged dashboard token beside a valid key counts as a failed authentication', async () => {
    const app = appWith({ failedAuthMax: 3 });
    const { apiKey } = await createApiKey('affiliate');
    const ip = '192.0.2.90';
    const statuses = [];
    for (let n = 0; n < 4; n += 1) {
      const answer = await gql(app, '{ affiliateChannels { count } }', {
        key: apiKey,
        ip,
        headers: { 'x-api-token': `forged.${n}` },
      });
      statuses.push(answer.status);
      expect(answer.headers.get('ratelimit-policy')).toBe('"failed-auth";q=3;w=60');
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  test('an invalid key beside a valid dashboard token counts as a failed authentication', async () => {
    const app = appWith({ failedAuthMax: 2 });
    const token = await signDashboardToken((await createUser()).id);
    const ip = '192.0.2.91';
    const statuses = [];
    for (const key of ['not-a-key', generateApiKey('test').apiKey, 'not-a-key-either']) {
      const headers = { 'x-api-token': token };
      statuses.push((await gql(app, '{ listApiKeys { id } }', { key, ip, headers })).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  test('a key verified a moment ago waits too from an IP out of failures, and is not charged', async () => {
    const app = appWith({ failedAuthMax: 2, failedAuthWindowSeconds: 1 });
    const { apiKey } = await createApiKey('partner');
    const ip = '192.0.2.60';
    const first = await hit(app, ORGANIZATIONS, { key: apiKey, ip });
    expect(first.headers.get('x-ratelimit-remaining')).toBe('59');
    // Well-formed keys nobody has: each one is looked up and fails.
    const guesses = [];
    for (let n = 0; n < 3; n += 1) {
      guesses.push(await hit(app, ORGANIZATIONS, { key: generateApiKey('test').apiKey, ip }));
    }
    expect(guesses.map((guess) => guess.status)).toEqual([401, 401, 429]);
    expect((await hit(app, ORGANIZATIONS, { key: apiKey, ip })).status).toBe(429);

    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const afterTheWindow = await hit(app, ORGANIZATIONS, { key: apiKey, ip });
    expect(afterTheWindow.status).toBe(200);
    // The refused request was given back: this is the key's second counted request from the IP.
    expect(afterTheWindow.headers.get('x-ratelimit-remaining')).toBe('58');
  });
});

const withRedis = config.redisUrl ? describe : describe.skip;

withRedis('two replicas sharing Redis', () => {
  const clients: RedisClient[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.quit().catch(() => undefined)));
  });

  async function replica(settings: Partial<EdgeSettings> = {}): Promise<App> {
    const client = createRedisClient(config.redisUrl!);
    clients.push(client);
    if (client.status !== 'ready') await once(client, 'ready');
    return appWith(settings, client);
  }

  test('a burst of 200 concurrent requests with one key and IP admits exactly 60', async () => {
    const [a, b] = [await replica(), await replica()];
    const { apiKey } = await createApiKey('partner');
    const ip = `10.${Math.floor(Math.random() * 250)}.0.1`;
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, n) =>
        n % 3 === 0
          ? gql(n % 2 ? a : b, '{ partnerOrganizations { meta { total } } }', { key: apiKey, ip })
          : hit(n % 2 ? a : b, ORGANIZATIONS, { key: apiKey, ip }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(60);
    expect(statuses.filter((status) => status === 429)).toHaveLength(140);
    // The window comes from Redis, so both replicas announce the same reset (to the second).
    const resets = new Set(
      answers.map((answer) => Number(answer.headers.get('x-ratelimit-reset'))),
    );
    expect(Math.max(...resets) - Math.min(...resets)).toBeLessThanOrEqual(1);
  });

  test('a dashboard user and an anonymous address have one budget across replicas', async () => {
    const [a, b] = [await replica({ max: 4 }), await replica({ max: 4 })];
    const token = await signDashboardToken((await createUser()).id);
    const ip = `10.${Math.floor(Math.random() * 250)}.0.3`;
    const dashboard = [];
    const anonymous = [];
    for (let n = 0; n < 6; n += 1) {
      const app = n % 2 ? a : b;
      dashboard.push(
        (await gql(app, '{ listApiKeys { id } }', { headers: { 'x-api-token': token } })).status,
      );
      anonymous.push((await gql(app, '{ __typename }', { ip })).status);
    }
    expect(dashboard).toEqual([200, 200, 200, 200, 429, 429]);
    expect(anonymous).toEqual([200, 200, 200, 200, 429, 429]);
  });

  test("a dashboard token beside a key does not lift the key's quota across replicas", async () => {
    const [a, b] = [await replica({ max: 3 }), await replica({ max: 3 })];
    const token = await signDashboardToken((await createUser()).id);
    const { apiKey } = await createApiKey('affiliate');
    const ip = `10.${Math.floor(Math.random() * 250)}.0.5`;
    const statuses = [];
    for (let n = 0; n < 3; n += 1) {
      const app = n % 2 ? a : b;
      statuses.push(
        (await gql(app, '{ affiliateChannels { count } }', { key: apiKey, ip })).status,
      );
    }
    const withToken = await gql(a, '{ affiliateChannels { count } }', {
      key: apiKey,
      ip,
      headers: { 'x-api-token': token },
    });
    expect([...statuses, withToken.status]).toEqual([200, 200, 200, 429]);
    expect(withToken.headers.get('ratelimit-policy')).toBe('"requests";q=3;w=60');
    const tokenAlone = await gql(b, '{ listApiKeys { id } }', {
      headers: { 'x-api-token': token },
    });
    expect(tokenAlone.headers.get('x-ratelimit-remaining')).toBe('1');
  });

  test('malformed keys count against one failure budget across replicas', async () => {
    const [a, b] = [await replica({ failedAuthMax: 3 }), await replica({ failedAuthMax: 3 })];
    const ip = `10.${Math.floor(Math.random() * 250)}.0.4`;
    const statuses = [];
    for (let n = 0; n < 4; n += 1) {
      statuses.push(
        (await hit(n % 2 ? a : b, ORGANIZATIONS, { key: `malformed-${n}`, ip })).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  test('a key-management mutation runs at most 10 times a minute per user across replicas', async () => {
    const [a, b] = [await replica(), await replica()];
    const token = await signDashboardToken((await createUser('PARTNER')).id);
    const create = (app: App) =>
      gql(app, 'mutation { revokeApiKey(id: "00000000-0000-4000-8000-000000000000") { id } }', {
        headers: { 'x-api-token': token },
      });
    const codes = [];
    for (let n = 0; n < 12; n += 1) {
      const { body } = await create(n % 2 ? a : b);
      codes.push(body.errors?.[0]?.extensions?.code);
    }
    // Ten calls reach the mutation (an unknown key: NOT_FOUND); the eleventh and twelfth do not.
    expect(codes).toEqual([
      ...Array(10).fill('NOT_FOUND'),
      'TOO_MANY_REQUESTS',
      'TOO_MANY_REQUESTS',
    ]);
  });
});

withRedis('two deployments on one Redis, each with its own REDIS_KEY_PREFIX', () => {
  const clients: RedisClient[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.quit().catch(() => undefined)));
  });

  async function deployment(prefix: string): Promise<App> {
    const client = createRedisClient(config.redisUrl!, prefix);
    clients.push(client);
    if (client.status !== 'ready') await once(client, 'ready');
    return appWith({ max: 2 }, client);
  }

  test('count apart, under keys that carry the prefix', async () => {
    const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
    const [a, b] = [await deployment(`a${run}:`), await deployment(`b${run}:`)];
    const { apiKey } = await createApiKey('partner');
    const ip = `10.${Math.floor(Math.random() * 250)}.0.2`;
    const statusesOf = async (app: App) => {
      const statuses = [];
      for (let n = 0; n < 3; n += 1)
        statuses.push((await hit(app, ORGANIZATIONS, { key: apiKey, ip })).status);
      return statuses;
    };
    expect(await statusesOf(a)).toEqual([200, 200, 429]);
    expect(await statusesOf(b)).toEqual([200, 200, 429]);

    const plain = createRedisClient(config.redisUrl!, '');
    clients.push(plain);
    if (plain.status !== 'ready') await once(plain, 'ready');
    for (const prefix of [`a${run}:`, `b${run}:`]) {
      expect(await plain.keys(`${prefix}*`)).not.toHaveLength(0);
    }
  });
});

withRedis('test files on one Redis', () => {
  /** The REDIS_KEY_PREFIX another test file runs with (test/support/env.ts, run again). */
  function anotherTestFilesPrefix(): string {
    const saved = { ...process.env };
    jest.isolateModules(() => require('./support/env'));
    const prefix = process.env.REDIS_KEY_PREFIX ?? '';
    process.env = saved;
    return prefix;
  }

  test("another file's failed authentications from the same address never limit this file's requests", async () => {
    const clients = [
      createRedisClient(config.redisUrl!),
      createRedisClient(config.redisUrl!, anotherTestFilesPrefix()),
    ];
    try {
      await Promise.all(clients.map((client) => once(client, 'ready')));
      const [thisFile, otherFile] = clients.map((client) => createApp({ redis: client }));
      // Every request of app.fetch comes from one address: the other file uses up its failures.
      const guesses = [];
      for (let n = 0; n <= FAILED_AUTH_LIMIT.max; n += 1) {
        guesses.push((await hit(otherFile!, ORGANIZATIONS, { key: `malformed-${n}` })).status);
      }
      expect(guesses.at(-1)).toBe(429);
      const { apiKey } = await createApiKey('partner');
      expect((await hit(thisFile!, ORGANIZATIONS, { key: apiKey })).status).toBe(200);
    } finally {
      await Promise.all(clients.map((client) => client.quit()));
    }
  });
});

describe('Redis unreachable', () => {
  const clients: RedisClient[] = [];
  afterAll(() => clients.forEach((client) => client.disconnect()));

  function unreachableReplica(settings: Partial<EdgeSettings>): App {
    // Nothing listens there: every command fails at once (no offline queue).
    const client = createRedisClient('redis://127.0.0.1:6390');
    clients.push(client);
    return appWith(settings, client);
  }

  test('each replica keeps answering, limiting in its own memory, and logs the outage once', async () => {
    const warn = jest.spyOn(logger, 'warn');
    const [a, b] = [unreachableReplica({ max: 3 }), unreachableReplica({ max: 3 })];
    const { apiKey } = await createApiKey('partner');
    for (const app of [a, b]) {
      const statuses = [];
      for (let n = 0; n < 4; n += 1) {
        const started = Date.now();
        statuses.push((await hit(app, ORGANIZATIONS, { key: apiKey })).status);
        expect(Date.now() - started).toBeLessThan(1_000);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    }
    const outageLogs = warn.mock.calls.filter(([, message]) =>
      String(message).startsWith('Redis unreachable'),
    );
    // One per limiter per replica (the request quota and the failed-authentication limit).
    expect(outageLogs.length).toBeLessThanOrEqual(4);
    expect(outageLogs.length).toBeGreaterThanOrEqual(2);
    warn.mockRestore();
  });
});

describe('payload limit', () => {
  const app = appWith();
  const oversized = () =>
    `{"query":"{ __typename }","extensions":{"pad":"${'x'.repeat(MAX_BODY_BYTES)}"}}`;

  test('a declared Content-Length over 1 MB is refused unread with 413', async () => {
    const { apiKey } = await createApiKey('partner');
    const body = oversized();
    for (const path of ['/graphql', '/affiliate/shortener/url', ORGANIZATIONS]) {
      const answer = await hit(app, path, {
        key: apiKey,
        headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
        body,
      });
      expectError(answer, 'PAYLOAD_TOO_LARGE');
      expect(answer.headers.get('x-ratelimit-limit')).toBe('60');
    }
  });

  test('a chunked body without Content-Length is cut off at 1 MB + 1 byte', async () => {
    const { apiKey } = await createApiKey('partner');
    const exactly = (size: number) => {
      const text = `{"query":"{ __typename }","extensions":{"pad":"`;
      const tail = `"}}`;
      return text + 'x'.repeat(size - text.length - tail.length) + tail;
    };
    const chunked = (text: string) => {
      const bytes = new TextEncoder().encode(text);
      let offset = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (offset >= bytes.length) return controller.close();
          controller.enqueue(bytes.subarray(offset, offset + 64 * 1024));
          offset += 64 * 1024;
        },
      });
    };
    const over = await hit(app, '/graphql', {
      key: apiKey,
      headers: { 'content-type': 'application/json' },
      body: chunked(exactly(MAX_BODY_BYTES + 1)),
    });
    expect(over.status).toBe(413);
    expect(over.body.code).toBe('PAYLOAD_TOO_LARGE');

    const atTheLimit = await hit(app, '/graphql', {
      key: apiKey,
      headers: { 'content-type': 'application/json' },
      body: chunked(exactly(MAX_BODY_BYTES)),
    });
    expect(atTheLimit.status).toBe(200);
    expect(atTheLimit.body.data).toEqual({ __typename: 'Query' });
  });

  test("a Request built in-process (Node's own body stream) is read and counted like any other", async () => {
    const { apiKey } = await createApiKey('partner');
    const request = (body: string) =>
      new Request('http://api.test/graphql', {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body,
      });
    const answer = await app.fetch(request(graphqlBody('{ __typename }')));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ data: { __typename: 'Query' } });

    const over = await app.fetch(request(oversized()));
    expect(over.status).toBe(413);
    expect((await over.json()).code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('request deadline', () => {
  /** Makes the organizations query wait on the database until released. */
  async function holdDatabase(): Promise<() => Promise<void>> {
    if (isEmbeddedDatabase) {
      // PGlite runs in this thread (a pg_sleep would stop the clock too), so the wait is made
      // in front of its client instead: the organizations query runs only once released.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const delegate = prisma.organization;
      const findMany = delegate.findMany.bind(delegate);
      const spy = jest
        .spyOn(delegate, 'findMany')
        .mockImplementation(((args: never) => released.then(() => findMany(args))) as never);
      return async () => {
        release();
        spy.mockRestore();
      };
    }
    // Keys still verify; the organizations query waits for the lock in PostgreSQL.
    const lock = await holdLock('LOCK TABLE "Organization" IN ACCESS EXCLUSIVE MODE');
    return () => lock.release();
  }

  test('a request still running at the deadline is answered 504 REQUEST_TIMEOUT at once', async () => {
    const app = appWith({ requestTimeoutMs: 200 });
    const { apiKey } = await createApiKey('partner');
    const release = await holdDatabase();
    try {
      const started = Date.now();
      const answer = await hit(app, ORGANIZATIONS, {
        key: apiKey,
        headers: { 'x-request-id': 'slow-1' },
      });
      const elapsed = Date.now() - started;
      expect(answer.status).toBe(504);
      expect(answer.body).toEqual({
        success: false,
        code: 'REQUEST_TIMEOUT',
        message: expect.any(String),
        requestId: 'slow-1',
      });
      expect(elapsed).toBeGreaterThanOrEqual(190);
      expect(elapsed).toBeLessThan(1_000);
    } finally {
      await release();
    }
    // The service is unharmed afterwards.
    expect((await hit(app, ORGANIZATIONS, { key: apiKey })).status).toBe(200);
  });
});

// PostgreSQL cancels a statement at the request deadline (statement_timeout, from the process's
// REQUEST_TIMEOUT_MS): a replica of its own, on this file's schema, with a deadline of 2 s.
(isEmbeddedDatabase ? describe.skip : describe)('a list total shared by two requests', () => {
  const DEADLINE_MS = 2_000;
  let replica: Replica;
  beforeAll(async () => {
    replica = await startReplica(
      {
        DATABASE_URL: config.databaseUrl!,
        DATABASE_SCHEMA: config.databaseSchema,
        REQUEST_TIMEOUT_MS: String(DEADLINE_MS),
      },
      'src/server.ts',
    );
  }, 60_000);
  afterAll(() => replica?.process.kill('SIGKILL'));

  /** The statements waiting for `lock`: their server processes and their text. */
  const waitersFor = (lock: HeldLock) =>
    withSqlConnection((connection) =>
      connection.query<{ pid: number; query: string }>(
        'SELECT pid, query FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
        [lock.pid],
      ),
    );

  /**
   * The first request for the orders waits on the locked Order table; half a deadline later the
   * second asks for its page 2, sharing the first's count, which PostgreSQL cancels at the first's
   * deadline. Answers the lock, the first's statements and both answers (as promises).
   */
  async function secondJoinsFirst() {
    const { apiKey } = await createApiKey('affiliate');
    const list = async (query: string) => {
      const response = await fetch(`${replica.base}/affiliate/orders${query}`, {
        headers: { 'x-api-key': apiKey },
      });
      return { status: response.status, body: await response.json() };
    };
    // The key is verified, and remembered, before the table is locked.
    expect((await list('')).status).toBe(200);
    const orders = await holdLock('LOCK TABLE "Order" IN ACCESS EXCLUSIVE MODE');
    const first = list('');
    await untilWaitingFor(orders, 2); // its page and its count
    const firstStatements = new Set((await waitersFor(orders)).map(({ pid }) => pid));
    await new Promise((resolve) => setTimeout(resolve, DEADLINE_MS / 2));
    const second = list('?page=2');
    await untilWaitingFor(orders, 3); // and the second's page
    return { orders, firstStatements, first, second };
  }

  test('the first meets its deadline (504); the second counts again under its own and gets its 200, never a 500', async () => {
    const { orders, firstStatements, first, second } = await secondJoinsFirst();
    let secondAnswered = false;
    void second.finally(() => (secondAnswered = true));
    expect((await first).status).toBe(504);
    // The first's statements are cancelled at its deadline; the second counts on its own.
    const secondCounts = async () =>
      (await waitersFor(orders)).filter(
        ({ pid, query }) => !firstStatements.has(pid) && /count\(/i.test(query),
      ).length;
    await until(
      async () => secondAnswered || (await secondCounts()) === 1,
      "the second's own count",
    );
    await orders.release();
    const { status, body } = await second;
    expect(status).toBe(200);
    expect(body.meta).toMatchObject({ page: 2, total: 0 });
  });

  test('with the table still locked at its own deadline, the second gets its own 504, never a 500', async () => {
    const { orders, first, second } = await secondJoinsFirst();
    try {
      expect((await first).status).toBe(504);
      expect((await second).status).toBe(504);
    } finally {
      await orders.release();
    }
  });
});

describe('legacy host', () => {
  const app = appWith({ legacyHosts: ['beta.api.test'], publicBaseUrl: 'https://api.test' });

  test('answers identically and announces its retirement', async () => {
    const { apiKey } = await createApiKey('partner');
    const legacy = await hit(app, ORGANIZATIONS, { key: apiKey, host: 'beta.api.test' });
    const current = await hit(app, ORGANIZATIONS, { key: apiKey, host: 'api.test' });
    expect(legacy.status).toBe(200);
    expect(legacy.body).toEqual(current.body);
    expect(legacy.headers.get('deprecation')).toBe('true');
    expect(legacy.headers.get('sunset')).toBe(config.legacySunset.toUTCString());
    expect(legacy.headers.get('link')).toBe('<https://api.test>; rel="successor-version"');
    expect(current.headers.get('deprecation')).toBeNull();
    expect(current.headers.get('sunset')).toBeNull();
  });

  test('errors on the legacy host carry the headers too', async () => {
    const legacy = await hit(app, ORGANIZATIONS, { host: 'beta.api.test' });
    expect(legacy.status).toBe(401);
    expect(legacy.headers.get('deprecation')).toBe('true');
    const graphql = await gql(app, '{ __typename }', { host: 'BETA.api.test' });
    expect(graphql.status).toBe(200);
    expect(graphql.headers.get('deprecation')).toBe('true');
  });
});

test('request ids are unique per request when generated', async () => {
  const app = appWith();
  const ids = new Set<string | null>();
  for (let n = 0; n < 3; n += 1) ids.add((await hit(app, '/healthz')).headers.get('x-request-id'));
  expect(ids.size).toBe(3);
  for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
});

describe('key management per dashboard user', () => {
  const CREATE = `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { apiKey } }`;

  async function create(app: App, token: string) {
    const response = await app.fetch('http://api.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-token': token },
      body: JSON.stringify({ query: CREATE, variables: { input: { name: 'CI' } } }),
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  }

  test('each key-management mutation runs at most 10 times a minute per user', async () => {
    const app = appWith();
    const [first, second] = [await createUser('PARTNER'), await createUser('PARTNER')];
    const token = await signDashboardToken(first.id);
    for (let n = 0; n < 10; n += 1) {
      expect((await create(app, token)).body.data.createApiKey.apiKey).toEqual(expect.any(String));
    }
    const refused = await create(app, token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBe(60);
    expect(refused.body.data?.createApiKey ?? null).toBeNull();
    expect(refused.body.errors).toEqual([
      expect.objectContaining({ extensions: { code: 'TOO_MANY_REQUESTS' } }),
    ]);
    // Another user has their own allowance.
    const other = await create(app, await signDashboardToken(second.id));
    expect(other.body.data.createApiKey.apiKey).toEqual(expect.any(String));
  });
});
