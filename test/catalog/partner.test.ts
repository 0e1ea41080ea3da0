// The partner surface (/api/partner/*) against the contract: envelopes, defaults, clamping,
// filters, visibility and errors.
import {
  app,
  call,
  graphql,
  listen,
  useTestDatabase,
  expectError,
  refusesParameters,
} from '../support/app';
import { createApiKey, createBrand, createCampaign, days } from '../support/factories';
import { prisma } from '../../src/platform/db';

useTestDatabase();

let partnerKey: string;
const brands: Record<string, { id: string }> = {};
const hidden: Record<string, { id: string }> = {};
const campaigns: Record<string, { id: string }> = {};

beforeAll(async () => {
  ({ apiKey: partnerKey } = await createApiKey('partner'));
  // 23 visible brands so the 20-per-page lists have a second page.
  for (let i = 0; i < 20; i += 1)
    await createBrand({ name: `Filler ${String(i).padStart(2, '0')}` });
  brands.shoes = await createBrand({
    name: 'Aurora Shoes',
    categories: ['fashion'],
    isExclusive: true,
    isHighlight: true,
    isPublic: false,
    createdAt: new Date('2025-01-15T00:00:00Z'),
  });
  brands.gadgets = await createBrand({
    name: 'Beta Gadgets',
    categories: ['electronics', 'home'],
    createdAt: new Date('2025-06-01T00:00:00Z'),
  });
  brands.books = await createBrand({ name: 'Chapter Books', categories: ['books'] });
  hidden.onboardingPending = await createBrand({
    name: 'Hidden Onboarding',
    onboardingStatus: 'PENDING',
  });
  hidden.approvalPending = await createBrand({
    name: 'Hidden Approval',
    approvalStatus: 'PENDING',
  });
  hidden.rejected = await createBrand({ name: 'Hidden Rejected', approvalStatus: 'REJECTED' });
  hidden.inactive = await createBrand({ name: 'Hidden Inactive', isActive: false });
  hidden.invisible = await createBrand({ name: 'Hidden Invisible', isVisible: false });

  campaigns.urlOffer = await createCampaign(brands.shoes!.id, {
    name: 'Spring Sale',
    categories: ['fashion'],
    isHighlight: true,
  });
  campaigns.sheetOffer = await createCampaign(brands.gadgets!.id, {
    name: 'Gadget Feed',
    offerType: 'Spreadsheet',
    categories: ['electronics'],
  });
  campaigns.generic = await createCampaign(brands.gadgets!.id, {
    name: 'Welcome Coupon',
    type: 'GenericCoupon',
    offerType: null,
    code: 'WELCOME10',
    startAt: days(-40),
    endAt: days(-5),
  });
  campaigns.personal = await createCampaign(brands.books!.id, {
    name: 'Reader Coupon',
    type: 'PersonalCoupon',
    offerType: null,
    code: 'PERSONAL-SECRET',
    startAt: days(5),
    endAt: days(30),
  });
  campaigns.hidden = await createCampaign(hidden.inactive!.id, { name: 'Hidden Campaign' });
});

const get = (path: string, key = partnerKey) => call(path, { key });
const ids = (body: { data: { id: string }[] }) => body.data.map((item) => item.id);

describe('GET /api/partner/brands', () => {
  test('answers { data, meta } with the default limit of 20', async () => {
    const { status, body } = await get('/api/partner/brands');
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['data', 'meta']);
    expect(body.meta).toEqual({ total: 23, page: 1, limit: 20, totalPages: 2 });
    expect(body.data).toHaveLength(20);
  });

  test('serves the second page', async () => {
    const { body } = await get('/api/partner/brands?page=2');
    expect(body.meta).toEqual({ total: 23, page: 2, limit: 20, totalPages: 2 });
    expect(body.data).toHaveLength(3);
  });

  test('lists brand fields and no affiliate context', async () => {
    const { body } = await get('/api/partner/brands?search=aurora');
    expect(body.data).toEqual([
      {
        id: brands.shoes!.id,
        name: 'Aurora Shoes',
        slug: expect.any(String),
        description: null,
        logoUrl: null,
        websiteUrl: expect.stringMatching(/^https:\/\//),
        categories: ['fashion'],
        isExclusive: true,
        isHighlight: true,
        isPublic: false,
        createdAt: '2025-01-15T00:00:00.000Z',
      },
    ]);
  });

  test.each(
    Object.keys({
      onboardingPending: 1,
      approvalPending: 1,
      rejected: 1,
      inactive: 1,
      invisible: 1,
    }),
  )('hides a brand that is %s', async (reason) => {
    const { body } = await get('/api/partner/brands?search=hidden');
    expect(body.data).toEqual([]);
    const one = await get(`/api/partner/brands/${hidden[reason]!.id}`);
    expect(one.status).toBe(404);
  });

  test('search matches part of the name in any case', async () => {
    expect(ids((await get('/api/partner/brands?search=GADG')).body)).toEqual([brands.gadgets!.id]);
  });

  test('categories takes a comma list and matches any of them', async () => {
    const { body } = await get('/api/partner/brands?categories=books,fashion');
    expect(ids(body).sort()).toEqual([brands.books!.id, brands.shoes!.id].sort());
  });

  test('categories also takes repeated parameters', async () => {
    const { body } = await get('/api/partner/brands?categories=books&categories=home');
    expect(ids(body).sort()).toEqual([brands.books!.id, brands.gadgets!.id].sort());
  });

  test.each([
    ['isExclusive=true', 'shoes'],
    ['isHighlight=true', 'shoes'],
    ['isPublic=false', 'shoes'],
  ])('filters by trait %s', async (query, brand) => {
    expect(ids((await get(`/api/partner/brands?${query}`)).body)).toEqual([brands[brand]!.id]);
  });

  test('isExclusive=false keeps the others', async () => {
    const { body } = await get('/api/partner/brands?isExclusive=false&limit=20');
    expect(body.meta.total).toBe(22);
  });

  test('startAt and endAt bound the created-at time', async () => {
    const { body } = await get(
      '/api/partner/brands?startAt=2025-01-01T00:00:00Z&endAt=2025-12-31T23:59:59Z',
    );
    expect(ids(body)).toEqual([brands.shoes!.id, brands.gadgets!.id]);
  });

  test('filters combine', async () => {
    const { body } = await get(
      '/api/partner/brands?categories=fashion,electronics&isHighlight=false',
    );
    expect(ids(body)).toEqual([brands.gadgets!.id]);
  });

  test('there is no isFavorite filter: the parameter is ignored', async () => {
    const { status, body } = await get('/api/partner/brands?isFavorite=true');
    expect(status).toBe(200);
    expect(body.meta.total).toBe(23);
  });

  refusesParameters(
    (query) => get(`/api/partner/brands?${query}`),
    [
      ['limit=-5', 'limit'],
      ['limit=0x10', 'limit'],
      ['limit=1.5', 'limit'],
      ['isExclusive=yes', 'isExclusive'],
      ['isPublic=1', 'isPublic'],
      ['startAt=yesterday', 'startAt'],
      ['startAt=2025-12-01T00:00:00Z&endAt=2025-01-01T00:00:00Z', 'startAt'],
      ['limit=5&limit=6', 'limit'],
    ],
  );
});

describe('GET /api/partner/brands/{brandId}', () => {
  test('answers { data: brand }', async () => {
    const { status, body } = await get(`/api/partner/brands/${brands.gadgets!.id}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      data: expect.objectContaining({ id: brands.gadgets!.id, name: 'Beta Gadgets' }),
    });
    expect(body.data).not.toHaveProperty('isFavorite');
    expect(body.data).not.toHaveProperty('commission');
  });

  test.each(['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1'%20OR%20'1'='1"])(
    'answers 404 in both error shapes for %s',
    async (brandId) => {
      const { status, body } = await get(`/api/partner/brands/${brandId}`);
      expectError({ status, body }, 'NOT_FOUND');
    },
  );
});

describe('GET /api/partner/campaigns', () => {
  test('answers { data, meta } with the default limit of 10, newest first', async () => {
    const { status, body } = await get('/api/partner/campaigns');
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['data', 'meta']);
    expect(body.meta).toEqual({ total: 4, page: 1, limit: 10, totalPages: 1 });
    expect(ids(body)).toEqual([
      campaigns.personal!.id,
      campaigns.generic!.id,
      campaigns.sheetOffer!.id,
      campaigns.urlOffer!.id,
    ]);
  });

  test('a campaign carries its brand, period and computed status, without short URL or commission', async () => {
    const { body } = await get(`/api/partner/campaigns/${campaigns.generic!.id}`);
    expect(body.data).toEqual({
      id: campaigns.generic!.id,
      name: 'Welcome Coupon',
      description: null,
      type: 'GenericCoupon',
      offerType: null,
      code: 'WELCOME10',
      url: expect.any(String),
      organizationId: brands.gadgets!.id,
      organization: { id: brands.gadgets!.id, name: 'Beta Gadgets', logoUrl: null },
      categories: [],
      period: { startAt: expect.any(String), endAt: expect.any(String) },
      status: 'expired',
      isHighlight: false,
      createdAt: expect.any(String),
    });
  });

  test('a PersonalCoupon appears without its code', async () => {
    const { body } = await get(`/api/partner/campaigns/${campaigns.personal!.id}`);
    expect(body.data.type).toBe('PersonalCoupon');
    expect(body.data.code).toBeNull();
    expect(JSON.stringify(body)).not.toContain('PERSONAL-SECRET');
  });

  test('campaigns of hidden brands are neither listed nor found', async () => {
    expect(ids((await get('/api/partner/campaigns?limit=20')).body)).not.toContain(
      campaigns.hidden!.id,
    );
    expect((await get(`/api/partner/campaigns/${campaigns.hidden!.id}`)).status).toBe(404);
  });

  test.each([
    ['types=Offer', ['sheetOffer', 'urlOffer']],
    ['types=GenericCoupon', ['generic']],
    ['types=GenericCoupon,PersonalCoupon', ['personal', 'generic']],
    ['offerType=Spreadsheet', ['sheetOffer']],
    ['types=Offer,GenericCoupon&offerType=Url', ['generic', 'urlOffer']],
    ['name=coupon', ['personal', 'generic']],
    ['status=onTime', ['sheetOffer', 'urlOffer']],
    ['status=expired,scheduled', ['personal', 'generic']],
    ['status=expired&status=scheduled', ['personal', 'generic']],
    ['categories=electronics,fashion', ['sheetOffer', 'urlOffer']],
    ['isHighlight=true', ['urlOffer']],
  ])('filters %s', async (query, expected) => {
    const { status, body } = await get(`/api/partner/campaigns?${query}`);
    expect(status).toBe(200);
    expect(ids(body)).toEqual(expected.map((name) => campaigns[name]!.id));
  });

  test('organizationId and organizationIds select brands', async () => {
    const one = await get(`/api/partner/campaigns?organizationId=${brands.gadgets!.id}`);
    expect(ids(one.body)).toEqual([campaigns.generic!.id, campaigns.sheetOffer!.id]);
    const several = await get(
      `/api/partner/campaigns?organizationIds=${brands.shoes!.id},${brands.books!.id}`,
    );
    expect(ids(several.body)).toEqual([campaigns.personal!.id, campaigns.urlOffer!.id]);
  });

  test('startAt and endAt keep campaigns whose period overlaps them', async () => {
    const from = days(20).toISOString();
    const until = days(40).toISOString();
    const { body } = await get(`/api/partner/campaigns?startAt=${from}&endAt=${until}`);
    expect(ids(body)).toEqual([campaigns.personal!.id]);
  });

  refusesParameters(
    (query) => get(`/api/partner/campaigns?${query}`),
    [
      ['types=Coupon', 'types'],
      ['types=offer', 'types'],
      ['offerType=Csv', 'offerType'],
      ['status=active', 'status'],
      ['organizationId=abc', 'organizationId'],
      ['isHighlight=maybe', 'isHighlight'],
      ['page=-1', 'page'],
      // Exact values: no padding, no signs, no empty list items.
      ['status=%20onTime', 'status'],
      ['page=+1', 'page'],
      ['limit=+5', 'limit'],
      ['types=Offer,,GenericCoupon', 'types'],
      ['types=Offer,', 'types'],
    ],
  );
});

describe('GET /api/partner/organizations', () => {
  test('lists visible organizations with the light directory fields', async () => {
    const { status, body } = await get('/api/partner/organizations?search=aurora');
    expect(status).toBe(200);
    expect(body).toEqual({
      data: [
        {
          id: brands.shoes!.id,
          name: 'Aurora Shoes',
          slug: expect.any(String),
          logoUrl: null,
          websiteUrl: expect.any(String),
          createdAt: '2025-01-15T00:00:00.000Z',
        },
      ],
      meta: { total: 1, page: 1, limit: 20, totalPages: 1 },
    });
  });
});

describe('authentication and scopes on the partner surface', () => {
  test.each([
    ['no key', undefined],
    ['a malformed key', 'nope'],
    ['an unknown key', 'svc_test_abcdefgh_00000000000000000000000000000000'],
  ])('%s answers 401', async (_case, key) => {
    const { status, body } = await call('/api/partner/brands', key === undefined ? {} : { key });
    expectError({ status, body }, 'UNAUTHORIZED');
  });

  test('an older key with only organizations:read works there and gets 403 elsewhere', async () => {
    const { apiKey } = await createApiKey('partner', { scopes: ['organizations:read'] });
    expect((await get('/api/partner/organizations', apiKey)).status).toBe(200);
    for (const path of ['/api/partner/brands', `/api/partner/campaigns/${campaigns.generic!.id}`]) {
      const { status, body } = await get(path, apiKey);
      expectError({ status, body }, 'FORBIDDEN');
    }
  });

  test('a revoked key answers 401', async () => {
    const { apiKey } = await createApiKey('partner', { revokedAt: new Date() });
    expect((await get('/api/partner/brands', apiKey)).status).toBe(401);
  });

  test('an expired key answers 401', async () => {
    const { apiKey } = await createApiKey('partner', { expiresAt: new Date(Date.now() - 1000) });
    expect((await get('/api/partner/brands', apiKey)).status).toBe(401);
  });

  test.each(['x-api-token', 'x-auth-key'])('a request carrying %s answers 400', async (header) => {
    const { status, body } = await call('/api/partner/brands', {
      key: partnerKey,
      headers: { [header]: 'anything' },
    });
    expect(status).toBe(400);
    expect(body.message).toContain(header);
  });
});

describe('routing', () => {
  test('an unknown partner path answers 404 in the error shape', async () => {
    const { status, body } = await get('/api/partner/nothing');
    expect(status).toBe(404);
    expect(body.code).toBe('NOT_FOUND');
  });

  test('an empty x-api-token or x-auth-key header is still one of those headers: 400', async () => {
    const served = await listen(app);
    try {
      for (const header of ['x-api-token', 'x-auth-key']) {
        const response = await fetch(`${served.base}/api/partner/brands`, {
          headers: { 'x-api-key': partnerKey, [header]: '' },
        });
        expect(response.status).toBe(400);
        expect((await response.json()).code).toBe('BAD_REQUEST');
      }
    } finally {
      await served.close();
    }
  });

  test('a wrong method answers 405 with Allow', async () => {
    const { status, headers, body } = await call('/api/partner/brands', {
      key: partnerKey,
      method: 'DELETE',
    });
    expect(status).toBe(405);
    expect(headers.get('allow')).toBe('GET, HEAD');
    expect(body.code).toBe('METHOD_NOT_ALLOWED');
  });

  test('the key-management mutations have no REST route', async () => {
    expect((await call('/create-api-key', { method: 'POST', body: {} })).status).toBe(404);
    expect((await call('/webhook', { method: 'POST', body: {} })).status).toBe(404);
  });
});

describe('GraphQL answers what REST answers', () => {
  test('partnerBrands', async () => {
    const rest = await get('/api/partner/brands?categories=fashion');
    const { body } = await graphql(
      `
        query {
          partnerBrands(categories: ["fashion"]) {
            data {
              id
              name
              slug
              description
              logoUrl
              websiteUrl
              categories
              isExclusive
              isHighlight
              isPublic
              createdAt
            }
            meta {
              total
              page
              limit
              totalPages
            }
          }
        }
      `,
      {},
      { key: partnerKey },
    );
    expect(body.data.partnerBrands).toEqual(rest.body);
  });

  test('scope-auth answers UNAUTHORIZED and FORBIDDEN codes over GraphQL too', async () => {
    const none = await graphql('{ partnerBrands { meta { total } } }');
    expect(none.body.errors[0].extensions.code).toBe('UNAUTHORIZED');
    const { apiKey } = await createApiKey('partner', { scopes: ['organizations:read'] });
    const narrow = await graphql('{ partnerBrands { meta { total } } }', {}, { key: apiKey });
    expect(narrow.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

test('the database was not changed by reads', async () => {
  expect(await prisma.organization.count()).toBe(28);
});
