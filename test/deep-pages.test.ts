// Deep pages (offset >= FIND_IDS_FROM_OFFSET) are found by their ids first: they must hold exactly
// the rows, in exactly the order, that the list has at that offset, ties on the sort key included,
// and nothing the list leaves out (another affiliate's rows, hidden brands and their catalog).
import { prisma } from '../src/platform/db';
import { affiliateBrandWhere } from '../src/modules/catalog/affiliateBrands';
import { BRAND_ORDER, brandListWhere } from '../src/modules/catalog/brands';
import { CAMPAIGN_ORDER, campaignWhere } from '../src/modules/catalog/campaigns/common';
import { FIND_IDS_FROM_OFFSET } from '../src/schema/lists';
import { PRODUCT_ORDER, productWhere } from '../src/modules/catalog/products';
import { call, useTestDatabase } from './support/app';
import { createApiKey, createBrand, createUser, VISIBLE } from './support/factories';

useTestDatabase();

const ROWS = FIND_IDS_FROM_OFFSET + 150;
let key: string;
let otherKey: string;
let partnerKey: string;
let affiliateId: string;

const at = (i: number) => new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 3) * 60_000); // ties of 3

beforeAll(async () => {
  const affiliate = await createUser();
  const other = await createUser();
  affiliateId = affiliate.id;
  ({ apiKey: key } = await createApiKey('affiliate', { ownerId: affiliate.id }));
  ({ apiKey: otherKey } = await createApiKey('affiliate', { ownerId: other.id }));
  ({ apiKey: partnerKey } = await createApiKey('partner'));
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

  // A catalog with ties on every sort key, every tenth brand hidden: its campaigns and products
  // sit between visible ones in the list order, so a deep page must skip them exactly as OFFSET does.
  const brands = await prisma.organization.createManyAndReturn({
    data: rows.map((i) => ({
      name: `Catalog ${String(Math.floor(i / 3)).padStart(4, '0')}`, // ties of 3
      slug: `catalog-${i}`,
      categories: [],
      ...VISIBLE,
      isVisible: i % 10 !== 0,
    })),
    select: { id: true },
  });
  await prisma.campaign.createMany({
    data: rows.map((i) => ({
      organizationId: brands[i]!.id,
      name: `Deep campaign ${i}`,
      type: 'Offer' as const,
      offerType: 'Url' as const,
      url: `https://deep.example/c/${i}`,
      categories: [],
      startAt: new Date(Date.UTC(2025, 0, 1)),
      endAt: new Date(Date.UTC(2099, 0, 1)),
      createdAt: at(i),
    })),
  });
  await prisma.product.createMany({
    data: rows.map((i) => ({
      organizationId: brands[i]!.id,
      name: `Deep product ${i}`,
      sku: `DEEP-${i}`,
      url: `https://deep.example/p/${i}`,
      priceMinor: 1000,
      currency: 'EUR',
      stock: 1,
      images: [],
      categories: [],
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
  {
    list: '/api/partner/organizations',
    field: 'id',
    keyOf: () => partnerKey,
    expected: () =>
      prisma.organization.findMany({ where: VISIBLE, orderBy: BRAND_ORDER, select: { id: true } }),
  },
  {
    list: '/api/partner/brands',
    field: 'id',
    keyOf: () => partnerKey,
    maxLimit: 20,
    expected: () =>
      prisma.organization.findMany({
        where: brandListWhere({}),
        orderBy: BRAND_ORDER,
        select: { id: true },
      }),
  },
  {
    list: '/affiliate/brands',
    field: 'id',
    maxLimit: 20,
    expected: () =>
      prisma.organization.findMany({
        where: affiliateBrandWhere({}, affiliateId),
        orderBy: BRAND_ORDER,
        select: { id: true },
      }),
  },
  ...['/api/partner/campaigns', '/affiliate/campaigns'].map((list) => ({
    list,
    field: 'id',
    keyOf: () => (list.startsWith('/api/partner') ? partnerKey : key),
    maxLimit: 20,
    expected: () =>
      prisma.campaign.findMany({
        where: campaignWhere({}, new Date()),
        orderBy: CAMPAIGN_ORDER,
        select: { id: true },
      }),
  })),
  {
    list: '/affiliate/products',
    field: 'id',
    expected: () =>
      prisma.product.findMany({
        where: productWhere({}),
        orderBy: PRODUCT_ORDER,
        select: { id: true },
      }),
  },
])('GET $list, deep pages', ({ list, field, expected, keyOf = () => key, maxLimit = 100 }) => {
  const limit = Math.min(100, maxLimit);
  const lastPage = (total: number) => Math.ceil(total / limit);
  test.each([
    { slice: 'the last page read by offset', page: () => FIND_IDS_FROM_OFFSET / limit },
    { slice: 'the first page found by ids', page: () => FIND_IDS_FROM_OFFSET / limit + 1 },
    { slice: 'the last page, partly filled', page: lastPage },
    { slice: 'a page past the end (empty)', page: (total: number) => lastPage(total) + 1 },
  ])('$slice: the same rows in the same order as the list', async ({ page }) => {
    const all = (await expected()).map((row: Row) => row[field]);
    expect(all.length % limit).not.toBe(0); // so that the last page is partly filled
    const { status, body } = await call(`${list}?page=${page(all.length)}&limit=${limit}`, {
      key: keyOf(),
    });
    expect(status).toBe(200);
    const skip = (page(all.length) - 1) * limit;
    expect(body.data.map((row: Row) => row[field])).toEqual(all.slice(skip, skip + limit));
  });
});

test.each(['/affiliate/orders', '/affiliate/shortener/urls'])(
  "GET %s: another affiliate's deep page holds none of these rows",
  async (list) => {
    const page = FIND_IDS_FROM_OFFSET / 100 + 1;
    const { status, body } = await call(`${list}?page=${page}&limit=100`, { key: otherKey });
    expect(status).toBe(200);
    expect(body.data).toEqual([]);
  },
);
