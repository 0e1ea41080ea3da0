// GET /affiliate/brands and /affiliate/brands/{brandId} against the contract: the partner catalog's
// visible brands, a `pagination` envelope, and the key's affiliate context (commission, favorite,
// enrolled channels, brand-page short link) that never leaks to another affiliate.
import { prisma } from '../../src/platform/db';
import {
  affiliateBrandWhere,
  effectiveCommission,
} from '../../src/modules/catalog/affiliateBrands';
import {
  createApiKey,
  createBrand,
  createChannel,
  createChannelType,
  createLink,
  enrollChannel,
  relateAffiliateToBrand,
} from '../support/factories';
import { call, graphql, useTestDatabase, expectError, refusesParameters } from '../support/app';

useTestDatabase();

interface Affiliate {
  key: string;
  id: string;
}

async function createAffiliate(scopes?: string[]): Promise<Affiliate> {
  const { apiKey, row } = await createApiKey('affiliate', scopes ? { scopes } : {});
  return { key: apiKey, id: row.ownerId };
}

let first: Affiliate;
let second: Affiliate;
const brands: Record<string, { id: string }> = {};
const hidden: Record<string, { id: string }> = {};
const channels: Record<string, { id: string }> = {};
const links: Record<string, { urlCode: string }> = {};

beforeAll(async () => {
  first = await createAffiliate();
  second = await createAffiliate();

  // 23 visible brands; the three named ones sort before the fillers.
  for (let i = 0; i < 20; i += 1)
    await createBrand({ name: `Filler ${String(i).padStart(2, '0')}` });
  brands.shoes = await createBrand({
    name: 'Aurora Shoes',
    slug: 'aurora-shoes',
    description: 'Shoes for every season',
    logoUrl: 'https://cdn.example/aurora.png',
    websiteUrl: 'https://aurora.example',
    categories: ['fashion'],
    isExclusive: true,
    isHighlight: true,
    isPublic: false,
    defaultCommissionType: 'PERCENTAGE',
    defaultCommissionValue: 300,
    createdAt: new Date('2025-01-15T00:00:00Z'),
  });
  brands.gadgets = await createBrand({
    name: 'Beta Gadgets',
    categories: ['electronics', 'home'],
    defaultCommissionType: 'FIXED',
    defaultCommissionValue: 199,
    createdAt: new Date('2025-06-01T00:00:00Z'),
  });
  brands.books = await createBrand({ name: 'Chapter Books', categories: ['books'] });
  hidden.inactive = await createBrand({ name: 'Hidden Inactive', isActive: false });
  hidden.pending = await createBrand({ name: 'Hidden Pending', approvalStatus: 'PENDING' });

  // First affiliate: negotiated fixed commission and favorite on shoes, favorite on books, a
  // non-favorite relation on gadgets; a favorite on a hidden brand that must never show.
  await relateAffiliateToBrand(first.id, brands.shoes.id, {
    commissionType: 'FIXED',
    commissionValue: 250,
    isFavorite: true,
  });
  await relateAffiliateToBrand(first.id, brands.books.id, { isFavorite: true });
  await relateAffiliateToBrand(first.id, brands.gadgets.id, {
    commissionValue: 750,
    isFavorite: false,
  });
  await relateAffiliateToBrand(first.id, hidden.inactive.id, { isFavorite: true });
  // Second affiliate: only gadgets is a favorite, with its own commission.
  await relateAffiliateToBrand(second.id, brands.gadgets.id, {
    commissionValue: 1000,
    isFavorite: true,
  });

  const blog = await createChannelType('Blog');
  const social = await createChannelType('Social');
  const whiteLabel = await createChannelType('WhiteLabel', true);
  channels.firstBlog = await createChannel(first.id, blog.id, {
    createdAt: new Date('2025-02-01T00:00:00Z'),
  });
  channels.firstSocial = await createChannel(first.id, social.id, {
    active: false,
    createdAt: new Date('2025-03-01T00:00:00Z'),
  });
  channels.firstWhiteLabel = await createChannel(first.id, whiteLabel.id);
  channels.firstUnenrolled = await createChannel(first.id, blog.id);
  channels.secondBlog = await createChannel(second.id, blog.id, {
    createdAt: new Date('2025-04-01T00:00:00Z'),
  });
  for (const channel of ['firstSocial', 'firstBlog', 'firstWhiteLabel', 'secondBlog']) {
    await enrollChannel(brands.shoes.id, channels[channel]!.id);
  }

  links.firstShoes = await createLink(first.id, brands.shoes.id, {
    urlCode: 'FirstSh1',
    linkType: 'BrandPage',
  });
  links.secondShoes = await createLink(second.id, brands.shoes.id, {
    urlCode: 'SecndSh2',
    linkType: 'BrandPage',
  });
  // Neither is the first affiliate's active brand-page link to gadgets.
  await createLink(first.id, brands.gadgets.id, {
    urlCode: 'Inactiv3',
    linkType: 'BrandPage',
    active: false,
  });
  await createLink(first.id, brands.gadgets.id, { urlCode: 'OfferLn4', linkType: 'Offer' });
});

const get = (path: string, key = first.key) => call(path, { key });
const ids = (body: { data: { id: string }[] }) => body.data.map((item) => item.id);

const shoesForFirst = () => ({
  id: brands.shoes!.id,
  name: 'Aurora Shoes',
  slug: 'aurora-shoes',
  description: 'Shoes for every season',
  logoUrl: 'https://cdn.example/aurora.png',
  websiteUrl: 'https://aurora.example',
  categories: ['fashion'],
  isExclusive: true,
  isHighlight: true,
  isPublic: false,
  createdAt: '2025-01-15T00:00:00.000Z',
  commission: { type: 'FIXED', value: 2.5 },
  isFavorite: true,
  channels: [
    {
      id: channels.firstBlog!.id,
      name: 'Blog',
      active: true,
      createdAt: '2025-02-01T00:00:00.000Z',
    },
    {
      id: channels.firstSocial!.id,
      name: 'Social',
      active: false,
      createdAt: '2025-03-01T00:00:00.000Z',
    },
  ],
  shortUrl: 'https://api.test/s/FirstSh1',
});

describe('GET /affiliate/brands', () => {
  test('answers { data, pagination } with the default limit of 20', async () => {
    const { status, body } = await get('/affiliate/brands');
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['data', 'pagination']);
    expect(Object.keys(body.pagination)).toEqual(['page', 'limit', 'total', 'totalPages']);
    expect(body.pagination).toEqual({ page: 1, limit: 20, total: 23, totalPages: 2 });
    expect(body.data).toHaveLength(20);
    expect(ids(body).slice(0, 3)).toEqual([brands.shoes!.id, brands.gadgets!.id, brands.books!.id]);
  });

  test('lists each brand with the affiliate context', async () => {
    const { body } = await get('/affiliate/brands?search=aurora');
    expect(body).toEqual({
      data: [shoesForFirst()],
      pagination: { page: 1, limit: 20, total: 1, totalPages: 1 },
    });
  });

  test('without a negotiated commission a brand answers its default one', async () => {
    const { body } = await get('/affiliate/brands?search=filler%2000');
    expect(body.data[0]).toMatchObject({
      commission: { type: 'PERCENTAGE', value: 0 },
      isFavorite: false,
      channels: [],
      shortUrl: null,
    });
  });

  test('an inactive link or another kind of link is no brand-page short URL', async () => {
    const { body } = await get(`/affiliate/brands/${brands.gadgets!.id}`);
    expect(body.data.shortUrl).toBeNull();
    expect(body.data.commission).toEqual({ type: 'PERCENTAGE', value: 7.5 });
    expect(body.data.isFavorite).toBe(false);
  });

  test('serves the second page', async () => {
    const { body } = await get('/affiliate/brands?page=2');
    expect(body.pagination).toEqual({ page: 2, limit: 20, total: 23, totalPages: 2 });
    expect(body.data.map((brand: { name: string }) => brand.name)).toEqual([
      'Filler 17',
      'Filler 18',
      'Filler 19',
    ]);
  });

  test('pages with a smaller limit', async () => {
    const { body } = await get('/affiliate/brands?limit=2&page=2');
    expect(body.pagination).toEqual({ page: 2, limit: 2, total: 23, totalPages: 12 });
    expect(ids(body)).toEqual([brands.books!.id, expect.any(String)]);
  });

  test('hides brands that are not visible, even a favorite one', async () => {
    const { body } = await get('/affiliate/brands?search=hidden');
    expect(body.data).toEqual([]);
    expect(ids((await get('/affiliate/brands?isFavorite=true')).body)).not.toContain(
      hidden.inactive!.id,
    );
  });

  test.each([
    ['search=GADG', ['gadgets']],
    ['categories=books,fashion', ['shoes', 'books']],
    ['categories=books&categories=home', ['gadgets', 'books']],
    ['isExclusive=true', ['shoes']],
    ['isHighlight=true', ['shoes']],
    ['isPublic=false', ['shoes']],
    ['startAt=2025-01-01T00:00:00Z&endAt=2025-12-31T23:59:59Z', ['shoes', 'gadgets']],
    ['endAt=2025-03-01', ['shoes']],
    ['isFavorite=true', ['shoes', 'books']],
    ['isFavorite=true&categories=fashion,electronics', ['shoes']],
    ['isFavorite=false&categories=fashion,electronics,books', ['gadgets']],
    ['isFavorite=true&isExclusive=false', ['books']],
    ['categories=fashion,electronics&isHighlight=false', ['gadgets']],
    ['search=a&isPublic=false&isFavorite=true&startAt=2025-01-01', ['shoes']],
  ])('filters %s', async (query, expected) => {
    const { status, body } = await get(`/affiliate/brands?${query}`);
    expect(status).toBe(200);
    expect(ids(body)).toEqual(expected.map((name) => brands[name]!.id));
  });

  test('startAt alone bounds the created-at time from below', async () => {
    const { body } = await get('/affiliate/brands?startAt=2025-06-01T00:00:00Z&limit=20');
    expect(ids(body)).toContain(brands.gadgets!.id);
    expect(ids(body)).not.toContain(brands.shoes!.id);
  });

  test('isFavorite=false keeps every other brand, including a related non-favorite one', async () => {
    const { body } = await get('/affiliate/brands?isFavorite=false');
    expect(body.pagination.total).toBe(21);
    expect(ids(body)).toContain(brands.gadgets!.id);
    expect(ids(body)).not.toContain(brands.shoes!.id);
    expect(ids(body)).not.toContain(brands.books!.id);
  });

  refusesParameters(
    (query) => get(`/affiliate/brands?${query}`),
    [
      ['isFavorite=yes', 'isFavorite'],
      ['isFavorite=1', 'isFavorite'],
      ['isExclusive=maybe', 'isExclusive'],
      ['startAt=yesterday', 'startAt'],
      ['endAt=2025-02-30', 'endAt'],
      ['startAt=2025-12-01T00:00:00Z&endAt=2025-01-01T00:00:00Z', 'startAt'],
    ],
  );
});

describe('GET /affiliate/brands/{brandId}', () => {
  test('answers { data: brand } with the affiliate context', async () => {
    const { status, body } = await get(`/affiliate/brands/${brands.shoes!.id}`);
    expect(status).toBe(200);
    expect(body).toEqual({ data: shoesForFirst() });
  });

  test.each([
    ['a brand that is not visible', () => hidden.inactive!.id],
    ['a pending brand', () => hidden.pending!.id],
    ['an unknown id', () => '00000000-0000-4000-8000-000000000000'],
    ['a non-UUID id', () => 'not-a-uuid'],
    ['an injection attempt', () => "1'%20OR%20'1'='1"],
  ])('answers 404 for %s', async (_case, brandId) => {
    const { status, body } = await get(`/affiliate/brands/${brandId()}`);
    expectError({ status, body }, 'NOT_FOUND');
  });
});

describe('tenant isolation', () => {
  test('a second affiliate sees its own commission, favorite, channels and short URL', async () => {
    const { body } = await get(`/affiliate/brands/${brands.shoes!.id}`, second.key);
    expect(body.data).toMatchObject({
      commission: { type: 'PERCENTAGE', value: 3 },
      isFavorite: false,
      channels: [
        { id: channels.secondBlog!.id, name: 'Blog', active: true, createdAt: expect.any(String) },
      ],
      shortUrl: 'https://api.test/s/SecndSh2',
    });
    const gadgets = await get(`/affiliate/brands/${brands.gadgets!.id}`, second.key);
    expect(gadgets.body.data).toMatchObject({
      commission: { type: 'PERCENTAGE', value: 10 },
      isFavorite: true,
      channels: [],
      shortUrl: null,
    });
  });

  test("a second affiliate's favorites are its own", async () => {
    const { body } = await get('/affiliate/brands?isFavorite=true', second.key);
    expect(ids(body)).toEqual([brands.gadgets!.id]);
  });

  test("the first affiliate's rows never appear in the second's list", async () => {
    const { body } = await get('/affiliate/brands', second.key);
    const text = JSON.stringify(body);
    for (const channel of ['firstBlog', 'firstSocial', 'firstWhiteLabel', 'firstUnenrolled']) {
      expect(text).not.toContain(channels[channel]!.id);
    }
    expect(text).not.toContain(links.firstShoes!.urlCode);
    expect(text).not.toContain('"value":2.5');
  });

  test('a fresh affiliate sees defaults only', async () => {
    const fresh = await createAffiliate();
    const { body } = await get(`/affiliate/brands/${brands.shoes!.id}`, fresh.key);
    expect(body.data).toMatchObject({
      commission: { type: 'PERCENTAGE', value: 3 },
      isFavorite: false,
      channels: [],
      shortUrl: null,
    });
    expect((await get('/affiliate/brands?isFavorite=true', fresh.key)).body.data).toEqual([]);
  });
});

describe('a closed affiliate account', () => {
  test('a key whose affiliate account was closed answers 404 on both routes', async () => {
    const closed = await createAffiliate();
    await prisma.user.update({ where: { id: closed.id }, data: { deletedAt: new Date() } });
    for (const path of ['/affiliate/brands', `/affiliate/brands/${brands.shoes!.id}`]) {
      const { status, body } = await get(path, closed.key);
      expectError({ status, body }, 'NOT_FOUND');
    }
  });
});

describe('GraphQL answers what REST answers', () => {
  const brandFields = `
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
    commission {
      type
      value
    }
    isFavorite
    channels {
      id
      name
      active
      createdAt
    }
    shortUrl
  `;

  test('affiliateBrands and affiliateBrand', async () => {
    const rest = await get('/affiliate/brands?categories=fashion,books&isFavorite=true');
    const restOne = await get(`/affiliate/brands/${brands.shoes!.id}`);
    const { body } = await graphql(
      `
        query ($brandId: ID!) {
          affiliateBrands(categories: ["fashion", "books"], isFavorite: true) {
            data { ${brandFields} }
            pagination {
              page
              limit
              total
              totalPages
            }
          }
          affiliateBrand(brandId: $brandId) {
            data { ${brandFields} }
          }
        }
      `,
      { brandId: brands.shoes!.id },
      { key: first.key },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.affiliateBrands).toEqual(rest.body);
    expect(body.data.affiliateBrand).toEqual(restOne.body);
  });

  test('two brands in one GraphQL query keep each affiliate context apart', async () => {
    const { body } = await graphql(
      `
        query ($shoes: ID!, $gadgets: ID!) {
          shoes: affiliateBrand(brandId: $shoes) {
            data {
              isFavorite
              commission {
                value
              }
            }
          }
          gadgets: affiliateBrand(brandId: $gadgets) {
            data {
              isFavorite
              shortUrl
            }
          }
        }
      `,
      { shoes: brands.shoes!.id, gadgets: brands.gadgets!.id },
      { key: second.key },
    );
    expect(body.data).toEqual({
      shoes: { data: { isFavorite: false, commission: { value: 3 } } },
      gadgets: { data: { isFavorite: true, shortUrl: null } },
    });
  });
});

describe('query planning', () => {
  afterEach(() => jest.restoreAllMocks());

  test('the affiliate context is read in the list query itself, never in follow-up queries', async () => {
    const findMany = jest.spyOn(prisma.organization, 'findMany');
    const fallback = jest.spyOn(prisma.organization, 'findUniqueOrThrow');
    const { status } = await get('/affiliate/brands');
    expect(status).toBe(200);
    expect(findMany).toHaveBeenCalledTimes(1);
    expect(fallback).not.toHaveBeenCalled();
    const { select } = findMany.mock.calls[0]![0]!;
    expect(select).toMatchObject({
      affiliates: { where: { affiliateId: first.id } },
      enrolledChannels: { where: { channel: { userId: first.id } } },
      shortUrls: { where: { affiliateId: first.id } },
    });
  });

  test('only the columns and relations a GraphQL query asks for are read', async () => {
    const findMany = jest.spyOn(prisma.organization, 'findMany');
    const { body } = await graphql(
      '{ affiliateBrands(limit: 1) { data { id channels { id } } } }',
      {},
      { key: first.key },
    );
    expect(body.errors).toBeUndefined();
    expect(findMany.mock.calls[0]![0]!.select).toEqual({
      id: true,
      enrolledChannels: expect.objectContaining({
        select: { channel: { select: { id: true } } },
      }),
    });
  });
});

describe('where-clauses', () => {
  test('without isFavorite the affiliate filter adds nothing', () => {
    expect(affiliateBrandWhere({ search: 'x' }, 'a')).not.toHaveProperty('AND');
  });

  test('isFavorite=false excludes only the affiliate’s own favorites', () => {
    const where = affiliateBrandWhere({ isFavorite: false }, 'a');
    expect(where.AND).toContainEqual({
      NOT: { affiliates: { some: { affiliateId: 'a', isFavorite: true } } },
    });
  });

  test('the negotiated commission wins over the default', () => {
    const brand = { defaultCommissionType: 'PERCENTAGE' as const, defaultCommissionValue: 300 };
    expect(effectiveCommission({ ...brand, affiliates: [] })).toEqual({
      type: 'PERCENTAGE',
      stored: 300,
    });
    expect(
      effectiveCommission({
        ...brand,
        affiliates: [{ commissionType: 'FIXED', commissionValue: 250 }],
      }),
    ).toEqual({ type: 'FIXED', stored: 250 });
  });
});
