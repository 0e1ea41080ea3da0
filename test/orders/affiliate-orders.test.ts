// GET /affiliate/orders and /affiliate/orders/{orderId} against the contract and docs/decisions.md
// ("Affiliate surface", "Parameters"): the `meta` envelope, limits, filters, errors, one affiliate
// never seeing another's orders, and incremental sync by `updatedSince`.
import { prisma } from '../../src/platform/db';
import { affiliateOrderWhere } from '../../src/modules/orders/schema';
import { call, graphql, useTestDatabase, expectError, refusesParameters } from '../support/app';
import {
  createApiKey,
  createBrand,
  createOrder,
  createUser,
  TEST_ORDER_LOCK_DAYS,
} from '../support/factories';

useTestDatabase();

let key: string;
let otherKey: string;
const brands: Record<string, { id: string }> = {};
const orders: Record<string, { id: string }> = {};

beforeAll(async () => {
  const affiliate = await createUser();
  const other = await createUser();
  ({ apiKey: key } = await createApiKey('affiliate', { ownerId: affiliate.id }));
  ({ apiKey: otherKey } = await createApiKey('affiliate', { ownerId: other.id }));
  brands.shoes = await createBrand({ name: 'Aurora Shoes', logoUrl: 'https://cdn.example/a.png' });
  brands.books = await createBrand({ name: 'Chapter Books' });
  // A brand hidden after the sale: the affiliate's earnings record keeps its orders.
  brands.hidden = await createBrand({ name: 'Closed Brand', isActive: false });

  orders.march = await createOrder(
    affiliate.id,
    brands.shoes.id,
    {
      orderNumber: 'AB-1001',
      status: 'APPROVED',
      currency: 'EUR',
      transactionValueMinor: 12345,
      commissionRateBps: 550,
      earningsMinor: 679,
      shortUrlCode: 'aB3dE5gH',
      sub1: 'spring-mail',
      sub2: 'hero-banner',
      orderedAt: new Date('2025-03-01T10:00:00Z'),
    },
    // Stored out of position order: the answer follows `position`.
    [
      {
        sku: 'SOCK-2',
        name: 'Socks',
        quantity: 3,
        unitPriceMinor: 315,
        totalMinor: 945,
        commissionRateBps: 500,
        commissionValueMinor: 47,
        position: 1,
      },
      {
        productId: '00000000-0000-4000-8000-00000000000a',
        sku: 'RUN-1',
        name: 'Trail Runner',
        quantity: 1,
        unitPriceMinor: 11400,
        totalMinor: 11400,
        commissionRateBps: 555,
        commissionValueMinor: 632,
        position: 0,
      },
    ],
  );
  orders.june = await createOrder(affiliate.id, brands.books.id, {
    orderNumber: 'AB-1002',
    status: 'PAID',
    sub1: 'spring-mail',
    orderedAt: new Date('2025-06-01T00:00:00Z'),
  });
  orders.september = await createOrder(affiliate.id, brands.shoes.id, {
    orderNumber: 'XY-2001',
    status: 'REJECTED',
    sub1: 'Spring-Mail',
    orderedAt: new Date('2025-09-01T00:00:00Z'),
  });
  orders.hiddenBrand = await createOrder(affiliate.id, brands.hidden.id, {
    orderNumber: 'HB-3001',
    orderedAt: new Date('2025-10-01T00:00:00Z'),
  });
  // 8 recent orders so the 10-per-page list has a second page (12 orders in all).
  for (let i = 0; i < 8; i += 1) {
    await createOrder(affiliate.id, brands.books.id, {
      orderNumber: `F-${i}`,
      orderedAt: new Date(Date.UTC(2026, 0, 1 + i)),
    });
  }
  orders.others = await createOrder(other.id, brands.shoes.id, {
    orderNumber: 'AB-9999',
    status: 'APPROVED',
    sub1: 'spring-mail',
    sub2: 'hero-banner',
    orderedAt: new Date('2025-03-02T00:00:00Z'),
  });
});

const get = (path: string, apiKey = key) => call(path, { key: apiKey });
const ids = (body: { data: { id: string }[] }) => body.data.map((item) => item.id);
const idsOf = (...names: string[]) => names.map((name) => orders[name]!.id);

const MARCH_ORDER = () => ({
  id: orders.march!.id,
  orderNumber: 'AB-1001',
  organizationId: brands.shoes!.id,
  organization: {
    id: brands.shoes!.id,
    name: 'Aurora Shoes',
    logoUrl: 'https://cdn.example/a.png',
  },
  status: 'APPROVED',
  currency: 'EUR',
  transactionValue: 123.45,
  commissionRate: 5.5,
  earnings: 6.79,
  items: [
    {
      productId: '00000000-0000-4000-8000-00000000000a',
      sku: 'RUN-1',
      name: 'Trail Runner',
      quantity: 1,
      unitPrice: 114,
      total: 114,
      commissionRate: 5.55,
      commissionValue: 6.32,
    },
    {
      productId: null,
      sku: 'SOCK-2',
      name: 'Socks',
      quantity: 3,
      unitPrice: 3.15,
      total: 9.45,
      commissionRate: 5,
      commissionValue: 0.47,
    },
  ],
  shortUrlCode: 'aB3dE5gH',
  channelId: null,
  sub1: 'spring-mail',
  sub2: 'hero-banner',
  sub3: null,
  sub4: null,
  sub5: null,
  // Its link is no link of the network's, and it has no code: nothing attributes it.
  couponCode: null,
  campaignId: null,
  attribution: null,
  orderedAt: '2025-03-01T10:00:00.000Z',
  updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
  statusReason: null,
  statusNote: null,
  originalSaleAmount: 123.45,
  originalEarnings: 6.79,
  adjusted: false,
  locksAt: new Date(
    Date.parse('2025-03-01T10:00:00Z') + TEST_ORDER_LOCK_DAYS * 86_400_000,
  ).toISOString(),
  lockedAt: null,
  isFinal: false,
  heldReason: null,
  heldNote: null,
  payoutId: null,
  payoutStatus: null,
  paidAt: null,
});

describe('GET /affiliate/orders', () => {
  test('answers { data, meta } with the default limit of 10, newest first', async () => {
    const { status, body } = await get('/affiliate/orders');
    expect(status).toBe(200);
    // The contract's envelope, and the watermark beside it (docs/order-lifecycle.md).
    expect(Object.keys(body)).toEqual(['data', 'meta', 'finalThrough']);
    expect(body.meta).toEqual({ total: 12, page: 1, limit: 10, totalPages: 2 });
    expect(body.data).toHaveLength(10);
    expect(body.data.slice(8).map((order: { id: string }) => order.id)).toEqual(
      idsOf('hiddenBrand', 'september'),
    );
  });

  test('serves the second page', async () => {
    const { body } = await get('/affiliate/orders?page=2');
    expect(body.meta).toEqual({ total: 12, page: 2, limit: 10, totalPages: 2 });
    expect(ids(body)).toEqual(idsOf('june', 'march'));
  });

  test('an order carries its brand, money in major units, rates in percent and items by position', async () => {
    const { body } = await get('/affiliate/orders?search=ab-1001');
    expect(body).toEqual({
      data: [MARCH_ORDER()],
      meta: { total: 1, page: 1, limit: 10, totalPages: 1 },
      finalThrough: expect.any(String),
    });
  });

  test.each([
    ['status=APPROVED', ['march']],
    ['status=APPROVED,PAID', ['june', 'march']],
    ['status=PAID&status=REJECTED', ['september', 'june']],
    ['search=AB-', ['june', 'march']],
    ['search=xy', ['september']],
    [
      'startAt=2025-05-01T00:00:00Z&endAt=2025-10-01T00:00:00Z',
      ['hiddenBrand', 'september', 'june'],
    ],
    ['endAt=2025-06-01', ['june', 'march']],
    ['status=APPROVED,REJECTED&startAt=2025-04-01', ['september']],
    // Sub-IDs match exactly (case included); another affiliate's orders with the value stay theirs.
    ['sub1=spring-mail', ['june', 'march']],
    ['sub1=Spring-Mail', ['september']],
    ['sub1=spring', []],
    ['sub2=hero-banner', ['march']],
    ['sub1=spring-mail&sub2=hero-banner', ['march']],
    ['sub1=spring-mail&status=PAID', ['june']],
    ['sub3=spring-mail', []],
    ['sub4=x&sub5=y', []],
  ])('filters %s', async (query, expected) => {
    const { status, body } = await get(`/affiliate/orders?${query}`);
    expect(status).toBe(200);
    expect(ids(body)).toEqual(idsOf(...expected));
    expect(body.meta.total).toBe(expected.length);
  });

  test('startAt alone keeps orders from then on', async () => {
    const { body } = await get('/affiliate/orders?startAt=2025-09-01T00:00:00Z&limit=100');
    expect(body.meta.total).toBe(10);
  });

  test('organizationId selects one brand, alone and with other filters', async () => {
    const one = await get(`/affiliate/orders?organizationId=${brands.shoes!.id}`);
    expect(ids(one.body)).toEqual(idsOf('september', 'march'));
    const combined = await get(
      `/affiliate/orders?organizationId=${brands.shoes!.id}&status=APPROVED&search=1001&endAt=2025-12-31`,
    );
    expect(ids(combined.body)).toEqual(idsOf('march'));
  });

  test('dateType=locked asks by the lock date: startAt and endAt read locksAt', async () => {
    const { locksAt } = MARCH_ORDER();
    const { status, body } = await get(
      `/affiliate/orders?dateType=locked&startAt=${locksAt}&endAt=${locksAt}`,
    );
    expect(status).toBe(200);
    expect(ids(body)).toEqual(idsOf('march'));
    const ordered = await get(`/affiliate/orders?startAt=${locksAt}`);
    expect(ordered.body.data).toEqual([]);
  });

  test('dateType=updated asks by updatedAt and lists the latest change first', async () => {
    const { body } = await get('/affiliate/orders?dateType=updated&startAt=2000-01-01&limit=100');
    const times = body.data.map((order: { updatedAt: string }) => order.updatedAt);
    expect(body.meta.total).toBe(12);
    expect(times).toEqual([...times].sort().reverse());
  });

  test('orders stay listed when their brand is no longer visible', async () => {
    const { body } = await get(`/affiliate/orders?organizationId=${brands.hidden!.id}`);
    expect(ids(body)).toEqual(idsOf('hiddenBrand'));
  });

  refusesParameters(
    (query) => get(`/affiliate/orders?${query}`),
    [
      ['status=approved', 'status'],
      ['status=SHIPPED', 'status'],
      ['status=PAID,nope', 'status'],
      ['organizationId=abc', 'organizationId'],
      ['startAt=yesterday', 'startAt'],
      ['endAt=2025-13-01', 'endAt'],
      ['startAt=2025-12-01T00:00:00Z&endAt=2025-01-01T00:00:00Z', 'startAt'],
      ['search=a&search=b', 'search'],
      ['sub1=a&sub1=b', 'sub1'],
      ['dateType=shipped', 'dateType'],
      ['dateType=LOCKED', 'dateType'],
      ['updatedSince=yesterday', 'updatedSince'],
      ['updatedSince=2025-02-30T00:00:00Z', 'updatedSince'],
    ],
  );
});

describe('GET /affiliate/orders?updatedSince= (incremental sync)', () => {
  let syncKey: string;
  let affiliateId: string;
  let brandId: string;

  interface SyncedOrder {
    id: string;
    status: string;
    updatedAt: string;
  }

  const changesSince = async (since: string, query = '') => {
    const answer = await get(`/affiliate/orders?updatedSince=${since}${query}`, syncKey);
    expect(answer.status).toBe(200);
    return answer.body as { data: SyncedOrder[]; meta: Record<string, number> };
  };

  const databaseNow = async () =>
    (await prisma.$queryRaw<{ now: Date }[]>`SELECT now() AS "now"`)[0]!.now;

  /** Waits until the database's clock is past `time`, so the next write gets a later `updatedAt`. */
  async function clockPasses(time: string): Promise<void> {
    // Stored times have milliseconds: 1 ms past `time` rounds to a later one.
    while ((await databaseNow()).getTime() <= Date.parse(time) + 1) {
      await new Promise(setImmediate);
    }
  }

  /** Back-office writes: SQL straight into the table, not through this service. */
  const setStatusInSql = (id: string, status: string) =>
    prisma.$executeRaw`UPDATE "Order" SET "status" = ${status}::"OrderStatus", "statusReason" = 'OTHER' WHERE "id" = ${id}::uuid`;

  beforeAll(async () => {
    const affiliate = await createUser();
    affiliateId = affiliate.id;
    ({ apiKey: syncKey } = await createApiKey('affiliate', { ownerId: affiliateId }));
    brandId = (await createBrand({ name: 'Sync Brand' })).id;
  });

  test('the database sets updatedAt on every write, whatever the writer says', async () => {
    const created = await createOrder(affiliateId, brandId, {
      updatedAt: new Date('2020-01-01T00:00:00Z'),
    });
    expect(created.updatedAt.getUTCFullYear()).toBeGreaterThan(2020);

    await clockPasses(created.updatedAt.toISOString());
    await prisma.$executeRaw`UPDATE "Order" SET "status" = 'APPROVED', "updatedAt" = '2020-01-01' WHERE "id" = ${created.id}::uuid`;
    const changed = await prisma.order.findUniqueOrThrow({ where: { id: created.id } });
    expect(changed.updatedAt.getTime()).toBeGreaterThan(created.updatedAt.getTime());
  });

  test('lists the orders changed at or after the time, oldest change first, in the meta envelope', async () => {
    const all = await changesSince('1970-01-01T00:00:00Z');
    const first = all.data[0]!;
    await clockPasses(all.data.at(-1)!.updatedAt);
    const later = await createOrder(affiliateId, brandId);
    await clockPasses(later.updatedAt.toISOString());
    await setStatusInSql(first.id, 'PAID');

    const since = await changesSince(later.updatedAt.toISOString());
    expect(since.data.map((order) => [order.id, order.status])).toEqual([
      [later.id, 'PENDING'],
      [first.id, 'PAID'],
    ]);
    expect(since.meta).toEqual({ total: 2, page: 1, limit: 10, totalPages: 1 });
  });

  test('a client that resumes from the last updatedAt it saw misses no change', async () => {
    for (let n = 0; n < 5; n += 1) await createOrder(affiliateId, brandId);
    const seen = new Map<string, string>();
    let cursor = '1970-01-01T00:00:00Z';
    // One sync: every page of the changes since the cursor, then the cursor moves to the last one.
    const sync = async () => {
      let last = cursor;
      for (let page = 1; ; page += 1) {
        const { data } = await changesSince(cursor, `&limit=2&page=${page}`);
        for (const order of data) seen.set(order.id, order.status);
        last = data.at(-1)?.updatedAt ?? last;
        if (data.length < 2) break;
      }
      cursor = last;
    };

    await sync();
    const everyOrder = await prisma.order.findMany({ where: { affiliateId } });
    expect(seen.size).toBe(everyOrder.length);

    const changed = everyOrder[2]!;
    await clockPasses(cursor);
    await setStatusInSql(changed.id, 'REJECTED');
    await sync();
    expect(seen.get(changed.id)).toBe('REJECTED');
    expect([...seen.entries()].sort()).toEqual(
      (await prisma.order.findMany({ where: { affiliateId } }))
        .map((order) => [order.id, order.status])
        .sort(),
    );
  });

  test('is sorted by updatedAt, then id, on every page', async () => {
    const { data } = await changesSince('1970-01-01T00:00:00Z', '&limit=100');
    const keys = data.map((order) => [order.updatedAt, order.id].join(' '));
    expect(keys).toEqual([...keys].sort());
  });
});

describe('GET /affiliate/orders/{orderId}', () => {
  test('answers { data: order }', async () => {
    const { status, body } = await get(`/affiliate/orders/${orders.march!.id}`);
    expect(status).toBe(200);
    expect(body).toEqual({ data: MARCH_ORDER() });
  });

  test('an upper-case id finds the same order', async () => {
    const { status, body } = await get(`/affiliate/orders/${orders.june!.id.toUpperCase()}`);
    expect(status).toBe(200);
    expect(body.data.id).toBe(orders.june!.id);
  });

  test.each(['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1'%20OR%20'1'='1"])(
    'answers 404 in both error shapes for %s',
    async (orderId) => {
      const { status, body } = await get(`/affiliate/orders/${orderId}`);
      expectError({ status, body }, 'NOT_FOUND');
    },
  );
});

describe('tenant isolation', () => {
  test("another affiliate's key lists only its own orders", async () => {
    const { body } = await get('/affiliate/orders?limit=100', otherKey);
    expect(ids(body)).toEqual(idsOf('others'));
    expect(body.meta.total).toBe(1);
  });

  test("an affiliate's list never holds another's orders, even matching every filter", async () => {
    const { body } = await get(
      `/affiliate/orders?search=AB-9999&organizationId=${brands.shoes!.id}&status=APPROVED`,
    );
    expect(body).toEqual({
      data: [],
      meta: { total: 0, page: 1, limit: 10, totalPages: 0 },
      finalThrough: expect.any(String),
    });
  });

  test("another affiliate's order by id is not found, both ways", async () => {
    expect((await get(`/affiliate/orders/${orders.others!.id}`)).status).toBe(404);
    expect((await get(`/affiliate/orders/${orders.march!.id}`, otherKey)).status).toBe(404);
  });

  test('the where-clause always carries the affiliate', () => {
    expect(affiliateOrderWhere('a', {})).toEqual({ affiliateId: 'a' });
    expect(affiliateOrderWhere('a', { organizationId: 'b', search: 'x' })).toMatchObject({
      affiliateId: 'a',
    });
  });
});

describe('a closed affiliate account', () => {
  test('a key of a closed affiliate account answers 404 (affiliate not found)', async () => {
    const closed = await createUser();
    const { apiKey } = await createApiKey('affiliate', { ownerId: closed.id });
    await prisma.user.update({ where: { id: closed.id }, data: { deletedAt: new Date() } });
    const { status, body } = await get('/affiliate/orders', apiKey);
    expect(status).toBe(404);
    expect(body.message).toBe('Affiliate not found');
  });
});

describe('GraphQL answers what REST answers', () => {
  test('affiliateOrders', async () => {
    const rest = await get('/affiliate/orders?status=APPROVED,PAID&limit=1&page=2');
    const { body } = await graphql(
      `
        query ($status: [OrderStatus!]) {
          affiliateOrders(status: $status, limit: 1, page: 2) {
            data {
              id
              orderNumber
              organizationId
              organization {
                id
                name
                logoUrl
              }
              status
              currency
              transactionValue
              commissionRate
              earnings
              items {
                productId
                sku
                name
                quantity
                unitPrice
                total
                commissionRate
                commissionValue
              }
              shortUrlCode
              channelId
              sub1
              sub2
              sub3
              sub4
              sub5
              couponCode
              campaignId
              attribution
              orderedAt
              updatedAt
              statusReason
              statusNote
              originalSaleAmount
              originalEarnings
              adjusted
              locksAt
              lockedAt
              isFinal
              heldReason
              heldNote
              payoutId
              payoutStatus
              paidAt
            }
            meta {
              total
              page
              limit
              totalPages
            }
            finalThrough
          }
        }
      `,
      { status: ['APPROVED', 'PAID'] },
      { key },
    );
    expect(rest.body.data[0]).toEqual(MARCH_ORDER());
    // The watermark moves with the clock (docs/order-lifecycle.md).
    expect(body.data.affiliateOrders).toEqual({ ...rest.body, finalThrough: expect.any(String) });
  });

  test('affiliateOrder answers NOT_FOUND for another affiliate', async () => {
    const { body } = await graphql(
      'query ($id: ID!) { affiliateOrder(orderId: $id) { data { id } } }',
      { id: orders.others!.id },
      { key },
    );
    expect(body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
