// Deep pages (offset >= FIND_IDS_FROM_OFFSET) are found by their ids first: they must hold exactly
// the rows, in exactly the order, that the list has at that offset, ties on the sort key included.
import { prisma } from '../src/db';
import { FIND_IDS_FROM_OFFSET } from '../src/schema/pagination';
import { call, useTestDatabase } from './support/app';
import { createApiKey, createBrand, createUser } from './support/factories';

useTestDatabase();

const ROWS = FIND_IDS_FROM_OFFSET + 150;
let key: string;
let otherKey: string;

const at = (i: number) => new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 3) * 60_000); // ties of 3

beforeAll(async () => {
  const affiliate = await createUser();
  const other = await createUser();
  ({ apiKey: key } = await createApiKey('affiliate', { ownerId: affiliate.id }));
  ({ apiKey: otherKey } = await createApiKey('affiliate', { ownerId: other.id }));
  const brand = await createBrand({ name: 'Deep Brand' });
  const rows = Array.from({ length: ROWS }, (_, i) => i);
  await prisma.order.createMany({
    data: rows.map((i) => ({
      orderNumber: `DEEP-${i}`,
      affiliateId: affiliate.id,
      organizationId: brand.id,
      status: 'APPROVED' as const,
      currency: 'EUR',
      transactionValueMinor: 1000,
      commissionRateBps: 500,
      earningsMinor: 50,
      orderedAt: at(i),
    })),
  });
  await prisma.shortUrl.createMany({
    data: rows.map((i) => ({
      affiliateId: affiliate.id,
      organizationId: brand.id,
      urlCode: `dp${String(i).padStart(6, '0')}`,
      linkType: 'BrandPage' as const,
      originalUrl: `https://deep.example/${i}`,
      dedupeKey: `deep-${i}`,
      createdAt: at(i),
    })),
  });
});

type Row = Record<string, string>;

describe.each([
  {
    list: '/affiliate/orders',
    field: 'id',
    expected: () =>
      prisma.order.findMany({
        where: { orderNumber: { startsWith: 'DEEP-' } },
        orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
        select: { id: true },
      }),
  },
  {
    list: '/affiliate/shortener/urls',
    field: 'urlCode',
    expected: () =>
      prisma.shortUrl.findMany({
        where: { dedupeKey: { startsWith: 'deep-' } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        select: { urlCode: true },
      }),
  },
])('GET $list, deep pages', ({ list, field, expected }) => {
  test.each([
    { page: FIND_IDS_FROM_OFFSET / 100, limit: 100 }, // the last page read by offset
    { page: FIND_IDS_FROM_OFFSET / 100 + 1, limit: 100 }, // the first found by ids
    { page: FIND_IDS_FROM_OFFSET / 50 + 3, limit: 50 }, // partly past the end
    { page: FIND_IDS_FROM_OFFSET / 10 + 16, limit: 10 }, // past the end: empty
  ])('page $page, limit $limit: the same rows in the same order as the list', async (query) => {
    const all = (await expected()).map((row: Row) => row[field]);
    const { status, body } = await call(`${list}?page=${query.page}&limit=${query.limit}`, { key });
    expect(status).toBe(200);
    const skip = (query.page - 1) * query.limit;
    expect(body.data.map((row: Row) => row[field])).toEqual(all.slice(skip, skip + query.limit));
  });

  test("another affiliate's deep page holds none of these rows", async () => {
    const page = FIND_IDS_FROM_OFFSET / 100 + 1;
    const { status, body } = await call(`${list}?page=${page}&limit=100`, { key: otherKey });
    expect(status).toBe(200);
    expect(body.data).toEqual([]);
  });
});
