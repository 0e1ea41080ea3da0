// Sub-IDs on orders and in reports (docs/decisions.md, "Sub-IDs"): the back office writes an
// order's sub1..sub5 in SQL; the order answers (REST, GraphQL, webhooks) carry them,
// GET /affiliate/orders filters on them, and GET /affiliate/reports/performance groups by them
// from rollups the database keeps equal to the orders, bounded in values per link and hour; only
// the key's affiliate's. The redirect's side: test/links/redirect.test.ts.
import { signDashboardToken } from '../../src/auth/dashboardToken';
import { config } from '../../src/platform/config';
import { prisma } from '../../src/platform/db';
import { eventAnswersOf } from '../../src/modules/webhooks/eventAnswers';
import { links } from '../../src/modules/links';
import { forgetOldSubIdClicks } from '../../src/modules/links/subIdHistory';
import {
  isSubId,
  OTHER_SUB_ID_VALUES,
  SUB_ID_HISTORY_DAYS,
  SUB_ID_NAMES,
  subIdClicksKeptFrom,
  subIdHistoryStart,
} from '../../src/modules/links/subIds';
import { startWebhookDispatcher } from '../../src/modules/webhooks/webhookLane';
import { app, call, graphql, useTestDatabase } from '../support/app';
import {
  createAffiliate,
  createBrand,
  createCampaign,
  createLink,
  createUser,
  recordClicks,
  recordSubIdClicks,
} from '../support/factories';
import { createApiKey } from '../support/factories';
import { until } from '../support/wait';
import { startReceiver } from '../support/webhookReceiver';
import { booksEur, earningsByStatus, reportRow } from '../support/reportRows';

useTestDatabase();

const REPORT = '/affiliate/reports/performance';
const DAY_MS = 86_400_000;
/**
 * The tagged shop's days, as YYYY-MM-DD: day 1 is midnight UTC 40 days ago. The fixture moves with
 * the clock, since a report by sub-ID reaches back only so far.
 */
const DAY1 = Math.floor(Date.now() / DAY_MS) * DAY_MS - 40 * DAY_MS;
const day = (n: number) => new Date(DAY1 + (n - 1) * DAY_MS).toISOString().slice(0, 10);
/** Days 1 to 3, UTC. */
const SHOP_DAYS = `startAt=${day(1)}T00:00:00Z&endAt=${day(4)}T00:00:00Z`;

type Status = 'PENDING' | 'APPROVED' | 'PAID' | 'REJECTED';
type SubIdValues = Partial<Record<(typeof SUB_ID_NAMES)[number], string | null>>;

/**
 * An order as the network's back office writes it: one INSERT in SQL (the triggers keep every
 * rollup). Amounts in major units.
 */
async function insertOrder(
  affiliateId: string,
  organizationId: string,
  order: {
    at: string | Date;
    urlCode?: string | null;
    status?: Status;
    currency?: string;
    value?: number;
    earnings?: number;
  } & SubIdValues,
): Promise<string> {
  const { sub1 = null, sub2 = null, sub3 = null, sub4 = null, sub5 = null } = order;
  const [row] = await prisma.$queryRaw<{ id: string }[]>`
    INSERT INTO "Order" ("id", "orderNumber", "affiliateId", "organizationId", "status",
      "currency", "transactionValueMinor", "commissionRateBps", "earningsMinor", "shortUrlCode",
      "orderedAt", "sub1", "sub2", "sub3", "sub4", "sub5", "statusReason")
    VALUES (gen_random_uuid(), 'SQL-' || gen_random_uuid(), ${affiliateId}::uuid,
      ${organizationId}::uuid, ${order.status ?? 'PENDING'}::"OrderStatus", ${order.currency ?? 'EUR'},
      ${Math.round((order.value ?? 100) * 100)}, 500, ${Math.round((order.earnings ?? 5) * 100)},
      ${order.urlCode ?? null}, ${new Date(order.at)}, ${sub1}, ${sub2}, ${sub3}, ${sub4}, ${sub5},
      ${order.status === 'REJECTED' ? 'OTHER' : null}::"OrderStatusReason")
    RETURNING "id"::text`;
  return row!.id;
}

/**
 * The tagged shop, days 1-3: Aurora Shoes with the campaign Spring Sale and its Offer link
 * (day 1: 40 clicks, 5 repeats, 3 bots; sub1=mail 25 of them, sub1=social 10, sub2=hero all),
 * Chapter Books with a Custom link (day 3: 10 clicks, 1 repeat; sub1=mail 4). Orders written in
 * SQL: on the sale link an approved EUR one (sub1=mail, sub2=hero) and a pending USD one
 * (sub1=social); on the books link a rejected one (sub1=mail); a paid Chapter Books order without
 * link or sub-ID. Another affiliate tags its own clicks and order with sub1=mail on the same days.
 */
let shop: {
  affiliateId: string;
  apiKey: string;
  brands: { shoes: { id: string }; books: { id: string } };
  campaignId: string;
  other: { affiliateId: string; apiKey: string };
};

beforeAll(async () => {
  const { affiliateId, apiKey } = await createAffiliate();
  const shoes = await createBrand({ name: 'Aurora Shoes' });
  const books = await createBrand({ name: 'Chapter Books' });
  const campaign = await createCampaign(shoes.id, { name: 'Spring Sale' });
  const sale = await createLink(affiliateId, shoes.id, {
    campaignId: campaign.id,
    linkType: 'Offer',
  });
  const booksLink = await createLink(affiliateId, books.id);
  const day1 = new Date(`${day(1)}T10:00:00Z`);
  const day3 = new Date(`${day(3)}T08:00:00Z`);
  await recordClicks(sale, day1, { clicks: 40, repeats: 5, bots: 3 });
  await recordSubIdClicks(sale, day1, 1, 'mail', { clicks: 25, repeats: 2, bots: 1 });
  await recordSubIdClicks(sale, day1, 1, 'social', { clicks: 10, repeats: 1 });
  await recordSubIdClicks(sale, day1, 2, 'hero', { clicks: 40, repeats: 5, bots: 3 });
  await recordClicks(booksLink, day3, { clicks: 10, repeats: 1 });
  await recordSubIdClicks(booksLink, day3, 1, 'mail', { clicks: 4 });
  const at = (n: number, time: string) => `${day(n)}T${time}Z`;
  await insertOrder(affiliateId, shoes.id, {
    at: at(1, '10:15:00'),
    urlCode: sale.urlCode,
    status: 'APPROVED',
    value: 100,
    earnings: 5,
    sub1: 'mail',
    sub2: 'hero',
  });
  await insertOrder(affiliateId, shoes.id, {
    at: at(1, '11:00:00'),
    urlCode: sale.urlCode,
    currency: 'USD',
    value: 200,
    earnings: 10,
    sub1: 'social',
  });
  await insertOrder(affiliateId, books.id, {
    at: at(3, '08:00:00'),
    urlCode: booksLink.urlCode,
    status: 'REJECTED',
    value: 50,
    earnings: 2.5,
    sub1: 'mail',
  });
  await insertOrder(affiliateId, books.id, {
    at: at(3, '09:00:00'),
    status: 'PAID',
    value: 30,
    earnings: 1.5,
  });

  const other = await createAffiliate();
  const otherLink = await createLink(other.affiliateId, shoes.id);
  await recordClicks(otherLink, new Date(`${day(1)}T12:00:00Z`), { clicks: 7 });
  await recordSubIdClicks(otherLink, new Date(`${day(1)}T12:00:00Z`), 1, 'mail', { clicks: 7 });
  await insertOrder(other.affiliateId, shoes.id, {
    at: at(1, '12:00:00'),
    status: 'APPROVED',
    sub1: 'mail',
  });
  shop = {
    affiliateId,
    apiKey,
    brands: { shoes, books },
    campaignId: campaign.id,
    other: { affiliateId: other.affiliateId, apiKey: other.apiKey },
  };
});

const report = (query: string, key = shop.apiKey) => call(`${REPORT}?${query}`, { key });

describe('GET /affiliate/reports/performance?groupBy=sub1 ... sub5', () => {
  const mailEur = {
    subId: 'mail',
    currency: 'EUR',
    clicks: 29,
    repeatClicks: 2,
    botClicks: 1,
    orders: 2,
    transactionValue: 150,
    earnings: 5,
    earningsByStatus: earningsByStatus({ APPROVED: 5, REJECTED: 2.5 }),
    conversionRate: 0.069,
    epc: 0.1724,
  };
  const untaggedEur = {
    currency: 'EUR',
    clicks: 11,
    repeatClicks: 3,
    botClicks: 2,
    orders: 1,
    transactionValue: 30,
    earnings: 1.5,
    earningsByStatus: earningsByStatus({ PAID: 1.5 }),
    conversionRate: 0.0909,
    epc: 0.1364,
  };
  const socialUsd = {
    subId: 'social',
    currency: 'USD',
    clicks: 10,
    repeatClicks: 1,
    orders: 1,
    transactionValue: 200,
    earnings: 10,
    earningsByStatus: earningsByStatus({ PENDING: 10 }),
    conversionRate: 0.1,
    epc: 1,
  };

  test('sub1: clicks, orders, earnings, conversion rate and EPC per value, busiest first; null for clicks and orders without one', async () => {
    const answer = await report(`groupBy=sub1&${SHOP_DAYS}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: [reportRow(mailEur), reportRow(untaggedEur), reportRow(socialUsd)],
      meta: { total: 3, page: 1, limit: 31, totalPages: 1 },
    });
  });

  test('sub2: each sub-ID has its own values; the untagged row per currency', async () => {
    const answer = await report(`groupBy=sub2&${SHOP_DAYS}`);
    expect(answer.body.data).toEqual([
      reportRow({
        subId: 'hero',
        currency: 'EUR',
        clicks: 40,
        repeatClicks: 5,
        botClicks: 3,
        orders: 1,
        transactionValue: 100,
        earnings: 5,
        earningsByStatus: earningsByStatus({ APPROVED: 5 }),
        conversionRate: 0.025,
        epc: 0.125,
      }),
      reportRow(booksEur),
      // The social clicks carry no sub2.
      reportRow({ ...socialUsd, subId: null }),
    ]);
  });

  test('sub3 ... sub5 without any value: everything under null', async () => {
    for (const groupBy of ['sub3', 'sub4', 'sub5']) {
      const answer = await report(`groupBy=${groupBy}&${SHOP_DAYS}&limit=10`);
      const clicks = answer.body.data.map((r: { subId: string | null; clicks: number }) => [
        r.subId,
        r.clicks,
      ]);
      expect({ groupBy, clicks }).toEqual({
        groupBy,
        clicks: [
          [null, 50],
          [null, 50],
        ],
      });
    }
  });

  test('organizationId narrows to one brand; the period to its hours', async () => {
    const books = [
      reportRow({
        currency: 'EUR',
        clicks: 6,
        repeatClicks: 1,
        orders: 1,
        transactionValue: 30,
        earnings: 1.5,
        earningsByStatus: earningsByStatus({ PAID: 1.5 }),
        conversionRate: 0.1667,
        epc: 0.25,
      }),
      reportRow({
        subId: 'mail',
        currency: 'EUR',
        clicks: 4,
        orders: 1,
        transactionValue: 50,
        earnings: 0,
        earningsByStatus: earningsByStatus({ REJECTED: 2.5 }),
        conversionRate: 0.25,
        epc: 0,
      }),
    ];
    const byBrand = await report(
      `groupBy=sub1&organizationId=${shop.brands.books.id}&${SHOP_DAYS}`,
    );
    expect(byBrand.body.data).toEqual(books);
    const byPeriod = await report(
      `groupBy=sub1&startAt=${day(2)}T00:00:00Z&endAt=${day(4)}T00:00:00Z`,
    );
    expect(byPeriod.body.data).toEqual(books);
  });

  test('campaignId narrows to the clicks and orders of its links', async () => {
    const answer = await report(`groupBy=sub1&campaignId=${shop.campaignId}&${SHOP_DAYS}`);
    expect(answer.body.data).toEqual([
      reportRow({
        subId: 'mail',
        currency: 'EUR',
        clicks: 25,
        repeatClicks: 2,
        botClicks: 1,
        orders: 1,
        transactionValue: 100,
        earnings: 5,
        earningsByStatus: earningsByStatus({ APPROVED: 5 }),
        conversionRate: 0.04,
        epc: 0.2,
      }),
      reportRow(socialUsd),
      reportRow({ clicks: 5, repeatClicks: 2, botClicks: 2, conversionRate: 0, epc: 0 }),
    ]);
  });

  test('a time zone is taken as on the other groupings (it only moves the period edges)', async () => {
    const answer = await report(
      `groupBy=sub1&timezone=Europe/Berlin&startAt=${day(1)}T01:00:00%2B01:00&endAt=${day(4)}T01:00:00%2B01:00`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((r: { subId: string | null }) => r.subId)).toEqual([
      'mail',
      null,
      'social',
    ]);
    const refused = await report('groupBy=sub1&timezone=Mars/Olympus');
    expect(refused.status).toBe(400);
  });

  test('pages count rows', async () => {
    const answer = await report(`groupBy=sub1&${SHOP_DAYS}&limit=2&page=2`);
    expect(answer.body).toEqual({
      data: [reportRow(socialUsd)],
      meta: { total: 3, page: 2, limit: 2, totalPages: 2 },
    });
  });

  test('Accept: text/csv answers the same rows with a subId column', async () => {
    const response = await app.fetch(`http://api.test${REPORT}?groupBy=sub1&${SHOP_DAYS}`, {
      headers: { 'x-api-key': shop.apiKey, accept: 'text/csv' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-total-count')).toBe('3');
    const lines = (await response.text()).split('\r\n');
    // Text cells are quoted; an empty cell is null.
    const subIdColumn = lines[0]!.split(',').indexOf('"subId"');
    expect(subIdColumn).toBe(lines[0]!.split(',').indexOf('"shortUrl"') + 1);
    expect(lines.slice(1, 4).map((line) => line.split(',')[subIdColumn])).toEqual([
      '"mail"',
      '',
      '"social"',
    ]);
  });

  test('GraphQL answers the same rows', async () => {
    const answer = await graphql(
      `
        query ($startAt: DateTime, $endAt: DateTime) {
          affiliatePerformanceReport(groupBy: sub1, startAt: $startAt, endAt: $endAt) {
            data {
              subId
              currency
              clicks
              orders
              earnings
              conversionRate
              epc
            }
            meta {
              total
            }
          }
        }
      `,
      { startAt: `${day(1)}T00:00:00Z`, endAt: `${day(4)}T00:00:00Z` },
      { key: shop.apiKey },
    );
    const pick = ({
      subId,
      currency,
      clicks,
      orders,
      earnings,
      conversionRate,
      epc,
    }: typeof mailEur) => ({
      subId: subId ?? null,
      currency,
      clicks,
      orders,
      earnings,
      conversionRate,
      epc,
    });
    expect(answer.body.data.affiliatePerformanceReport).toEqual({
      data: [mailEur, { subId: null, ...untaggedEur }, socialUsd].map((r) =>
        pick(r as typeof mailEur),
      ),
      meta: { total: 3 },
    });
  });

  test("another affiliate's report holds only its own value; neither sees the other's", async () => {
    const theirs = await report(`groupBy=sub1&${SHOP_DAYS}`, shop.other.apiKey);
    expect(theirs.body.data).toEqual([
      reportRow({
        subId: 'mail',
        currency: 'EUR',
        clicks: 7,
        orders: 1,
        transactionValue: 100,
        earnings: 5,
        earningsByStatus: earningsByStatus({ APPROVED: 5 }),
        conversionRate: 0.1429,
        epc: 0.7143,
      }),
    ]);
    // And the key's filters cannot reach them: the other affiliate's brand filter finds none.
    const mine = await report(`groupBy=sub1&organizationId=${shop.brands.shoes.id}&${SHOP_DAYS}`);
    expect(mine.body.data.reduce((sum: number, r: { clicks: number }) => sum + r.clicks, 0)).toBe(
      40,
    );
  });

  test(`values counted under "${OTHER_SUB_ID_VALUES}" have their row`, async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const brand = await createBrand();
    const link = await createLink(affiliateId, brand.id);
    const hour = new Date(`${day(2)}T15:00:00Z`);
    await recordClicks(link, hour, { clicks: 12 });
    await recordSubIdClicks(link, hour, 1, 'kept', { clicks: 5 });
    await recordSubIdClicks(link, hour, 1, OTHER_SUB_ID_VALUES, { clicks: 7 });
    const answer = await report(`groupBy=sub1&${SHOP_DAYS}`, apiKey);
    expect(
      answer.body.data.map((r: { subId: string; clicks: number }) => [r.subId, r.clicks]),
    ).toEqual([
      [OTHER_SUB_ID_VALUES, 7],
      ['kept', 5],
    ]);
  });

  test('groupBy=sub6 is refused, naming groupBy', async () => {
    const answer = await report('groupBy=sub6');
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('groupBy');
  });
});

describe(`sub-ID clicks: a report reaches back ${SUB_ID_HISTORY_DAYS} days, the rollups keep a day more`, () => {
  const HOUR_MS = 3_600_000;
  const iso = (time: number) => new Date(time).toISOString();

  test(`a report by sub-ID starting within the ${SUB_ID_HISTORY_DAYS} days answers; an earlier start is a 400 naming the earliest; other groupings reach further`, async () => {
    // An hour inside either edge: the current hour may turn between here and the service.
    const earliest = subIdHistoryStart(new Date()).getTime();
    const within = `startAt=${iso(earliest + HOUR_MS)}&endAt=${iso(earliest + 366 * DAY_MS)}`;
    expect((await report(`groupBy=sub1&${within}`)).status).toBe(200);

    const before = `startAt=${iso(earliest - HOUR_MS)}&endAt=${iso(earliest + 300 * DAY_MS)}`;
    const refused = await report(`groupBy=sub3&${before}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    const named =
      /^A report by sub-ID reaches back 400 days: startAt must be at or after (\S+Z)$/.exec(
        refused.body.message,
      );
    expect(new Date(named![1]!).getTime()).toBeGreaterThanOrEqual(earliest);
    expect((await report(`groupBy=day&${before}`)).status).toBe(200);
    expect((await report(`groupBy=link&${before}`)).status).toBe(200);
  });

  test('rows of hours before the kept ones are deleted, for each link and the affiliate; the hours after, and the clicks of every report, stay', async () => {
    const now = new Date('2026-11-24T10:20:00Z');
    const keptFrom = subIdClicksKeptFrom(now).getTime();
    expect(iso(keptFrom)).toBe('2025-10-19T10:00:00.000Z');
    const { affiliateId } = await createAffiliate();
    const brand = await createBrand();
    const [first, second] = [
      await createLink(affiliateId, brand.id),
      await createLink(affiliateId, brand.id),
    ];
    const hour = (time: number) => new Date(time);
    await recordClicks(first!, hour(keptFrom - HOUR_MS), { clicks: 3, bots: 9 });
    await recordSubIdClicks(first!, hour(keptFrom - HOUR_MS), 1, 'gone', { clicks: 3 });
    await recordSubIdClicks(first!, hour(keptFrom - HOUR_MS), 2, OTHER_SUB_ID_VALUES, { bots: 9 });
    await recordSubIdClicks(second!, hour(keptFrom - 90 * DAY_MS), 1, 'gone', { clicks: 1 });
    await recordClicks(first!, hour(keptFrom), { clicks: 2 });
    await recordSubIdClicks(first!, hour(keptFrom), 1, 'kept', { clicks: 2 });

    // Three rows of links, and the affiliate's three (two hours, two values in the first).
    expect(await forgetOldSubIdClicks(now)).toBe(3 + 3);
    const linkRows = await prisma.linkSubIdClickHour.findMany({
      where: { affiliateId },
      select: { linkId: true, hour: true, value: true },
    });
    expect(linkRows).toEqual([{ linkId: first!.id, hour: hour(keptFrom), value: 'kept' }]);
    const affiliateRows = await prisma.affiliateSubIdClickHour.findMany({
      where: { affiliateId },
      select: { hour: true, value: true },
    });
    expect(affiliateRows).toEqual([{ hour: hour(keptFrom), value: 'kept' }]);
    expect(await prisma.linkClickHour.count({ where: { affiliateId } })).toBe(2);
    expect(await prisma.affiliateClickHour.count({ where: { affiliateId } })).toBe(2);
    expect(await forgetOldSubIdClicks(now)).toBe(0);
  });

  test("the links module's worker deletes them when it starts", async () => {
    const { affiliateId } = await createAffiliate();
    const link = await createLink(affiliateId, (await createBrand()).id);
    const old = new Date(subIdClicksKeptFrom(new Date()).getTime() - DAY_MS);
    await recordSubIdClicks(link, old, 1, 'gone', { clicks: 1 });
    const worker = links.workers!.find(({ name }) => name === 'sub-ID click history')!;
    const running = worker.start({ runRoute: app.runRoute });
    await until(
      async () => (await prisma.linkSubIdClickHour.count({ where: { affiliateId } })) === 0,
      'the old rows to go',
    );
    await running.stop();
    expect(await prisma.affiliateSubIdClickHour.count({ where: { affiliateId } })).toBe(0);
  });
});

describe('the sub-ID rollups equal the orders', () => {
  /** The vocabulary: values, an empty one (none), and values no sub-ID can be (other values). */
  const VALUES = ['mail', 'social', 'hero', 'a/b', '', 'two words', 'x'.repeat(101), null];

  function randomFrom(seed: number) {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state / 2 ** 31;
    };
  }

  interface Rollup {
    orders: number;
    value: number;
    earnings: number;
  }

  /** What the rollups should hold, counted directly from the orders as they are now. */
  async function directCount(affiliateId: string) {
    const orders = await prisma.order.findMany({ where: { affiliateId } });
    const byLink: Record<string, Rollup> = {};
    const byAffiliate: Record<string, Rollup> = {};
    const add = (sums: Record<string, Rollup>, key: string, order: (typeof orders)[number]) => {
      const sum = (sums[key] ??= { orders: 0, value: 0, earnings: 0 });
      sum.orders += 1;
      sum.value += order.transactionValueMinor;
      sum.earnings += order.earningsMinor;
    };
    for (const order of orders) {
      SUB_ID_NAMES.forEach((name, i) => {
        const raw = order[name];
        if (raw === null || raw === '') return;
        const value = isSubId(raw) ? raw : OTHER_SUB_ID_VALUES;
        const hour = new Date(Math.floor(order.orderedAt.getTime() / 3_600_000) * 3_600_000);
        const common = `${i + 1}|${hour.toISOString()}|${value}|${order.currency}|${order.status}`;
        add(byLink, `${common}|${order.organizationId}|${order.shortUrlCode ?? ''}`, order);
        add(byAffiliate, common, order);
      });
    }
    return { byLink, byAffiliate };
  }

  /** The rollups' rows of the affiliate that hold anything. */
  async function rollups(affiliateId: string) {
    const byLink: Record<string, Rollup> = {};
    const byAffiliate: Record<string, Rollup> = {};
    const sums = (r: { orders: number; transactionValueMinor: bigint; earningsMinor: bigint }) => ({
      orders: r.orders,
      value: Number(r.transactionValueMinor),
      earnings: Number(r.earningsMinor),
    });
    const nonZero = (r: Rollup) => r.orders !== 0 || r.value !== 0 || r.earnings !== 0;
    for (const r of await prisma.orderLinkSubIdHour.findMany({ where: { affiliateId } })) {
      const key = `${r.slot}|${r.hour.toISOString()}|${r.value}|${r.currency}|${r.status}|${r.organizationId}|${r.linkCode}`;
      if (nonZero(sums(r))) byLink[key] = sums(r);
    }
    for (const r of await prisma.orderAffiliateSubIdHour.findMany({ where: { affiliateId } })) {
      const key = `${r.slot}|${r.hour.toISOString()}|${r.value}|${r.currency}|${r.status}`;
      if (nonZero(sums(r))) byAffiliate[key] = sums(r);
    }
    return { byLink, byAffiliate };
  }

  test('after inserts, updates of every kind and deletes, in single and many-row statements', async () => {
    const { affiliateId } = await createAffiliate();
    const shoes = await createBrand();
    const books = await createBrand();
    const links = [
      await createLink(affiliateId, shoes.id),
      await createLink(affiliateId, books.id),
    ];
    const random = randomFrom(31);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    const start = DAY1;
    const ids: string[] = [];
    for (let n = 0; n < 60; n += 1) {
      const link = random() < 0.8 ? pick(links) : null;
      ids.push(
        await insertOrder(affiliateId, link?.organizationId ?? books.id, {
          at: new Date(start + Math.floor(random() * 6) * 3_600_000 + 60_000 * n),
          urlCode: link?.urlCode ?? null,
          status: pick(['PENDING', 'APPROVED', 'PAID', 'REJECTED'] as const),
          currency: pick(['EUR', 'USD']),
          value: 10 + Math.floor(random() * 500),
          earnings: Math.floor(random() * 25),
          sub1: pick(VALUES),
          sub2: pick(VALUES),
          sub5: pick(VALUES),
        }),
      );
    }
    expect(await rollups(affiliateId)).toEqual(await directCount(affiliateId));

    for (const [n, id] of ids.entries()) {
      const where = { id };
      if (n % 8 === 0) await prisma.order.update({ where, data: { sub1: pick(VALUES) } });
      if (n % 8 === 1) {
        await prisma.order.update({ where, data: { status: 'REJECTED', statusReason: 'OTHER' } });
      }
      if (n % 8 === 2) {
        await prisma.order.update({
          where,
          data: {
            transactionValueMinor: 77_700,
            earningsMinor: 3_885,
            statusReason: 'AMOUNT_CORRECTED',
          },
        });
      }
      if (n % 8 === 3) {
        await prisma.order.update({
          where,
          data: { orderedAt: new Date(start + 30 * 3_600_000), sub3: 'moved' },
        });
      }
      if (n % 8 === 4) await prisma.order.update({ where, data: { shortUrlCode: null } });
      if (n % 8 === 5) await prisma.order.delete({ where });
      if (n % 8 === 6) {
        await prisma.order.update({ where, data: { sub1: null, sub2: null, sub5: null } });
      }
    }
    await prisma.$executeRaw`UPDATE "Order" SET "sub4" = 'bulk', "status" = 'APPROVED'
      WHERE "affiliateId" = ${affiliateId}::uuid AND "status" = 'PENDING'`;
    await prisma.$executeRaw`DELETE FROM "Order"
      WHERE "affiliateId" = ${affiliateId}::uuid AND "currency" = 'USD' AND "status" = 'PAID'`;
    const after = await directCount(affiliateId);
    expect(Object.keys(after.byAffiliate).length).toBeGreaterThan(10);
    expect(await rollups(affiliateId)).toEqual(after);
  });

  test('past the bound of values per link, hour and sub-ID, further values count under the other values, also when they change or go', async () => {
    const [settings] = await prisma.$queryRaw<{ bound: number }[]>`
      SELECT "sub_id_values_per_hour"() AS bound`;
    const bound = settings!.bound;
    const { affiliateId, apiKey } = await createAffiliate();
    const brand = await createBrand();
    const link = await createLink(affiliateId, brand.id);
    const at = new Date(`${day(2)}T10:00:00Z`);
    const value = (n: number) => `order-${String(n).padStart(3, '0')}`;
    // One statement of `bound + 2` orders with values of their own: the first `bound` by value kept.
    await prisma.$executeRaw`
      INSERT INTO "Order" ("id", "orderNumber", "affiliateId", "organizationId", "status",
        "currency", "transactionValueMinor", "commissionRateBps", "earningsMinor", "shortUrlCode",
        "orderedAt", "sub1")
      SELECT gen_random_uuid(), 'BOUND-' || n, ${affiliateId}::uuid, ${brand.id}::uuid, 'PENDING',
        'EUR', 1000, 500, 50, ${link.urlCode}, ${at}, 'order-' || lpad(n::text, 3, '0')
      FROM generate_series(0, ${bound + 1}) AS n`;
    // A later order with a kept value counts under it; one with a new value under the others.
    await insertOrder(affiliateId, brand.id, { at, urlCode: link.urlCode, sub1: value(0) });
    const late = await insertOrder(affiliateId, brand.id, {
      at,
      urlCode: link.urlCode,
      sub1: 'late',
    });
    // Another hour starts a new set of values.
    await insertOrder(affiliateId, brand.id, {
      at: new Date(`${day(2)}T11:30:00Z`),
      urlCode: link.urlCode,
      sub1: 'late',
    });

    const ordersOf = async () => {
      const answer = await call(
        `${REPORT}?groupBy=sub1&startAt=${day(2)}T00:00:00Z&endAt=${day(3)}T00:00:00Z&limit=366`,
        { key: apiKey },
      );
      return Object.fromEntries(
        answer.body.data.map((r: { subId: string; orders: number }) => [r.subId, r.orders]),
      );
    };
    const before = await ordersOf();
    expect(Object.keys(before)).toHaveLength(bound + 2);
    expect(before[value(0)]).toBe(2);
    expect(before[value(bound - 1)]).toBe(1);
    expect(before[value(bound)]).toBeUndefined();
    expect(before[OTHER_SUB_ID_VALUES]).toBe(3);
    expect(before.late).toBe(1);
    const kept = await prisma.orderLinkSubIdHour.groupBy({
      by: ['value'],
      where: { affiliateId, slot: 1, hour: at, value: { not: OTHER_SUB_ID_VALUES } },
    });
    expect(kept).toHaveLength(bound);

    // Changed or deleted, an order leaves the bucket it was counted in.
    await prisma.order.update({ where: { id: late }, data: { status: 'APPROVED' } });
    await prisma.$executeRaw`DELETE FROM "Order" WHERE "orderNumber" = ${`BOUND-${bound + 1}`}`;
    const after = await ordersOf();
    expect(after[OTHER_SUB_ID_VALUES]).toBe(2);
    expect(after[value(bound)]).toBeUndefined();
    expect(Object.values(after).reduce((sum: number, n) => sum + (n as number), 0)).toBe(bound + 4);
  });
});

describe('an order written in SQL with sub-IDs', () => {
  test('shows in the list, in its filter, in the report by sub1 and in its webhook event', async () => {
    Object.assign(config, { webhookAllowPrivateUrls: true });
    const receiver = await startReceiver();
    const dispatcher = startWebhookDispatcher(eventAnswersOf(app.runRoute), {
      pollIntervalMs: 200,
      leaseS: 30,
      retryDelaysS: [1],
      disableAfterS: 60,
      allowPrivateUrls: true,
    });
    try {
      const user = await createUser('AFFILIATE');
      const { apiKey } = await createApiKey('affiliate', { ownerId: user.id });
      const token = await signDashboardToken(user.id);
      const created = await graphql(
        `
          mutation ($input: CreateWebhookEndpointInput!) {
            createWebhookEndpoint(input: $input) {
              secret
            }
          }
        `,
        { input: { url: `${receiver.url}/sub-ids`, events: ['order.created'] } },
        { token },
      );
      receiver.secrets.push(created.body.data.createWebhookEndpoint.secret);
      const brand = await createBrand();
      const link = await createLink(user.id, brand.id);
      const id = await insertOrder(user.id, brand.id, {
        at: new Date(),
        urlCode: link.urlCode,
        sub1: 'newsletter-42',
        sub3: 'hero',
      });
      await insertOrder(user.id, brand.id, { at: new Date(), sub1: 'other-value' });
      const subIds = {
        sub1: 'newsletter-42',
        sub2: null,
        sub3: 'hero',
        sub4: null,
        sub5: null,
      };

      const listed = await call('/affiliate/orders', { key: apiKey });
      expect(listed.body.data.find((order: { id: string }) => order.id === id)).toMatchObject(
        subIds,
      );
      const filtered = await call('/affiliate/orders?sub1=newsletter-42', { key: apiKey });
      expect(filtered.body.data.map((order: { id: string }) => order.id)).toEqual([id]);
      const byOtherSlot = await call('/affiliate/orders?sub3=hero&sub1=newsletter-42', {
        key: apiKey,
      });
      expect(byOtherSlot.body.meta.total).toBe(1);
      const reported = await call(`${REPORT}?groupBy=sub1`, { key: apiKey });
      expect(
        reported.body.data.map((r: { subId: string; orders: number }) => [r.subId, r.orders]),
      ).toEqual([
        ['newsletter-42', 1],
        ['other-value', 1],
      ]);

      await until(
        () => receiver.received.some((webhook) => webhook.body.data.order?.id === id),
        'the order.created event',
      );
      const event = receiver.received.find((webhook) => webhook.body.data.order?.id === id)!;
      expect(event.body.type).toBe('order.created');
      expect(event.body.data.order).toMatchObject(subIds);
    } finally {
      await dispatcher.stop();
      await receiver.close();
    }
  });
});
