// GET /affiliate/reports/performance against docs/decisions.md ("Reports"): clicks, orders and
// earnings by day, brand, campaign and link, per currency; every day of the period; local days;
// filters; parameter rules; only the key's affiliate; CSV; GraphQL; and sums equal to the orders
// route and the links' counters, also after orders change.
import { isEmbeddedDatabase, prisma } from '../../src/platform/db';
import { fromMinor } from '../../src/platform/currencies';
import { shortUrlOf } from '../../src/modules/links/links';
import { app, call, graphql, refusesParameters, useTestDatabase } from '../support/app';
import {
  clickCountOf,
  createAffiliate,
  createApiKey,
  createBrand,
  createCampaign,
  createLink,
  createOrder,
  recordClicks,
} from '../support/factories';
import { holdLock, untilWaitingForLocks } from '../support/locks';
import { booksEur, earningsByStatus, reportRow } from '../support/reportRows';

useTestDatabase();

const REPORT = '/affiliate/reports/performance';
const onPostgres = isEmbeddedDatabase ? test.skip : test;
/** 1 to 3 March 2026, UTC. */
const MARCH = 'startAt=2026-03-01T00:00:00Z&endAt=2026-03-04T00:00:00Z';

type Link = Awaited<ReturnType<typeof createLink>>;

/**
 * An affiliate selling two brands: Aurora Shoes, with its campaign Spring Sale and an Offer link
 * to it, and Chapter Books, with a Custom link.
 */
async function createShop() {
  const { affiliateId, apiKey } = await createAffiliate();
  const shoes = await createBrand({ name: 'Aurora Shoes' });
  const books = await createBrand({ name: 'Chapter Books' });
  const campaign = await createCampaign(shoes.id, { name: 'Spring Sale' });
  const links = {
    sale: await createLink(affiliateId, shoes.id, { campaignId: campaign.id, linkType: 'Offer' }),
    books: await createLink(affiliateId, books.id),
  };
  return { affiliateId, apiKey, brands: { shoes, books }, campaign, links };
}

/**
 * An order of an affiliate at a brand, through the link when `via` is one; amounts in major
 * units, as the report shows them (100 and 5 unless given).
 */
function createOrderVia(
  via: { affiliateId: string; organizationId: string; urlCode?: string },
  {
    at,
    value = 100,
    earnings = 5,
    ...data
  }: {
    at: Date | string;
    status?: 'PENDING' | 'APPROVED' | 'PAID' | 'REJECTED';
    currency?: string;
    value?: number;
    earnings?: number;
  },
) {
  return createOrder(via.affiliateId, via.organizationId, {
    ...data,
    shortUrlCode: via.urlCode ?? null,
    transactionValueMinor: Math.round(value * 100),
    earningsMinor: Math.round(earnings * 100),
    orderedAt: new Date(at),
  });
}

/** The report for `query`, asked with the March shop's key unless `as` names another. */
const report = (query: string, options: { as?: string; headers?: Record<string, string> } = {}) =>
  call(`${REPORT}?${query}`, { key: options.as ?? shop.apiKey, headers: options.headers });

/** The report for `query` as CSV, asked with the March shop's key. */
const reportCsv = (query: string) =>
  app.fetch(`http://api.test${REPORT}?${query}`, {
    headers: { 'x-api-key': shop.apiKey, accept: 'text/csv' },
  });

/**
 * The March shop: on the sale link an approved EUR order and a pending USD one (23:30 UTC) on 1
 * March with 40 clicks (5 repeats, 3 bots); on the books link a rejected order and 10 clicks (1
 * repeat) on 3 March, and a paid Chapter Books order without a link; nothing on 2 March. Another
 * affiliate has an order and clicks on the same days and brand.
 */
let shop: Awaited<ReturnType<typeof createShop>>;

beforeAll(async () => {
  shop = await createShop();
  const { links, brands } = shop;
  const withoutLink = { affiliateId: shop.affiliateId, organizationId: brands.books.id };
  const orders = [
    // via, at, status, currency, value, earnings
    [links.sale, '2026-03-01T10:15:00Z', 'APPROVED', 'EUR', 100, 5],
    [links.sale, '2026-03-01T23:30:00Z', 'PENDING', 'USD', 200, 10],
    [links.books, '2026-03-03T08:00:00Z', 'REJECTED', 'EUR', 50, 2.5],
    [withoutLink, '2026-03-03T09:00:00Z', 'PAID', 'EUR', 30, 1.5],
  ] as const;
  for (const [via, at, status, currency, value, earnings] of orders) {
    await createOrderVia(via, { at, status, currency, value, earnings });
  }
  await recordClicks(links.sale, new Date('2026-03-01T10:00:00Z'), {
    clicks: 40,
    repeats: 5,
    bots: 3,
  });
  await recordClicks(links.books, new Date('2026-03-03T08:00:00Z'), { clicks: 10, repeats: 1 });

  const other = await createAffiliate();
  const otherLink = await createLink(other.affiliateId, brands.shoes.id);
  await createOrderVia(
    { affiliateId: other.affiliateId, organizationId: brands.shoes.id },
    { at: '2026-03-01T12:00:00Z' },
  );
  await recordClicks(otherLink, new Date('2026-03-01T12:00:00Z'), { clicks: 7 });
});

/** The March shop's rows by currency: the sale link's (1 March), both Chapter Books orders (3 March). */
const sale = { clicks: 40, repeatClicks: 5, botClicks: 3, orders: 1, conversionRate: 0.025 };
const saleEur = {
  ...sale,
  currency: 'EUR',
  transactionValue: 100,
  earnings: 5,
  earningsByStatus: earningsByStatus({ APPROVED: 5 }),
  epc: 0.125,
};
const saleUsd = {
  ...sale,
  currency: 'USD',
  transactionValue: 200,
  earnings: 10,
  earningsByStatus: earningsByStatus({ PENDING: 10 }),
  epc: 0.25,
};

describe('groupBy=day', () => {
  test('every day of the period, one row per currency, a day without activity as zeros', async () => {
    const answer = await report(`groupBy=day&${MARCH}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: [
        reportRow({ date: '2026-03-01', ...saleEur }),
        reportRow({ date: '2026-03-01', ...saleUsd }),
        reportRow({ date: '2026-03-02' }),
        reportRow({ date: '2026-03-03', ...booksEur }),
      ],
      meta: { total: 4, page: 1, limit: 31, totalPages: 1 },
    });
  });

  test('timezone=Europe/Berlin: days are local (an order at 23:30 UTC is the next day there)', async () => {
    const answer = await report(
      'groupBy=day&timezone=Europe/Berlin&startAt=2026-03-01T00:00:00%2B01:00&endAt=2026-03-04T00:00:00%2B01:00',
    );
    expect(
      answer.body.data.map((r: { date: string; currency: string }) => [r.date, r.currency]),
    ).toEqual([
      ['2026-03-01', 'EUR'],
      ['2026-03-02', 'USD'],
      ['2026-03-03', 'EUR'],
    ]);
  });

  test('organizationId narrows to one brand, its clicks and its orders', async () => {
    const answer = await report(`groupBy=day&organizationId=${shop.brands.books.id}&${MARCH}`);
    expect(
      answer.body.data.map(
        (r: { date: string; currency: string; clicks: number; orders: number }) => [
          r.date,
          r.currency,
          r.clicks,
          r.orders,
        ],
      ),
    ).toEqual([
      ['2026-03-01', null, 0, 0],
      ['2026-03-02', null, 0, 0],
      ['2026-03-03', 'EUR', 10, 2],
    ]);
  });

  test('campaignId narrows to the orders and clicks of its links', async () => {
    const answer = await report(`groupBy=day&campaignId=${shop.campaign.id}&${MARCH}`);
    expect(answer.body.data).toEqual([
      reportRow({ date: '2026-03-01', ...saleEur }),
      reportRow({ date: '2026-03-01', ...saleUsd }),
      reportRow({ date: '2026-03-02' }),
      reportRow({ date: '2026-03-03' }),
    ]);
  });

  test('pages count rows: limit=2 answers the first two and totalPages 2', async () => {
    const answer = await report(`groupBy=day&${MARCH}&limit=2&page=2`);
    expect(answer.body.data.map((r: { date: string }) => r.date)).toEqual([
      '2026-03-02',
      '2026-03-03',
    ]);
    expect(answer.body.meta).toEqual({ total: 4, page: 2, limit: 2, totalPages: 2 });
  });

  test('a page past the last answers no rows and the total', async () => {
    const answer = await report(`groupBy=day&${MARCH}&page=3&limit=2`);
    expect(answer.body).toEqual({ data: [], meta: { total: 4, page: 3, limit: 2, totalPages: 2 } });
  });

  test('without startAt and endAt: the last 30 days, today included', async () => {
    const answer = await report('groupBy=day');
    expect(answer.status).toBe(200);
    const dates = answer.body.data.map((r: { date: string }) => r.date);
    // 30 days of hours up to the end of this hour: 31 days, or 30 from 23:00 UTC on.
    const endOfHour = (Math.floor(Date.now() / 3_600_000) + 1) * 3_600_000;
    expect(dates[0]).toBe(new Date(endOfHour - 30 * 86_400_000).toISOString().slice(0, 10));
    expect(dates.at(-1)).toBe(new Date().toISOString().slice(0, 10));
    expect(new Set(dates).size).toBe(dates.length);
  });
});

describe('groupBy=brand, campaign, link', () => {
  test('brand: the brand and its name, a row per currency, busiest first', async () => {
    const answer = await report(`groupBy=brand&${MARCH}`);
    const shoes = { organizationId: shop.brands.shoes.id, organizationName: 'Aurora Shoes' };
    const books = { organizationId: shop.brands.books.id, organizationName: 'Chapter Books' };
    expect(answer.body).toEqual({
      data: [
        reportRow({ ...shoes, ...saleEur }),
        reportRow({ ...shoes, ...saleUsd }),
        reportRow({ ...books, ...booksEur }),
      ],
      meta: { total: 3, page: 1, limit: 31, totalPages: 1 },
    });
  });

  test("campaign: the link's campaign; links to no campaign and orders without a link under null", async () => {
    const answer = await report(`groupBy=campaign&${MARCH}`);
    const spring = { campaignId: shop.campaign.id, campaignName: 'Spring Sale' };
    expect(answer.body.data).toEqual([
      reportRow({ ...spring, ...saleEur }),
      reportRow({ ...spring, ...saleUsd }),
      reportRow(booksEur),
    ]);
  });

  test('brands and campaigns as busy as each other: in the order of their ids', async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const brands = [];
    const campaigns = [];
    for (const name of ['Tie One', 'Tie Two', 'Tie Three', 'Tie Four', 'Tie Five']) {
      const brand = await createBrand({ name });
      const campaign = await createCampaign(brand.id, { name });
      const link = await createLink(affiliateId, brand.id, { campaignId: campaign.id });
      await recordClicks(link, new Date('2026-03-02T10:00:00Z'), { clicks: 4 });
      brands.push(brand.id);
      campaigns.push(campaign.id);
    }
    const ids = async (groupBy: string, field: string) =>
      (await report(`groupBy=${groupBy}&${MARCH}`, { as: apiKey })).body.data.map(
        (row: Record<string, string>) => row[field],
      );
    expect(await ids('brand', 'organizationId')).toEqual([...brands].sort());
    expect(await ids('campaign', 'campaignId')).toEqual([...campaigns].sort());
  });

  test('link: the code and its short URL; orders without a link under null', async () => {
    const answer = await report(`groupBy=link&${MARCH}`);
    const link = ({ urlCode }: Link) => ({ urlCode, shortUrl: shortUrlOf(urlCode) });
    expect(answer.body.data).toEqual([
      reportRow({ ...link(shop.links.sale), ...saleEur }),
      reportRow({ ...link(shop.links.sale), ...saleUsd }),
      reportRow({
        ...link(shop.links.books),
        ...booksEur,
        orders: 1,
        transactionValue: 50,
        earnings: 0,
        earningsByStatus: earningsByStatus({ REJECTED: 2.5 }),
        conversionRate: 0.1,
        epc: 0,
      }),
      reportRow({
        currency: 'EUR',
        orders: 1,
        transactionValue: 30,
        earnings: 1.5,
        earningsByStatus: earningsByStatus({ PAID: 1.5 }),
      }),
    ]);
  });
});

describe('dateType: the order date the period reads', () => {
  // The March shop's orders were recorded today: their updatedAt is today.
  const noOrders = { conversionRate: 0, epc: 0 };
  const today = () => `startAt=${new Date(Date.now() - 86_400_000).toISOString()}`;
  const books = () => ({
    organizationId: shop.brands.books.id,
    organizationName: 'Chapter Books',
    currency: 'EUR',
    orders: 2,
    transactionValue: 80,
    earnings: 1.5,
    earningsByStatus: earningsByStatus({ PAID: 1.5, REJECTED: 2.5 }),
  });
  const shoes = () => ({
    organizationId: shop.brands.shoes.id,
    organizationName: 'Aurora Shoes',
    orders: 1,
  });

  test('dateType=updated: the orders changed today, by brand; no clicks were made today', async () => {
    const { status, body } = await report(`groupBy=brand&dateType=updated&${today()}`);
    expect(status).toBe(200);
    expect(body.data).toEqual([
      reportRow({ ...books() }),
      reportRow({
        ...shoes(),
        currency: 'EUR',
        transactionValue: 100,
        earnings: 5,
        earningsByStatus: earningsByStatus({ APPROVED: 5 }),
      }),
      reportRow({
        ...shoes(),
        currency: 'USD',
        transactionValue: 200,
        earnings: 10,
        earningsByStatus: earningsByStatus({ PENDING: 10 }),
      }),
    ]);
  });

  test('dateType=locked reads locksAt: the orders that lock next week', async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const brand = await createBrand({ name: 'Tenday Tea', orderLockDays: 10 });
    const day = 86_400_000;
    for (const daysAgo of [1, 2]) {
      await createOrder(affiliateId, brand.id, { orderedAt: new Date(Date.now() - daysAgo * day) });
    }
    const nextWeek = `startAt=${new Date(Date.now() + 7 * day).toISOString()}&endAt=${new Date(Date.now() + 10 * day).toISOString()}`;
    const locking = await report(`groupBy=brand&dateType=locked&${nextWeek}`, { as: apiKey });
    expect(locking.body.data).toEqual([
      reportRow({
        organizationId: brand.id,
        organizationName: 'Tenday Tea',
        currency: 'EUR',
        orders: 2,
        transactionValue: 200,
        earnings: 10,
        earningsByStatus: earningsByStatus({ PENDING: 10 }),
      }),
    ]);
    const ordered = await report(`groupBy=brand&${nextWeek}`, { as: apiKey });
    expect(ordered.body.data).toEqual([]);
  });

  test('dateType=ordered (the default) finds none of them today, and by update date March has its clicks only', async () => {
    const ordered = await report(`groupBy=brand&${today()}`);
    expect(ordered.body.data).toEqual([]);
    const march = await report(`groupBy=brand&dateType=updated&${MARCH}`);
    expect(march.body.data).toEqual([
      reportRow({ ...noOrders, ...shoes(), orders: 0, clicks: 40, repeatClicks: 5, botClicks: 3 }),
      reportRow({
        ...noOrders,
        organizationId: shop.brands.books.id,
        organizationName: 'Chapter Books',
        clicks: 10,
        repeatClicks: 1,
      }),
    ]);
  });

  test('by sub-ID: the values of the orders changed in the period, values that are no sub-ID together', async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const brand = await createBrand();
    const orderWith = (sub1: string | null) =>
      createOrder(affiliateId, brand.id, { sub1, orderedAt: new Date('2026-03-01T10:00:00Z') });
    for (const sub1 of ['newsletter', 'newsletter', 'has space', null]) await orderWith(sub1);
    const { body } = await report(`groupBy=sub1&dateType=updated&${today()}`, { as: apiKey });
    const rows = body.data.map((row: { subId: string | null; orders: number }) => [
      row.subId,
      row.orders,
    ]);
    expect(rows).toEqual([
      ['newsletter', 2],
      [null, 1],
      ['(other values)', 1],
    ]);
  });

  test('on GraphQL a year by brand by another order date exceeds one operation; a quarter answers', async () => {
    const now = Date.now();
    const byUpdateDate = (days: number) =>
      graphql(
        `
          query ($startAt: DateTime, $endAt: DateTime) {
            affiliatePerformanceReport(
              groupBy: brand
              dateType: updated
              startAt: $startAt
              endAt: $endAt
            ) {
              meta {
                total
              }
            }
          }
        `,
        {
          startAt: new Date(now - days * 86_400_000).toISOString(),
          endAt: new Date(now + 3_600_000).toISOString(),
        },
        { key: shop.apiKey },
      );
    const year = await byUpdateDate(365);
    expect(year.body.errors[0].message).toMatch(/Operation cost limit of \d+ exceeded/);
    const quarter = await byUpdateDate(90);
    expect(quarter.body.errors).toBeUndefined();
    // Chapter Books in EUR, Aurora Shoes in EUR and USD: the March orders were recorded today.
    expect(quarter.body.data.affiliatePerformanceReport.meta.total).toBe(3);
  });

  test.each([
    ['updated', 'updatedAt'],
    ['locked', 'locksAt'],
  ] as const)(
    'by day, dateType=%s: each day equals the orders counted directly by %s, also after orders move, change and go',
    async (dateType, column) => {
      const day = 86_400_000;
      const { affiliateId, apiKey } = await createAffiliate();
      const brand = await createBrand({ orderLockDays: 10 });
      const orders = [];
      for (const [daysAgo, currency, status] of [
        [1, 'EUR', 'PENDING'],
        [3, 'EUR', 'APPROVED'],
        [3, 'USD', 'PENDING'],
        [6, 'JPY', 'PENDING'],
        [8, 'EUR', 'PENDING'],
      ] as const) {
        const orderedAt = new Date(Date.now() - daysAgo * day);
        orders.push(await createOrder(affiliateId, brand.id, { orderedAt, currency, status }));
      }
      // Moved four days earlier (its lock date with it), approved, deleted.
      await prisma.order.update({
        where: { id: orders[0]!.id },
        data: { orderedAt: new Date(Date.now() - 5 * day) },
      });
      await prisma.order.update({ where: { id: orders[2]!.id }, data: { status: 'APPROVED' } });
      await prisma.order.delete({ where: { id: orders[4]!.id } });

      const period = `startAt=${new Date(Date.now() - 20 * day).toISOString()}&endAt=${new Date(Date.now() + 20 * day).toISOString()}`;
      const { body } = await report(`groupBy=day&dateType=${dateType}&${period}&limit=366`, {
        as: apiKey,
      });
      const reported = (
        body.data as {
          date: string;
          currency: string | null;
          orders: number;
          transactionValue: number;
          earningsByStatus: Record<string, number>;
        }[]
      )
        .filter((row) => row.currency !== null)
        .map((row) => ({
          date: row.date,
          currency: row.currency,
          orders: row.orders,
          transactionValue: row.transactionValue,
          earningsByStatus: row.earningsByStatus,
        }));
      const direct = new Map<string, (typeof reported)[number]>();
      for (const order of await prisma.order.findMany({ where: { affiliateId } })) {
        const date = order[column].toISOString().slice(0, 10);
        const row = direct.get(`${date} ${order.currency}`) ?? {
          date,
          currency: order.currency,
          orders: 0,
          transactionValue: 0,
          earningsByStatus: earningsByStatus({}),
        };
        row.orders += 1;
        row.transactionValue += fromMinor(order.transactionValueMinor, order.currency);
        row.earningsByStatus[order.status] += fromMinor(order.earningsMinor, order.currency);
        direct.set(`${date} ${order.currency}`, row);
      }
      expect(reported).toHaveLength(dateType === 'updated' ? 3 : 4);
      expect(reported).toEqual(
        [...direct.values()].sort(
          (a, b) => a.date.localeCompare(b.date) || a.currency!.localeCompare(b.currency!),
        ),
      );
    },
  );
});

describe('time zones', () => {
  test('timezone=Asia/Kolkata (+05:30): an hour counts for the local day holding its middle', async () => {
    const owl = await createAffiliate();
    const brand = await createBrand();
    // 23:40 on 1 March in Kolkata, in the UTC hour 18:00-19:00 (23:30-00:30 there).
    await createOrderVia(
      { affiliateId: owl.affiliateId, organizationId: brand.id },
      { at: '2026-03-01T18:10:00Z' },
    );
    const answer = await report(
      'groupBy=day&timezone=Asia/Kolkata&startAt=2026-03-01T00:00:00%2B05:30&endAt=2026-03-03T00:00:00%2B05:30',
      { as: owl.apiKey },
    );
    expect(
      answer.body.data.map((r: { date: string; orders: number }) => [r.date, r.orders]),
    ).toEqual([
      ['2026-03-01', 0],
      ['2026-03-02', 1],
    ]);
  });
});

describe('parameters', () => {
  refusesParameters(report, [
    ['', 'groupBy'],
    ['groupBy=week', 'groupBy'],
    ['groupBy=day&timezone=Mars/Olympus', 'timezone'],
    ['groupBy=day&timezone=%2B05:30', 'timezone'],
    ['groupBy=day&startAt=2026-03-04T00:00:00Z&endAt=2026-03-01T00:00:00Z', 'startAt'],
    ['groupBy=day&startAt=2025-01-01T00:00:00Z&endAt=2026-01-03T00:00:00Z', '366 days'],
    ['groupBy=day&startAt=yesterday', 'startAt'],
    ['groupBy=day&organizationId=abc', 'organizationId'],
    ['groupBy=day&campaignId=abc', 'campaignId'],
  ]);

  test('366 days are allowed; limit above 366 is clamped', async () => {
    const answer = await report(
      'groupBy=day&startAt=2025-03-01T00:00:00Z&endAt=2026-03-02T00:00:00Z&limit=1000',
    );
    expect(answer.status).toBe(200);
    expect(answer.body.meta).toMatchObject({ limit: 366, total: 367, totalPages: 2 });
  });
});

describe('access', () => {
  test("another affiliate's brand filter finds only the key's own rows", async () => {
    const answer = await report(`groupBy=brand&${MARCH}`);
    const total = answer.body.data.reduce(
      (sum: number, r: { orders: number }) => sum + r.orders,
      0,
    );
    expect(total).toBe(4);
  });
});

describe('Accept: text/csv', () => {
  test('answers the same rows as CSV with a header row and the total in X-Total-Count', async () => {
    const response = await reportCsv(`groupBy=day&${MARCH}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(response.headers.get('x-total-count')).toBe('4');
    expect(response.headers.get('vary')).toBe('Accept');
    expect((await response.text()).split('\r\n')).toEqual([
      '"date","organizationId","organizationName","campaignId","campaignName","urlCode","shortUrl","subId","currency","clicks","repeatClicks","botClicks","orders","transactionValue","earnings","earningsByStatus.PENDING","earningsByStatus.APPROVED","earningsByStatus.PAID","earningsByStatus.REJECTED","ledger","conversionRate","epc","couponCode"',
      '"2026-03-01",,,,,,,,"EUR",40,5,3,1,100,5,0,5,0,0,0,0.025,0.125,',
      '"2026-03-01",,,,,,,,"USD",40,5,3,1,200,10,10,0,0,0,0,0.025,0.25,',
      '"2026-03-02",,,,,,,,,0,0,0,0,0,0,0,0,0,0,0,,,',
      '"2026-03-03",,,,,,,,"EUR",10,1,0,2,80,1.5,0,0,1.5,2.5,0,0.2,0.15,',
      '',
    ]);
  });

  test('brand names are quoted cells, and those a spreadsheet would run as formulas are neutralised', async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const names = ['Lumen;=1+1', '＝HYPERLINK("https://evil.example")', ' @SUM(A1)'];
    for (const name of names) {
      const brand = await createBrand({ name });
      await createOrderVia(
        { affiliateId, organizationId: brand.id },
        { at: '2026-03-01T10:00:00Z' },
      );
    }
    const response = await app.fetch(`http://api.test${REPORT}?groupBy=brand&${MARCH}`, {
      headers: { 'x-api-key': apiKey, accept: 'text/csv' },
    });
    const csv = await response.text();
    // Each brand's row holds its name as one cell: quoted, a formula after a `'`.
    for (const cell of [
      '"Lumen;=1+1"',
      '"\'＝HYPERLINK(""https://evil.example"")"',
      '"\' @SUM(A1)"',
    ]) {
      expect(csv).toContain(`,${cell},`);
    }
  });

  test('errors stay JSON', async () => {
    const response = await reportCsv('groupBy=week');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  test('JSON when the client prefers it', async () => {
    const answer = await report(`groupBy=day&${MARCH}`, {
      headers: { accept: 'application/json, text/csv;q=0.5' },
    });
    expect(answer.body.meta.total).toBe(4);
  });
});

test('GraphQL answers the same rows', async () => {
  const answer = await graphql(
    `
      query ($startAt: DateTime, $endAt: DateTime) {
        affiliatePerformanceReport(groupBy: brand, startAt: $startAt, endAt: $endAt) {
          data {
            organizationId
            currency
            clicks
            orders
            earnings
            epc
            earningsByStatus {
              PENDING
            }
          }
          meta {
            total
          }
        }
      }
    `,
    { startAt: '2026-03-01T00:00:00Z', endAt: '2026-03-04T00:00:00Z' },
    { key: shop.apiKey },
  );
  const rest = await report(`groupBy=brand&${MARCH}`);
  expect(answer.body.data.affiliatePerformanceReport).toEqual({
    data: rest.body.data.map(
      (r: {
        organizationId: string;
        currency: string;
        clicks: number;
        orders: number;
        earnings: number;
        epc: number;
        earningsByStatus: { PENDING: number };
      }) => ({
        organizationId: r.organizationId,
        currency: r.currency,
        clicks: r.clicks,
        orders: r.orders,
        earnings: r.earnings,
        epc: r.epc,
        earningsByStatus: { PENDING: r.earningsByStatus.PENDING },
      }),
    ),
    meta: { total: 3 },
  });
});

describe('sums', () => {
  const HOUR = 3_600_000;
  const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
  const BOT = 'Googlebot/2.1 (+http://www.google.com/bot.html)';

  /** A deterministic sequence in [0, 1). */
  function randomFrom(seed: number) {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state / 2 ** 31;
    };
  }

  const click = (urlCode: string, userAgent: string) =>
    app.fetch(`http://api.test/s/${urlCode}`, {
      headers: { 'user-agent': userAgent },
      redirect: 'manual',
    });

  type Totals = Record<
    string,
    { orders: number; value: number; earnings: number; rejected: number }
  >;
  const cents = (amount: number) => Math.round(amount * 100);

  function add(
    totals: Totals,
    currency: string,
    orders: number,
    value: number,
    earnings: number,
    rejected: number,
  ) {
    const sum = (totals[currency] ??= { orders: 0, value: 0, earnings: 0, rejected: 0 });
    sum.orders += orders;
    sum.value += cents(value);
    sum.earnings += cents(earnings);
    sum.rejected += cents(rejected);
  }

  interface ReportRow {
    date: string | null;
    urlCode: string | null;
    currency: string | null;
    clicks: number;
    orders: number;
    transactionValue: number;
    earnings: number;
    earningsByStatus: { REJECTED: number };
  }

  test('equal what GET /affiliate/orders and the links counters say, also after orders change', async () => {
    const busy = await createShop();
    const { shoes, books } = busy.brands;
    // The campaign's link, a second Aurora Shoes link outside the campaign, the Chapter Books link.
    const shopLinks = [
      busy.links.sale,
      await createLink(busy.affiliateId, shoes.id),
      busy.links.books,
    ];
    const random = randomFrom(42);

    // Clicks now: people, the same people again (repeats) and bots.
    for (let n = 0; n < 24; n += 1) {
      const link = shopLinks[n % 3]!;
      await click(link.urlCode, `${BROWSER} person/${n}`);
      if (n % 4 === 0) await click(link.urlCode, `${BROWSER} person/${n}`);
      if (n % 5 === 0) await click(link.urlCode, BOT);
    }

    const hourNow = Math.floor(Date.now() / HOUR) * HOUR;
    const start = new Date(hourNow - 12 * 24 * HOUR);
    const end = new Date(hourNow + HOUR);
    const statuses = ['PENDING', 'APPROVED', 'PAID', 'REJECTED'] as const;
    const orderIds: string[] = [];
    for (let n = 0; n < 60; n += 1) {
      const link = random() < 0.8 ? shopLinks[Math.floor(random() * 3)]! : undefined;
      const order = await createOrderVia(
        link ?? { affiliateId: busy.affiliateId, organizationId: books.id },
        {
          status: statuses[Math.floor(random() * 4)],
          currency: random() < 0.7 ? 'EUR' : 'USD',
          value: (1000 + Math.floor(random() * 50_000)) / 100,
          earnings: Math.floor(random() * 2_500) / 100,
          at: new Date(start.getTime() + Math.floor(random() * (Date.now() - start.getTime()))),
        },
      );
      orderIds.push(order.id);
    }

    // After the fact: status, amounts, time (some out of the period), link, deletions, and one
    // statement changing many rows.
    for (const [n, id] of orderIds.entries()) {
      if (n % 10 === 0) {
        await prisma.order.update({
          where: { id },
          data: { status: 'REJECTED', statusReason: 'OTHER' },
        });
      }
      if (n % 10 === 1) {
        await prisma.order.update({
          where: { id },
          data: {
            transactionValueMinor: 77_700,
            earningsMinor: 3_885,
            statusReason: 'AMOUNT_CORRECTED',
          },
        });
      }
      if (n % 10 === 2) {
        await prisma.order.update({
          where: { id },
          data: { orderedAt: new Date(start.getTime() - (n % 3) * 24 * HOUR + 30 * 60_000) },
        });
      }
      if (n % 10 === 3) await prisma.order.update({ where: { id }, data: { shortUrlCode: null } });
      if (n % 10 === 4) {
        await prisma.order.update({ where: { id }, data: { shortUrlCode: shopLinks[1]!.urlCode } });
      }
      if (n % 10 === 5) await prisma.order.delete({ where: { id } });
    }
    await prisma.$executeRaw`UPDATE "Order" SET "status" = 'APPROVED'
      WHERE "affiliateId" = ${busy.affiliateId}::uuid AND "status" = 'PENDING'`;

    // What the orders route says for the period (its endAt is inclusive).
    const period = `startAt=${start.toISOString()}&endAt=${new Date(end.getTime() - 1).toISOString()}`;
    const expected: Totals = {};
    const expectedByLink: Record<string, number> = {};
    for (let page = 1; ; page += 1) {
      const answer = await call(`/affiliate/orders?${period}&limit=100&page=${page}`, {
        key: busy.apiKey,
      });
      for (const order of answer.body.data) {
        const rejected = order.status === 'REJECTED';
        add(
          expected,
          order.currency,
          1,
          order.transactionValue,
          rejected ? 0 : order.earnings,
          rejected ? order.earnings : 0,
        );
        const code = order.shortUrlCode ?? '';
        expectedByLink[code] = (expectedByLink[code] ?? 0) + 1;
      }
      if (page >= answer.body.meta.totalPages) break;
    }
    expect(Object.keys(expected).sort()).toEqual(['EUR', 'USD']);

    const counters: Record<string, number> = Object.fromEntries(
      await Promise.all(
        shopLinks.map(async (link) => [link.urlCode, await clickCountOf(link.urlCode)] as const),
      ),
    );
    expect(Object.values(counters).reduce((sum, count) => sum + count, 0)).toBe(24);

    const reportPeriod = `startAt=${start.toISOString()}&endAt=${end.toISOString()}`;
    for (const groupBy of ['day', 'brand', 'campaign', 'link']) {
      const answer = await report(`groupBy=${groupBy}&${reportPeriod}&limit=366`, {
        as: busy.apiKey,
      });
      expect(answer.body.meta.totalPages).toBe(1);
      const rows = answer.body.data as ReportRow[];
      const reported: Totals = {};
      for (const r of rows.filter((r) => r.currency !== null)) {
        add(
          reported,
          r.currency!,
          r.orders,
          r.transactionValue,
          r.earnings,
          r.earningsByStatus.REJECTED,
        );
      }
      expect({ groupBy, totals: reported }).toEqual({ groupBy, totals: expected });
      // Clicks belong to the key: each of its currency rows shows them all.
      const clicksByKey = new Map(
        rows.map((r) => [JSON.stringify(r.date ?? r.urlCode ?? r), r.clicks]),
      );
      if (groupBy === 'day') {
        expect([...clicksByKey.values()].reduce((sum, clicks) => sum + clicks, 0)).toBe(24);
      }
      if (groupBy === 'link') {
        for (const [code, clicks] of Object.entries(counters)) {
          const linkRows = rows.filter((r) => r.urlCode === code);
          expect(linkRows.map((r) => r.clicks)).toEqual(linkRows.map(() => clicks));
        }
        const ordersByLink: Record<string, number> = {};
        for (const r of rows)
          ordersByLink[r.urlCode ?? ''] = (ordersByLink[r.urlCode ?? ''] ?? 0) + r.orders;
        expect(Object.fromEntries(Object.entries(ordersByLink).filter(([, n]) => n > 0))).toEqual(
          expectedByLink,
        );
      }
    }

    // Repeats and bots are kept beside the counted clicks.
    const today = await report(`groupBy=link&${reportPeriod}&limit=366`, { as: busy.apiKey });
    const perLink = new Map<string, { repeatClicks: number; botClicks: number }>(
      today.body.data.map((r: { urlCode: string; repeatClicks: number; botClicks: number }) => [
        r.urlCode,
        { repeatClicks: r.repeatClicks, botClicks: r.botClicks },
      ]),
    );
    const repeats = [...perLink.values()].reduce((sum, r) => sum + r.repeatClicks, 0);
    const bots = [...perLink.values()].reduce((sum, r) => sum + r.botClicks, 0);
    expect({ repeats, bots }).toEqual({ repeats: 6, bots: 5 });
  });

  test("a deleted campaign's links count for no campaign, their past hours too", async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const brand = await createBrand({ name: 'Harbor Lights' });
    const campaign = await createCampaign(brand.id, { name: 'Winter Glow' });
    const link = await createLink(affiliateId, brand.id, { campaignId: campaign.id });
    const hourNow = Math.floor(Date.now() / HOUR) * HOUR;
    await recordClicks(link, new Date(hourNow - 48 * HOUR), { clicks: 3 });
    await click(link.urlCode, `${BROWSER} person/1`);
    await click(link.urlCode, `${BROWSER} person/2`);
    await createOrderVia(link, { at: new Date(hourNow - 24 * HOUR), currency: 'EUR' });
    const period = `startAt=${new Date(hourNow - 72 * HOUR).toISOString()}&endAt=${new Date(hourNow + HOUR).toISOString()}`;
    const byCampaign = async () => {
      const answer = await report(`groupBy=campaign&${period}`, { as: apiKey });
      return answer.body.data.map(
        (row: { campaignId: string | null; clicks: number; orders: number }) => ({
          campaignId: row.campaignId,
          clicks: row.clicks,
          orders: row.orders,
        }),
      );
    };
    expect(await byCampaign()).toEqual([{ campaignId: campaign.id, clicks: 5, orders: 1 }]);

    await prisma.campaign.delete({ where: { id: campaign.id } });
    expect(await byCampaign()).toEqual([{ campaignId: null, clicks: 5, orders: 1 }]);
  });

  onPostgres(
    'an order added while its campaign is being deleted waits, then counts for no campaign',
    async () => {
      const { affiliateId, apiKey } = await createAffiliate();
      const brand = await createBrand();
      const campaign = await createCampaign(brand.id);
      const link = await createLink(affiliateId, brand.id, { campaignId: campaign.id });
      const hourNow = Math.floor(Date.now() / HOUR) * HOUR;
      const deletion = await holdLock(`DELETE FROM "Campaign" WHERE "id" = $1::uuid`, [
        campaign.id,
      ]);
      // Started now: a Prisma query runs when it is awaited.
      const order = createOrderVia(link, { at: new Date(hourNow - HOUR) }).then(() => undefined);
      try {
        await untilWaitingForLocks(1);
      } finally {
        await deletion.release();
      }
      await order;
      const period = `startAt=${new Date(hourNow - 2 * HOUR).toISOString()}&endAt=${new Date(hourNow + HOUR).toISOString()}`;
      const answer = await report(`groupBy=campaign&${period}`, { as: apiKey });
      expect(answer.body.data).toMatchObject([{ campaignId: null, orders: 1 }]);
    },
  );
});

describe('keys made before the report (migration performance_rollups)', () => {
  /** The migration's statement that gives existing keys the scope, run again on older keys. */
  async function grantReportScope() {
    const { readMigrations } = await import('../../src/platform/migrations');
    const migration = (await readMigrations()).find((m) =>
      m.name.endsWith('_performance_rollups'),
    )!;
    const grant = migration.sql.slice(migration.sql.indexOf('UPDATE "ApiKey"'));
    await prisma.$executeRawUnsafe(grant);
  }

  test('affiliate keys with orders:read get reports:read, once; others are left as they were', async () => {
    const reader = await createApiKey('affiliate', { scopes: ['orders:read', 'brands:read'] });
    const linker = await createApiKey('affiliate', { scopes: ['shortener:read'] });
    const partner = await createApiKey('partner');
    await grantReportScope();
    await grantReportScope();
    const scopesOf = async (id: string) =>
      (await prisma.apiKey.findUniqueOrThrow({ where: { id } })).scopes;
    expect(await scopesOf(reader.row.id)).toEqual(['orders:read', 'brands:read', 'reports:read']);
    expect(await scopesOf(linker.row.id)).toEqual(['shortener:read']);
    expect(await scopesOf(partner.row.id)).toEqual(partner.row.scopes);
    expect((await report('groupBy=day', { as: reader.apiKey })).status).toBe(200);
  });
});
