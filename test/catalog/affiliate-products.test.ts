// GET /affiliate/products against the contract and docs/decisions.md ("Affiliate surface",
// "Parameters"): the `count` envelope, the 1..100 limit rule, filters, errors, and products of
// hidden brands never listed.
import { prisma } from '../../src/platform/db';
import {
  attributesOf,
  effectivePriceWhere,
  specificationsOf,
} from '../../src/modules/catalog/products';
import { call, graphql, postRaw, useTestDatabase, refusesParameters } from '../support/app';
import { createApiKey, createBrand, createProduct, createUser } from '../support/factories';

useTestDatabase();

let key: string;
const brands: Record<string, { id: string }> = {};
const products: Record<string, { id: string }> = {};
const variants: { id: string }[] = [];

beforeAll(async () => {
  const affiliate = await createUser();
  ({ apiKey: key } = await createApiKey('affiliate', { ownerId: affiliate.id }));
  brands.sports = await createBrand({ name: 'Sole Sports', logoUrl: 'https://cdn.example/s.png' });
  brands.kitchen = await createBrand({ name: 'Kitchen Co' });
  brands.inactive = await createBrand({ name: 'Hidden Inactive', isActive: false });
  brands.unapproved = await createBrand({ name: 'Hidden Pending', approvalStatus: 'PENDING' });

  products.runner = await createProduct(
    brands.sports.id,
    {
      name: 'Trail Runner',
      description: 'Light shoe for rough paths.',
      sku: 'RUN-001',
      url: 'https://sole.example/p/trail-runner',
      priceMinor: 10000,
      salePriceMinor: 8000,
      currency: 'EUR',
      stock: 5,
      images: ['https://cdn.example/run-1.jpg', 'https://cdn.example/run-2.jpg'],
      // Malformed entries (no name, nested value, not an object) are left out of the answer.
      specifications: [
        { name: 'Material', value: 'Mesh' },
        { name: 'Weight', value: 280 },
        { value: 'orphan' },
        { name: 'Drop', value: { mm: 8 } },
        'loose text',
      ],
      categories: ['sports', 'shoes'],
      createdAt: new Date('2025-01-01T00:00:00Z'),
    },
    // Stored out of position order: the answer follows `position`.
    [
      { sku: 'RUN-001-L', name: 'L / blue', priceMinor: 8500, stock: 0, position: 1 },
      {
        sku: 'RUN-001-M',
        name: 'M / red',
        priceMinor: 8000,
        stock: 5,
        attributes: { size: 'M', color: 'red' },
        position: 0,
      },
    ],
  );
  for (const sku of ['RUN-001-M', 'RUN-001-L']) {
    variants.push(await prisma.productVariant.findFirstOrThrow({ where: { sku } }));
  }
  products.mat = await createProduct(brands.sports.id, {
    name: 'Yoga Mat',
    sku: 'YOGA-1',
    priceMinor: 3000,
    categories: ['sports'],
    createdAt: new Date('2025-02-01T00:00:00Z'),
  });
  products.coffee = await createProduct(brands.kitchen.id, {
    name: 'Coffee Beans',
    sku: 'COF-9',
    priceMinor: 1550,
    stock: 0,
    available: false,
    categories: ['food'],
    createdAt: new Date('2025-03-01T00:00:00Z'),
  });
  products.espresso = await createProduct(brands.kitchen.id, {
    name: 'Espresso Machine',
    sku: 'ESP-1',
    priceMinor: 25000,
    salePriceMinor: 19999,
    categories: ['home', 'food'],
    createdAt: new Date('2025-04-01T00:00:00Z'),
  });
  // Older, cheap products so the 5-per-page list has a second page (7 visible products in all).
  products.filler1 = await createProduct(brands.kitchen.id, {
    priceMinor: 500,
    categories: ['misc'],
    createdAt: new Date('2024-02-01T00:00:00Z'),
  });
  const sameTime = { priceMinor: 500, categories: ['misc'], createdAt: new Date('2024-01-01') };
  const first = await createProduct(brands.kitchen.id, sameTime);
  const second = await createProduct(brands.kitchen.id, sameTime);
  // Created at the same time: the id breaks the tie, descending.
  [products.filler2, products.filler3] = first.id > second.id ? [first, second] : [second, first];
  products.hiddenRunner = await createProduct(brands.inactive.id, {
    name: 'Hidden Runner',
    priceMinor: 9000,
    categories: ['sports'],
  });
  products.hiddenPending = await createProduct(brands.unapproved.id, {
    name: 'Hidden Pending Mat',
    categories: ['sports'],
  });
});

const get = (path: string, apiKey = key) => call(path, { key: apiKey });
const ids = (body: { data: { id: string }[] }) => body.data.map((item) => item.id);
const idsOf = (...names: string[]) => names.map((name) => products[name]!.id);

const RUNNER = () => ({
  id: products.runner!.id,
  organizationId: brands.sports!.id,
  organization: {
    id: brands.sports!.id,
    name: 'Sole Sports',
    logoUrl: 'https://cdn.example/s.png',
  },
  name: 'Trail Runner',
  description: 'Light shoe for rough paths.',
  sku: 'RUN-001',
  url: 'https://sole.example/p/trail-runner',
  price: 100,
  salePrice: 80,
  currency: 'EUR',
  stock: 5,
  available: true,
  images: ['https://cdn.example/run-1.jpg', 'https://cdn.example/run-2.jpg'],
  specifications: [
    { name: 'Material', value: 'Mesh' },
    { name: 'Weight', value: '280' },
  ],
  variants: [
    {
      id: variants[0]!.id,
      sku: 'RUN-001-M',
      name: 'M / red',
      price: 80,
      stock: 5,
      attributes: [
        { name: 'size', value: 'M' },
        { name: 'color', value: 'red' },
      ],
    },
    {
      id: variants[1]!.id,
      sku: 'RUN-001-L',
      name: 'L / blue',
      price: 85,
      stock: 0,
      attributes: [],
    },
  ],
  categories: ['sports', 'shoes'],
});

describe('GET /affiliate/products', () => {
  test('answers { data, count } with the default limit of 5, newest first; count is the total', async () => {
    const { status, body } = await get('/affiliate/products');
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['data', 'count']);
    expect(body.count).toBe(7);
    expect(ids(body)).toEqual(idsOf('espresso', 'coffee', 'mat', 'runner', 'filler1'));
  });

  test('serves the second page with the same total count', async () => {
    const { body } = await get('/affiliate/products?page=2');
    expect(body).toEqual({ data: expect.any(Array), count: 7 });
    expect(ids(body)).toEqual(idsOf('filler2', 'filler3'));
  });

  test('limit=100 is accepted', async () => {
    const { status, body } = await get('/affiliate/products?limit=100');
    expect(status).toBe(200);
    expect(body.data).toHaveLength(7);
    expect(body.count).toBe(7);
  });

  test('a product carries its brand, prices in major units, specifications and variants by position', async () => {
    const { status, body } = await get('/affiliate/products?search=run-001');
    expect(status).toBe(200);
    expect(body).toEqual({ data: [RUNNER()], count: 1 });
  });

  test('a product without sale price or variants answers null and []', async () => {
    const { body } = await get('/affiliate/products?search=YOGA-1');
    expect(body.data[0]).toMatchObject({
      price: 30,
      salePrice: null,
      variants: [],
      specifications: [],
    });
  });

  test.each([
    ['search=runner', ['runner']],
    ['search=ESP-', ['espresso']],
    ['search=coffee', ['coffee']],
    ['minPrice=90', ['espresso']],
    ['maxPrice=80', ['coffee', 'mat', 'runner', 'filler1', 'filler2', 'filler3']],
    ['minPrice=80&maxPrice=80', ['runner']],
    ['minPrice=20&maxPrice=99.99', ['mat', 'runner']],
    ['minPrice=199.99&maxPrice=199.99', ['espresso']],
    ['available=false', ['coffee']],
    ['categories=food', ['espresso', 'coffee']],
    ['categories=shoes,home', ['espresso', 'runner']],
    ['categories=shoes&categories=home', ['espresso', 'runner']],
    ['categories=sports,food&minPrice=20&maxPrice=200', ['espresso', 'mat', 'runner']],
    ['categories=food&available=true', ['espresso']],
    ['search=O&maxPrice=50&available=true', ['mat', 'filler1', 'filler2', 'filler3']],
  ])('filters %s', async (query, expected) => {
    const { status, body } = await get(`/affiliate/products?${query}&limit=100`);
    expect(status).toBe(200);
    expect(ids(body)).toEqual(idsOf(...expected));
    expect(body.count).toBe(expected.length);
  });

  test('available=true keeps the available ones', async () => {
    expect((await get('/affiliate/products?available=true')).body.count).toBe(6);
  });

  test('organizationId selects one brand, alone and with other filters', async () => {
    const one = await get(`/affiliate/products?organizationId=${brands.sports!.id}`);
    expect(one.body).toEqual({ data: expect.any(Array), count: 2 });
    expect(ids(one.body)).toEqual(idsOf('mat', 'runner'));
    const combined = await get(
      `/affiliate/products?organizationId=${brands.kitchen!.id}&minPrice=10`,
    );
    expect(ids(combined.body)).toEqual(idsOf('espresso', 'coffee'));
  });

  test('a price bound beyond any stored price is no error', async () => {
    expect((await get('/affiliate/products?maxPrice=999999999999')).body.count).toBe(7);
    expect((await get('/affiliate/products?minPrice=999999999999')).body).toEqual({
      data: [],
      count: 0,
    });
  });

  test('products of hidden brands are never listed', async () => {
    const all = await get('/affiliate/products?limit=100');
    expect(ids(all.body)).not.toContain(products.hiddenRunner!.id);
    expect(ids(all.body)).not.toContain(products.hiddenPending!.id);
    expect((await get('/affiliate/products?search=hidden')).body).toEqual({ data: [], count: 0 });
    for (const brand of [brands.inactive!, brands.unapproved!]) {
      const { body } = await get(`/affiliate/products?organizationId=${brand.id}`);
      expect(body).toEqual({ data: [], count: 0 });
    }
  });

  refusesParameters(
    (query) => get(`/affiliate/products?${query}`),
    [
      ['limit=-1', 'limit'],
      ['minPrice=abc', 'minPrice'],
      ['maxPrice=1e5', 'maxPrice'],
      ['maxPrice=12,5', 'maxPrice'],
      ['minPrice=-1', 'minPrice'],
      ['maxPrice=-0.5', 'maxPrice'],
      ['minPrice=50&maxPrice=10', 'minPrice'],
      ['organizationId=nope', 'organizationId'],
      ['available=yes', 'available'],
    ],
  );
});

describe('GraphQL answers what REST answers', () => {
  test('affiliateProducts', async () => {
    const rest = await get('/affiliate/products?categories=shoes&minPrice=50');
    const { body } = await graphql(
      `
        query ($categories: [String!], $minPrice: Float) {
          affiliateProducts(categories: $categories, minPrice: $minPrice) {
            data {
              id
              organizationId
              organization {
                id
                name
                logoUrl
              }
              name
              description
              sku
              url
              price
              salePrice
              currency
              stock
              available
              images
              specifications {
                name
                value
              }
              variants {
                id
                sku
                name
                price
                stock
                attributes {
                  name
                  value
                }
              }
              categories
            }
            count
          }
        }
      `,
      { categories: ['shoes'], minPrice: 50 },
      { key },
    );
    expect(rest.body).toEqual({ data: [RUNNER()], count: 1 });
    expect(body.data.affiliateProducts).toEqual(rest.body);
  });

  test('limit outside 1..100 is BAD_REQUEST over GraphQL too', async () => {
    const { body } = await graphql('{ affiliateProducts(limit: 101) { count } }', {}, { key });
    expect(body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });
  test('a price beyond the range of a double is refused like a price that is no number', async () => {
    const products = (maxPrice: string) =>
      graphql(`{ affiliateProducts(maxPrice: ${maxPrice}) { count } }`, {}, { key });
    const noNumber = await products('"abc"');
    for (const literal of ['1e400', '1' + '0'.repeat(400)]) {
      const answer = await products(literal);
      expect(answer.status).toBe(noNumber.status);
      expect(answer.body).toEqual({
        errors: [
          {
            message: `Float cannot represent non-finite value: ${literal}`,
            locations: [expect.any(Object)],
            extensions: noNumber.body.errors[0].extensions,
          },
        ],
      });
    }
    const query = 'query ($max: Float) { affiliateProducts(maxPrice: $max) { count } }';
    const variable = await postRaw(
      '/graphql',
      `{"query": "${query}", "variables": {"max": 1e400}}`,
      {
        key,
      },
    );
    expect(variable.body.data).toBeUndefined();
    expect(variable.body.errors[0].message).toMatch(/Float cannot represent/);
  });
});

describe('reading the JSON columns defensively', () => {
  test.each([null, 'text', 42, { name: 'a', value: 'b' }])('specifications %p -> []', (json) => {
    expect(specificationsOf(json)).toEqual([]);
  });

  test.each([null, 'text', ['a'], 7])('attributes %p -> []', (json) => {
    expect(attributesOf(json)).toEqual([]);
  });

  test('scalar attribute values become text; others are left out', () => {
    expect(attributesOf({ size: 42, vegan: true, tags: ['x'], none: null, color: 'red' })).toEqual([
      { name: 'size', value: '42' },
      { name: 'vegan', value: 'true' },
      { name: 'color', value: 'red' },
    ]);
  });

  test('the price bounds compare the sale price when set, else the price, in minor units of each currency', () => {
    const inCurrencies = (currency: object, gte: number, lte: number) => ({
      currency,
      OR: [{ salePriceMinor: { gte, lte } }, { salePriceMinor: null, priceMinor: { gte, lte } }],
    });
    expect(effectivePriceWhere(1.5, 20)).toEqual({
      OR: [
        // 1.5 yen is at least 2 yen
        inCurrencies({ in: expect.arrayContaining(['JPY', 'KRW']) }, 2, 20),
        inCurrencies({ in: expect.arrayContaining(['BHD', 'KWD']) }, 1500, 20000),
        inCurrencies({ in: ['CLF', 'UYW'] }, 15000, 200000),
        inCurrencies({ notIn: expect.arrayContaining(['JPY', 'BHD', 'CLF']) }, 150, 2000),
      ],
    });
    expect(effectivePriceWhere(null, undefined)).toBeUndefined();
  });
});
