// An order's source (docs/integrating.md, "Attribution by link and by code"): the back office
// writes the link and the code the brand reported, the database (migration coupon_attribution)
// gives the order its affiliate, campaign and attribution, and refuses a code of another brand or
// a generic code without a click. The order routes answer and filter by them.
import { Prisma } from '../../src/generated/prisma/client';
import { prisma } from '../../src/platform/db';
import { app, call, expectError, useTestDatabase } from '../support/app';
import {
  createAffiliate,
  createBrand,
  createCampaign,
  createChannel,
  createChannelType,
  createLink,
  createOrder,
  createPersonalCode,
  recordClicks,
  days,
} from '../support/factories';

useTestDatabase();

/** The brand's affiliates: `ana` owns the personal code ANA10, `ben` is another affiliate. */
let ana: { affiliateId: string; apiKey: string };
let ben: { affiliateId: string; apiKey: string };
let brandId: string;
let otherBrandId: string;
let personal: { id: string };
let generic: { id: string };
let offer: { id: string };
let anaLink: { urlCode: string };
let benLink: { urlCode: string };

beforeAll(async () => {
  ana = await createAffiliate();
  ben = await createAffiliate();
  brandId = (await createBrand({ name: 'Aurora Shoes' })).id;
  otherBrandId = (await createBrand({ name: 'Chapter Books' })).id;
  personal = await createCampaign(brandId, { type: 'PersonalCoupon', offerType: null });
  await createPersonalCode(personal.id, ana.affiliateId, 'Ana10');
  await createPersonalCode(personal.id, ben.affiliateId, 'BEN10');
  generic = await createCampaign(brandId, {
    type: 'GenericCoupon',
    offerType: null,
    code: 'spring20',
  });
  offer = await createCampaign(brandId);
  anaLink = await createLink(ana.affiliateId, brandId, { campaignId: offer.id });
  benLink = await createLink(ben.affiliateId, brandId, { campaignId: offer.id });
  const otherPersonal = await createCampaign(otherBrandId, {
    type: 'PersonalCoupon',
    offerType: null,
  });
  await createPersonalCode(otherPersonal.id, ana.affiliateId, 'BOOKS-ANA');
  await createCampaign(otherBrandId, { type: 'GenericCoupon', offerType: null, code: 'READ5' });
});

/** An order the back office records for `affiliateId` (the one it believes in) with a source. */
const record = (affiliateId: string, data: Partial<Prisma.OrderUncheckedCreateInput> = {}) =>
  createOrder(affiliateId, brandId, data);

/** The database's refusal of an order, naming it and the rule. */
async function refusalOf(write: Promise<unknown>): Promise<string> {
  const error = await write.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(Error);
  return (error as Error).message;
}

const source = (order: {
  affiliateId: string;
  couponCode: string | null;
  campaignId: string | null;
  attribution: string | null;
  shortUrlCode: string | null;
}) => ({
  affiliateId: order.affiliateId,
  couponCode: order.couponCode,
  campaignId: order.campaignId,
  attribution: order.attribution,
  shortUrlCode: order.shortUrlCode,
});

describe('the database attributes an order', () => {
  test("to a PersonalCoupon code's owner, without a click: COUPON, the code normalised", async () => {
    const order = await record(ben.affiliateId, { couponCode: '  ana10 ' });
    expect(source(order)).toEqual({
      affiliateId: ana.affiliateId,
      couponCode: 'ANA10',
      campaignId: personal.id,
      attribution: 'COUPON',
      shortUrlCode: null,
    });
  });

  test("to the code's owner whatever link was clicked, without the other affiliate's click", async () => {
    const type = await createChannelType();
    const benChannel = await createChannel(ben.affiliateId, type.id);
    const order = await record(ben.affiliateId, {
      couponCode: 'ANA10',
      shortUrlCode: benLink.urlCode,
      channelId: benChannel.id,
      sub1: 'ben-newsletter',
    });
    expect(source(order)).toEqual({
      affiliateId: ana.affiliateId,
      couponCode: 'ANA10',
      campaignId: personal.id,
      attribution: 'COUPON',
      shortUrlCode: null,
    });
    expect(order).toMatchObject({ sub1: null, channelId: null });
    const seenByBen = await call(`/affiliate/orders/${order.id}`, { key: ben.apiKey });
    expect(seenByBen.status).toBe(404);
  });

  test("with its owner's own link: LINK_AND_COUPON, the click kept", async () => {
    const order = await record(ana.affiliateId, {
      couponCode: 'ana10',
      shortUrlCode: anaLink.urlCode,
      sub1: 'ana-video',
    });
    expect(source(order)).toEqual({
      affiliateId: ana.affiliateId,
      couponCode: 'ANA10',
      campaignId: personal.id,
      attribution: 'LINK_AND_COUPON',
      shortUrlCode: anaLink.urlCode,
    });
    expect(order.sub1).toBe('ana-video');
  });

  test("with a GenericCoupon code and a click: the link's affiliate, the coupon's campaign", async () => {
    const order = await record(ben.affiliateId, {
      couponCode: 'Spring20',
      shortUrlCode: benLink.urlCode,
    });
    expect(source(order)).toEqual({
      affiliateId: ben.affiliateId,
      couponCode: 'SPRING20',
      campaignId: generic.id,
      attribution: 'LINK_AND_COUPON',
      shortUrlCode: benLink.urlCode,
    });
  });

  test("with a link alone: LINK and the link's campaign; with neither, no attribution", async () => {
    const linked = await record(ana.affiliateId, { shortUrlCode: anaLink.urlCode });
    expect(source(linked)).toMatchObject({ attribution: 'LINK', campaignId: offer.id });
    const plain = await record(ana.affiliateId);
    expect(source(plain)).toMatchObject({ attribution: null, campaignId: null, couponCode: null });
  });

  test('with a code of no campaign: kept for reconciliation, attributing nothing', async () => {
    const linked = await record(ana.affiliateId, {
      couponCode: 'welcome',
      shortUrlCode: anaLink.urlCode,
    });
    expect(source(linked)).toEqual({
      affiliateId: ana.affiliateId,
      couponCode: 'WELCOME',
      campaignId: offer.id,
      attribution: 'LINK',
      shortUrlCode: anaLink.urlCode,
    });
    const alone = await record(ana.affiliateId, { couponCode: '   ' });
    expect(source(alone)).toMatchObject({ couponCode: null, attribution: null });
  });

  test('whatever campaign and attribution are written, and keeps them while the source stays', async () => {
    const order = await record(ana.affiliateId, {
      shortUrlCode: anaLink.urlCode,
      campaignId: generic.id,
      attribution: 'COUPON',
    });
    expect(source(order)).toMatchObject({ attribution: 'LINK', campaignId: offer.id });
    const rewritten = await prisma.order.update({
      where: { id: order.id },
      data: { campaignId: personal.id, attribution: 'LINK_AND_COUPON', status: 'APPROVED' },
    });
    expect(source(rewritten)).toMatchObject({ attribution: 'LINK', campaignId: offer.id });
  });

  test('again when an update changes its source', async () => {
    const order = await record(ana.affiliateId, { shortUrlCode: anaLink.urlCode });
    const coded = await prisma.order.update({
      where: { id: order.id },
      data: { couponCode: 'ana10' },
    });
    expect(source(coded)).toMatchObject({
      attribution: 'LINK_AND_COUPON',
      campaignId: personal.id,
      couponCode: 'ANA10',
    });
    const unlinked = await prisma.order.update({
      where: { id: order.id },
      data: { shortUrlCode: null, couponCode: null },
    });
    expect(source(unlinked)).toMatchObject({ attribution: null, campaignId: null });
  });

  test("keeps a deleted campaign's orders, locked ones too, with no campaign", async () => {
    const lockingBrand = await createBrand({ orderLockDays: 0 });
    const coupon = await createCampaign(lockingBrand.id, {
      type: 'PersonalCoupon',
      offerType: null,
    });
    await createPersonalCode(coupon.id, ana.affiliateId, 'GONE-SOON');
    const order = await createOrder(ana.affiliateId, lockingBrand.id, {
      couponCode: 'gone-soon',
      orderedAt: days(-1),
    });
    expect(order.campaignId).toBe(coupon.id);
    await prisma.$executeRaw`UPDATE "Order" SET "lockedAt" = "locksAt" WHERE "id" = ${order.id}::uuid`;
    await prisma.campaign.delete({ where: { id: coupon.id } });
    const after = await prisma.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(source(after)).toMatchObject({
      campaignId: null,
      attribution: 'COUPON',
      couponCode: 'GONE-SOON',
    });
  });
});

describe('migration coupon_attribution', () => {
  /** The migration's backfill of existing orders, run again. */
  async function backfill() {
    const { readMigrations } = await import('../../src/platform/migrations');
    const { sql } = (await readMigrations()).find((m) => m.name.endsWith('_coupon_attribution'))!;
    const from = sql.indexOf('ALTER TABLE "Order" DISABLE TRIGGER USER;');
    const to = sql.indexOf('ALTER TABLE "Order" ENABLE TRIGGER USER;', from);
    const statements = `${sql.slice(from, to)}ALTER TABLE "Order" ENABLE TRIGGER USER`.split(';\n');
    await prisma.$transaction(statements.map((statement) => prisma.$executeRawUnsafe(statement)));
  }

  test("gives orders recorded before it their link's campaign and LINK, leaving their updatedAt", async () => {
    const linked = await record(ana.affiliateId, { shortUrlCode: anaLink.urlCode });
    const plain = await record(ana.affiliateId);
    const ids = [linked.id, plain.id];
    await prisma.$transaction([
      prisma.$executeRaw`ALTER TABLE "Order" DISABLE TRIGGER USER`,
      prisma.$executeRaw`UPDATE "Order" SET "attribution" = NULL, "campaignId" = NULL
        WHERE "id" IN (${Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`))})`,
      prisma.$executeRaw`ALTER TABLE "Order" ENABLE TRIGGER USER`,
    ]);
    await backfill();
    const after = await prisma.order.findMany({ where: { id: { in: ids } } });
    const byId = new Map(after.map((order) => [order.id, order]));
    expect(byId.get(linked.id)).toMatchObject({
      attribution: 'LINK',
      campaignId: offer.id,
      updatedAt: linked.updatedAt,
    });
    expect(byId.get(plain.id)).toMatchObject({ attribution: null, campaignId: null });
  });
});

describe('the database refuses', () => {
  test("a code of another brand's campaign, personal or generic, in its words", async () => {
    for (const code of ['books-ana', 'READ5']) {
      const message = await refusalOf(record(ana.affiliateId, { couponCode: code }));
      expect(message).toMatch(
        new RegExp(
          `coupon code ${code.toUpperCase()} is a code of another brand's campaign \\(.+\\), not of the order's brand ${brandId}`,
        ),
      );
    }
    expect(
      await prisma.order.count({ where: { couponCode: { in: ['BOOKS-ANA', 'READ5'] } } }),
    ).toBe(0);
  });

  test('a GenericCoupon code without a click', async () => {
    const message = await refusalOf(record(ana.affiliateId, { couponCode: 'spring20' }));
    expect(message).toMatch(
      `coupon code SPRING20 is the public code of GenericCoupon campaign ${generic.id}, which attributes an order only with a click`,
    );
  });

  test('a change of the code that would move the order to another affiliate unless it says so', async () => {
    const order = await record(ana.affiliateId, { shortUrlCode: anaLink.urlCode });
    const message = await refusalOf(
      prisma.order.update({ where: { id: order.id }, data: { couponCode: 'BEN10' } }),
    );
    expect(message).toMatch(
      `coupon code BEN10 is affiliate ${ben.affiliateId}'s PersonalCoupon code: a change of the order's source that moves it to another affiliate writes that affiliateId with it`,
    );
    const moved = await prisma.order.update({
      where: { id: order.id },
      data: { couponCode: 'BEN10', affiliateId: ben.affiliateId },
    });
    expect(source(moved)).toMatchObject({
      affiliateId: ben.affiliateId,
      attribution: 'COUPON',
      shortUrlCode: null,
    });
  });
});

describe('GET /affiliate/orders', () => {
  let coded: { id: string };
  let generics: { id: string };
  let linked: { id: string };
  let ownerKey: string;

  beforeAll(async () => {
    const owner = await createAffiliate();
    const coupon = await createCampaign(brandId, { type: 'PersonalCoupon', offerType: null });
    await createPersonalCode(coupon.id, owner.affiliateId, 'Cleo-15');
    const link = await createLink(owner.affiliateId, brandId, { campaignId: offer.id });
    coded = await record(owner.affiliateId, {
      couponCode: 'cleo-15',
      orderNumber: 'CP-1',
      orderedAt: days(-3),
    });
    generics = await record(owner.affiliateId, {
      couponCode: 'SPRING20',
      shortUrlCode: link.urlCode,
      orderNumber: 'CP-2',
      orderedAt: days(-2),
    });
    linked = await record(owner.affiliateId, {
      shortUrlCode: link.urlCode,
      orderNumber: 'CP-3',
      orderedAt: days(-1),
    });
    ownerKey = owner.apiKey;
  });

  const idsOf = async (query: string) => {
    const { status, body } = await call(`/affiliate/orders?${query}`, { key: ownerKey });
    expect(status).toBe(200);
    return body.data.map((order: { id: string }) => order.id);
  };

  test('answers the code, the campaign and the attribution', async () => {
    const { body } = await call(`/affiliate/orders/${coded.id}`, { key: ownerKey });
    expect(body.data).toMatchObject({
      couponCode: 'CLEO-15',
      campaignId: expect.any(String),
      attribution: 'COUPON',
      shortUrlCode: null,
    });
  });

  test('couponCode= matches trimmed and in any case', async () => {
    expect(await idsOf('couponCode=%20cleo-15')).toEqual([coded.id]);
    expect(await idsOf('couponCode=nothing')).toEqual([]);
  });

  test('campaignId= and attribution= narrow the list', async () => {
    expect(await idsOf(`campaignId=${generic.id}`)).toEqual([generics.id]);
    expect(await idsOf(`campaignId=${offer.id}`)).toEqual([linked.id]);
    expect(await idsOf('attribution=LINK,COUPON')).toEqual([linked.id, coded.id]);
    expect(await idsOf('attribution=LINK_AND_COUPON')).toEqual([generics.id]);
  });

  test('a malformed attribution or campaignId answers 400 naming it', async () => {
    expectError(
      await call('/affiliate/orders?attribution=CLICK', { key: ownerKey }),
      'BAD_REQUEST',
      /attribution/,
    );
    expectError(
      await call('/affiliate/orders?campaignId=nope', { key: ownerKey }),
      'BAD_REQUEST',
      /campaignId/,
    );
  });
});

describe('GET /affiliate/reports/performance?groupBy=coupon', () => {
  test("orders and earnings per code, clicks and EPC of its campaign's links; a personal code's orders without clicks still show", async () => {
    const owner = await createAffiliate();
    const coupon = await createCampaign(brandId, { type: 'PersonalCoupon', offerType: null });
    await createPersonalCode(coupon.id, owner.affiliateId, 'Dora5');
    const couponLink = await createLink(owner.affiliateId, brandId, {
      campaignId: generic.id,
      linkType: 'Coupon',
    });
    const plainLink = await createLink(owner.affiliateId, brandId);
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 3_600_000);
    await recordClicks(couponLink, hour, { clicks: 8 });
    await recordClicks(plainLink, hour, { clicks: 2 });
    const at = new Date(hour.getTime() + 60_000);
    const order = (data: Partial<Prisma.OrderUncheckedCreateInput>) =>
      record(owner.affiliateId, { orderedAt: at, earningsMinor: 400, ...data });
    await order({ couponCode: 'dora5' });
    await order({ couponCode: 'DORA5 ', earningsMinor: 200 });
    await order({ couponCode: 'spring20', shortUrlCode: couponLink.urlCode });
    await order({ shortUrlCode: plainLink.urlCode });
    const period = `startAt=${new Date(hour.getTime() - 3_600_000).toISOString()}&endAt=${new Date(hour.getTime() + 3_600_000).toISOString()}`;
    const { status, body } = await call(`/affiliate/reports/performance?groupBy=coupon&${period}`, {
      key: owner.apiKey,
    });
    expect(status).toBe(200);
    const rows = body.data.map(
      (row: {
        couponCode: string | null;
        clicks: number;
        orders: number;
        earnings: number;
        epc: number | null;
      }) => ({
        couponCode: row.couponCode,
        clicks: row.clicks,
        orders: row.orders,
        earnings: row.earnings,
        epc: row.epc,
      }),
    );
    expect(rows).toEqual([
      { couponCode: 'SPRING20', clicks: 8, orders: 1, earnings: 4, epc: 0.5 },
      { couponCode: null, clicks: 2, orders: 1, earnings: 4, epc: 2 },
      { couponCode: 'DORA5', clicks: 0, orders: 2, earnings: 6, epc: null },
    ]);
  });

  test("a link's clicks follow its campaign's code as the code is issued, changed and withdrawn and as the link changes campaign", async () => {
    const cleo = await createAffiliate();
    const reserved = await createCampaign(brandId, { type: 'PersonalCoupon', offerType: null });
    const summer = await createCampaign(brandId, {
      type: 'GenericCoupon',
      offerType: null,
      code: 'summer5',
    });
    const toReserved = await createLink(cleo.affiliateId, brandId, { campaignId: reserved.id });
    const toSummer = await createLink(cleo.affiliateId, brandId, { campaignId: summer.id });
    const toOffer = await createLink(cleo.affiliateId, brandId, { campaignId: offer.id });
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000);
    await recordClicks(toReserved, hour, { clicks: 3 });
    await recordClicks(toOffer, hour, { clicks: 2 });
    // Counted by the redirect itself, in the current hour.
    const followed = await app.fetch(`http://api.test/s/${toSummer.urlCode}`, {
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Firefox/128.0' },
      redirect: 'manual',
    });
    expect(followed.status).toBe(302);

    const period = `startAt=${new Date(hour.getTime() - 3_600_000).toISOString()}&endAt=${new Date(hour.getTime() + 3 * 3_600_000).toISOString()}`;
    // Affiliate-wide (the hours with a code, the rest as the difference) and within the brand
    // (each link's hours) alike.
    const clicksByCode = async () => {
      const [all, inBrand] = await Promise.all(
        ['', `&organizationId=${brandId}`].map((filter) =>
          call(`/affiliate/reports/performance?groupBy=coupon&${period}${filter}`, {
            key: cleo.apiKey,
          }),
        ),
      );
      expect(inBrand!.body.data).toEqual(all!.body.data);
      return Object.fromEntries(
        all!.body.data.map((row: { couponCode: string | null; clicks: number }) => [
          row.couponCode ?? '(none)',
          row.clicks,
        ]),
      );
    };
    expect(await clicksByCode()).toEqual({ '(none)': 5, SUMMER5: 1 });

    await createPersonalCode(reserved.id, cleo.affiliateId, 'Cleo7');
    expect(await clicksByCode()).toEqual({ CLEO7: 3, '(none)': 2, SUMMER5: 1 });

    await prisma.campaign.update({ where: { id: summer.id }, data: { code: ' Autumn5' } });
    await prisma.shortUrl.update({ where: { id: toOffer.id }, data: { campaignId: summer.id } });
    expect(await clicksByCode()).toEqual({ CLEO7: 3, AUTUMN5: 3 });

    await prisma.personalCouponCode.delete({
      where: { campaignId_affiliateId: { campaignId: reserved.id, affiliateId: cleo.affiliateId } },
    });
    await prisma.campaign.delete({ where: { id: summer.id } });
    expect(await clicksByCode()).toEqual({ '(none)': 6 });

    // Every hour's code is the one its campaign gives it now, however the hour was written.
    const stale = await prisma.$queryRaw<{ stale: number }[]>`
      SELECT count(*)::int AS stale FROM "LinkClickHour"
      WHERE "couponCode" <> "click_coupon_code"("campaignId", "affiliateId")`;
    expect(stale).toEqual([{ stale: 0 }]);
  });
});

describe('orders by code in the report by campaign, within a campaign, and in the change feed', () => {
  let owner: { affiliateId: string; apiKey: string };
  let coupon: { id: string };
  let hour: Date;
  let period: string;

  beforeAll(async () => {
    owner = await createAffiliate();
    coupon = await createCampaign(brandId, { type: 'PersonalCoupon', offerType: null });
    await createPersonalCode(coupon.id, owner.affiliateId, 'Eve7');
    const link = await createLink(owner.affiliateId, brandId, { campaignId: offer.id });
    hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 3_600_000);
    await recordClicks(link, hour, { clicks: 6 });
    const at = new Date(hour.getTime() + 60_000);
    const order = (data: Partial<Prisma.OrderUncheckedCreateInput>) =>
      record(owner.affiliateId, { orderedAt: at, earningsMinor: 300, ...data });
    await order({ couponCode: 'eve7' });
    await order({ couponCode: 'SPRING20', shortUrlCode: link.urlCode, sub1: 'newsletter' });
    await order({ shortUrlCode: link.urlCode, sub1: 'newsletter' });
    await order({ shortUrlCode: link.urlCode, sub1: 'footer' });
    period = `startAt=${new Date(hour.getTime() - 3_600_000).toISOString()}&endAt=${new Date(hour.getTime() + 3_600_000).toISOString()}`;
  });

  /** The report's rows: their key (`campaignId` or `subId`), clicks and orders. */
  async function reportOf(query: string, key: 'campaignId' | 'subId') {
    const { status, body } = await call(`/affiliate/reports/performance?${query}&${period}`, {
      key: owner.apiKey,
    });
    expect(status).toBe(200);
    return body.data.map((row: Record<string, unknown>) => ({
      [key]: row[key],
      clicks: row.clicks,
      orders: row.orders,
    }));
  }

  test("by campaign, an order counts under the campaign it came through: its code's, else its link's", async () => {
    // Rows of equal clicks and orders come in the order of their key.
    const [one, two] = [coupon.id, generic.id].sort();
    expect(await reportOf('groupBy=campaign', 'campaignId')).toEqual([
      { campaignId: offer.id, clicks: 6, orders: 2 },
      { campaignId: one, clicks: 0, orders: 1 },
      { campaignId: two, clicks: 0, orders: 1 },
    ]);
  });

  test("within a campaign, by day and by sub-ID, the campaign's orders, by code too", async () => {
    const day = async (campaignId: string) =>
      (await reportOf(`groupBy=day&campaignId=${campaignId}`, 'subId')).reduce(
        (sum: number, row: { orders: number }) => sum + row.orders,
        0,
      );
    expect(await day(coupon.id)).toBe(1);
    expect(await day(generic.id)).toBe(1);
    expect(await day(offer.id)).toBe(2);
    expect(await reportOf(`groupBy=sub1&campaignId=${generic.id}`, 'subId')).toEqual([
      { subId: 'newsletter', clicks: 0, orders: 1 },
    ]);
    expect(await reportOf(`groupBy=sub1&campaignId=${offer.id}`, 'subId')).toEqual([
      { subId: null, clicks: 6, orders: 0 },
      { subId: 'footer', clicks: 0, orders: 1 },
      { subId: 'newsletter', clicks: 0, orders: 1 },
    ]);
  });

  test("the change feed's events carry the order's code, campaign and attribution", async () => {
    const { status, body } = await call('/affiliate/order-events?types=CREATED', {
      key: owner.apiKey,
    });
    expect(status).toBe(200);
    const sources = body.data.map(
      (event: { couponCode: string | null; campaignId: string | null; attribution: string }) => [
        event.couponCode,
        event.campaignId,
        event.attribution,
      ],
    );
    expect(sources).toEqual([
      ['EVE7', coupon.id, 'COUPON'],
      ['SPRING20', generic.id, 'LINK_AND_COUPON'],
      [null, offer.id, 'LINK'],
      [null, offer.id, 'LINK'],
    ]);
  });

  test('the order hours equal the orders, by code and campaign, as codes change and a campaign is deleted', async () => {
    const other = await createAffiliate();
    const gone = await createCampaign(brandId, { type: 'PersonalCoupon', offerType: null });
    await createPersonalCode(gone.id, other.affiliateId, 'Finn3');
    const link = await createLink(other.affiliateId, brandId, { campaignId: offer.id });
    const at = new Date(hour.getTime() + 120_000);
    const first = await record(other.affiliateId, { orderedAt: at, couponCode: 'FINN3' });
    const second = await record(other.affiliateId, {
      orderedAt: at,
      shortUrlCode: link.urlCode,
      couponCode: 'finn3',
    });
    await record(other.affiliateId, { orderedAt: at, shortUrlCode: link.urlCode });
    await prisma.order.update({ where: { id: second.id }, data: { couponCode: 'SPRING20' } });
    await prisma.order.update({ where: { id: first.id }, data: { status: 'APPROVED' } });
    await prisma.campaign.delete({ where: { id: gone.id } });

    const hours = await prisma.$queryRaw`
      SELECT "linkCode", "couponCode", "campaignId", "status"::text, "orders"
      FROM "OrderLinkHour" WHERE "affiliateId" = ${other.affiliateId}::uuid AND "orders" <> 0
      ORDER BY 1, 2, 4`;
    const orders = await prisma.$queryRaw`
      SELECT coalesce("shortUrlCode", '') AS "linkCode", coalesce("couponCode", '') AS "couponCode",
        "campaignId", "status"::text, count(*)::int AS "orders"
      FROM "Order" WHERE "affiliateId" = ${other.affiliateId}::uuid
      GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 4`;
    expect(hours).toEqual(orders);
    expect(hours).toEqual([
      { linkCode: '', couponCode: 'FINN3', campaignId: null, status: 'APPROVED', orders: 1 },
      {
        linkCode: link.urlCode,
        couponCode: '',
        campaignId: offer.id,
        status: 'PENDING',
        orders: 1,
      },
      {
        linkCode: link.urlCode,
        couponCode: 'SPRING20',
        campaignId: generic.id,
        status: 'PENDING',
        orders: 1,
      },
    ]);
  });
});

test("the demo data has Ana's orders attributed by her personal codes, with and without a click, by a brand's GenericCoupon code, and by link", async () => {
  const { seedDemoData } = await import('../../prisma/seed/demo');
  const { DEMO_USERS } = await import('../../src/auth/demoIdentities');
  await seedDemoData(prisma);
  const byAttribution = await prisma.order.groupBy({
    by: ['attribution'],
    where: { affiliateId: DEMO_USERS.affiliate },
    _count: { _all: true },
  });
  const counts = Object.fromEntries(
    byAttribution.map((group) => [String(group.attribution), group._count._all]),
  );
  expect(counts).toEqual({
    COUPON: expect.any(Number),
    LINK: expect.any(Number),
    LINK_AND_COUPON: expect.any(Number),
    null: expect.any(Number),
  });
  const anas = (where: Prisma.OrderWhereInput) =>
    prisma.order.count({ where: { affiliateId: DEMO_USERS.affiliate, ...where } });
  expect(await anas({ attribution: 'COUPON', couponCode: { startsWith: 'ANA-' } })).toBe(
    counts.COUPON,
  );
  expect(
    await anas({ attribution: 'LINK_AND_COUPON', campaign: { type: 'GenericCoupon' } }),
  ).toBeGreaterThan(0);
});
