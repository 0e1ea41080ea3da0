// HTTP as integrators and their caches expect it: answers to a request carrying credentials are
// never stored by shared caches; CORS for browser integrations without credentials; HEAD on every
// GET route answered as GET without a body; on the wire, every status line with its reason phrase
// and every JSON answer typed alike.
import { STATUS_CODES } from 'node:http';
import { signDashboardToken } from '../src/auth/dashboardToken';
import {
  createIsolatedApp,
  call,
  callApp,
  expectError,
  listen,
  useTestDatabase,
} from './support/app';
import { createApiKey, createUser } from './support/factories';

useTestDatabase();

let affiliateKey: string;
let partnerKey: string;

beforeAll(async () => {
  ({ apiKey: affiliateKey } = await createApiKey('affiliate'));
  ({ apiKey: partnerKey } = await createApiKey('partner'));
});

describe('Cache-Control', () => {
  test('no-store on every answer to a request with a key, errors included', async () => {
    for (const [path, key] of [
      ['/affiliate/channels', affiliateKey],
      ['/api/partner/brands', partnerKey],
      ['/affiliate/channels', partnerKey],
      ['/api/partner/nope', partnerKey],
    ]) {
      const { headers } = await call(path!, { key });
      expect(headers.get('cache-control')).toBe('no-store');
    }
  });

  test('no-store on key management answers, which carry secrets', async () => {
    const token = await signDashboardToken((await createUser()).id);
    const { body, headers } = await call('/graphql', {
      token,
      body: { query: 'mutation { createApiKey(input: { name: "x" }) { apiKey } }' },
    });
    expect(body.data.createApiKey.apiKey).toBeDefined();
    expect(headers.get('cache-control')).toBe('no-store');
  });

  test('public answers keep their own caching', async () => {
    expect((await call('/openapi.json')).headers.get('cache-control')).toBe('no-cache');
    expect((await call('/healthz')).headers.get('cache-control')).toBeNull();
  });
});

describe('security headers', () => {
  const answers = async (app = createIsolatedApp()) => [
    await callApp(app, '/affiliate/channels', { key: affiliateKey }),
    await callApp(app, '/api/partner/nope', { key: partnerKey }),
    await callApp(app, '/affiliate/channels'),
    await callApp(app, '/graphql', { body: { query: '{ __typename }' } }),
    await callApp(app, '/healthz'),
    await callApp(app, '/openapi.json'),
    await callApp(app, '/s/Nope0000'),
  ];

  test('every answer forbids content sniffing', async () => {
    for (const { headers } of await answers()) {
      expect(headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  test('HSTS on every answer where the service is published over https', async () => {
    // The tests publish the service at https://api.test.
    for (const { headers } of await answers()) {
      expect(headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    }
    const overHttp = createIsolatedApp({ settings: { publicBaseUrl: 'http://localhost:4000' } });
    for (const { headers } of await answers(overHttp)) {
      expect(headers.get('strict-transport-security')).toBeNull();
    }
  });
});

describe('CORS', () => {
  const fromPage = (origin: string) => ({ headers: { origin } });

  test('any origin may call by default: *, never with credentials', async () => {
    for (const origin of ['https://partner.example', 'null']) {
      const { headers } = await call('/api/partner/brands', {
        key: partnerKey,
        ...fromPage(origin),
      });
      expect(headers.get('access-control-allow-origin')).toBe('*');
      expect(headers.get('access-control-allow-credentials')).toBeNull();
      expect(headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
    }
  });

  test('a preflight answers 204 with the headers a browser may send', async () => {
    const { status, headers } = await call('/affiliate/campaigns', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://dash.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key',
      },
    });
    expect(status).toBe(204);
    expect(headers.get('access-control-allow-origin')).toBe('*');
    expect(headers.get('access-control-allow-headers')).toContain('x-api-key');
    expect(headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST');
    expect(headers.get('access-control-allow-credentials')).toBeNull();
  });

  test('with CORS_ORIGINS set, only those origins are allowed', async () => {
    const app = createIsolatedApp({ settings: { corsOrigins: ['https://dash.example'] } });
    const allowed = await callApp(app, '/api/partner/brands', {
      key: partnerKey,
      ...fromPage('https://dash.example'),
    });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://dash.example');
    expect(allowed.headers.get('vary')).toContain('Origin');
    for (const origin of ['https://evil.example', 'null']) {
      const refused = await callApp(app, '/api/partner/brands', {
        key: partnerKey,
        ...fromPage(origin),
      });
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      const preflight = await callApp(app, '/api/partner/brands', {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
    }
  });
});

describe('HEAD', () => {
  test.each([
    ['/affiliate/channels', 'affiliate'],
    ['/affiliate/campaigns?limit=2', 'affiliate'],
    ['/api/partner/brands', 'partner'],
    ['/api/partner/brands/00000000-0000-4000-8000-000000000000', 'partner'],
  ])('%s: the GET answer without its body', async (path, keyType) => {
    const key = keyType === 'affiliate' ? affiliateKey : partnerKey;
    const get = await call(path, { key });
    const head = await call(path, { key, method: 'HEAD' });
    expect(head.status).toBe(get.status);
    expect(head.body).toBeNull();
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('x-ratelimit-limit')).toBe(get.headers.get('x-ratelimit-limit'));
  });

  test('a route without GET still answers 405 to HEAD, naming what it allows', async () => {
    const { status, headers } = await call('/affiliate/shortener/url', {
      key: affiliateKey,
      method: 'HEAD',
    });
    expect(status).toBe(405);
    expect(headers.get('allow')).toBe('POST');
  });

  test('405 on a GET route names GET and HEAD', async () => {
    const { status, headers } = await call('/affiliate/channels', {
      key: affiliateKey,
      method: 'PUT',
    });
    expect(status).toBe(405);
    expect(headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('what error messages repeat of a request', () => {
  test('a long id is cut in a 404 message', async () => {
    const { status, body } = await call(`/api/partner/brands/${'x'.repeat(300)}`, {
      key: partnerKey,
    });
    expect(status).toBe(404);
    expect(body.message).toBe(`Brand ${'x'.repeat(64)}… not found`);
  });

  test('an id longer than any input cannot name anything: 404, not echoed', async () => {
    const { status, body } = await call(`/api/partner/brands/${'x'.repeat(14_000)}`, {
      key: partnerKey,
    });
    expect(status).toBe(404);
    expect(body.message).toBe('Resource not found');
  });

  test('invisible and direction-changing characters are written as escapes', async () => {
    const { body } = await call('/api/partner/brands/abc%E2%80%AEgpj.exe%E2%80%8B', {
      key: partnerKey,
    });
    expect(body.message).toBe('Brand abc\\u202egpj.exe\\u200b not found');
  });

  test('an unknown path is cut too', async () => {
    const { status, body } = await call(`/api/partner/${'p'.repeat(5000)}`, { key: partnerKey });
    expect(status).toBe(404);
    expect(body.message.length).toBeLessThan(100);
  });

  test('a body with many unknown fields names a few and counts the rest', async () => {
    const fields = Object.fromEntries(Array.from({ length: 1000 }, (_, n) => [`f${n}`, n]));
    const { status, body } = await call('/affiliate/shortener/url', {
      key: affiliateKey,
      body: fields,
    });
    expect(status).toBe(400);
    expect(body.message).toBe('Unknown fields f0, f1, f2, f3, f4 and 995 more');
  });
});

describe('on the wire', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    server = await listen(createIsolatedApp());
  });
  afterAll(() => server.close());

  test.each([
    ['a list', '/api/partner/organizations', 'partner', 200],
    ['no key', '/api/partner/organizations', null, 401],
    ['a key of the wrong type', '/api/partner/organizations', 'affiliate', 401],
    ['an unknown id', '/api/partner/brands/00000000-0000-4000-8000-000000000000', 'partner', 404],
    ['an unknown path', '/nowhere', null, 404],
    ['a bad parameter', '/api/partner/organizations?limit=abc', 'partner', 400],
    ['liveness', '/healthz', null, 200],
    ['readiness', '/readyz', null, 200],
  ])(
    '%s: a reason phrase and application/json; charset=utf-8',
    async (_case, path, key, status) => {
      const headers: Record<string, string> = {};
      if (key) headers['x-api-key'] = key === 'partner' ? partnerKey : affiliateKey;
      const response = await fetch(`${server.base}${path}`, { headers });
      expect([response.status, response.statusText]).toEqual([status, STATUS_CODES[status]]);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    },
  );

  test('a method a route does not take: 405 Method Not Allowed', async () => {
    const response = await fetch(`${server.base}/api/partner/organizations`, {
      method: 'DELETE',
      headers: { 'x-api-key': partnerKey },
    });
    expect([response.status, response.statusText]).toEqual([405, 'Method Not Allowed']);
  });
});

test('GET / points to the API reference', async () => {
  expectError(await call('/'), 'NOT_FOUND', 'No route GET /: the API reference is at /docs');
});

describe('query parameters a route does not take', () => {
  test('are named in X-Ignored-Parameters; the answer is the unfiltered list', async () => {
    const { status, headers, body } = await call('/affiliate/campaigns?tpyes=Offer&limit=2', {
      key: affiliateKey,
    });
    expect(status).toBe(200);
    expect(headers.get('x-ignored-parameters')).toBe('tpyes');
    expect(body.meta.limit).toBe(2);
  });

  test("no header when every parameter is the route's", async () => {
    const { headers } = await call('/affiliate/campaigns?types=Offer', { key: affiliateKey });
    expect(headers.has('x-ignored-parameters')).toBe(false);
  });

  test('a misspelled enum value: 400 with the likely value', async () => {
    expectError(
      await call('/affiliate/campaigns?types=Ofer', { key: affiliateKey }),
      'BAD_REQUEST',
      /types must be one of: .* \(did you mean Offer\?\)$/,
    );
  });
});

describe('POST /graphql reads JSON or a GraphQL document only', () => {
  const query = '{ affiliateChannels { count } }';

  test.each([
    ['application/x-www-form-urlencoded', new URLSearchParams({ query }).toString()],
    [
      'multipart/form-data; boundary=x',
      `--x\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${JSON.stringify({ query })}\r\n--x--\r\n`,
    ],
    ['text/plain', JSON.stringify({ query })],
  ])(
    'a %s body answers 400 naming the types it takes: no cross-origin "simple" request runs',
    async (type, body) => {
      const answer = await call('/graphql', {
        key: affiliateKey,
        method: 'POST',
        rawBody: body,
        headers: { 'content-type': type },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0]).toMatchObject({
        message: 'Unsupported Content-Type: send application/json (or application/graphql, or GET)',
        extensions: { code: 'BAD_REQUEST' },
      });
    },
  );

  test.each([
    ['application/json', JSON.stringify({ query })],
    ['application/json; charset=utf-8', JSON.stringify({ query })],
    ['application/graphql', query],
  ])('a %s body is read', async (type, body) => {
    const answer = await call('/graphql', {
      key: affiliateKey,
      method: 'POST',
      rawBody: body,
      headers: { 'content-type': type },
    });
    expect(answer.body).toEqual({ data: { affiliateChannels: { count: expect.any(Number) } } });
  });
});
