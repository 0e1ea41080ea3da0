// GET /affiliate/coupons: the key's affiliate's PersonalCoupon codes and the GenericCoupon codes of
// the brands it works with, with campaign, period and status; the partner catalog still never shows
// a PersonalCoupon's code.
import { prisma } from '../../src/platform/db';
import { CAMPAIGN_ORDER } from '../../src/modules/catalog/campaigns/common';
import { FIND_IDS_FROM_OFFSET } from '../../src/schema/lists';
import { call, expectError, useTestDatabase } from '../support/app';
import {
  createAffiliate,
  createApiKey,
  createBrand,
  createCampaign,
  createPersonalCode,
  days,
  relateAffiliateToBrand,
} from '../support/factories';

useTestDatabase();

let ana: { affiliateId: string; apiKey: string };
let ben: { affiliateId: string; apiKey: string };
type Name =
  | 'expired'
  | 'personal'
  | 'generic'
  | 'otherGeneric'
  | 'othersCode'
  | 'noCode'
  | 'hidden'
  | 'offer';
const campaigns = {} as Record<Name, { id: string }>;
let shoesId: string;

beforeAll(async () => {
  ana = await createAffiliate();
  ben = await createAffiliate();
  const shoes = await createBrand({ name: 'Aurora Shoes' });
  const books = await createBrand({ name: 'Chapter Books' });
  const hidden = await createBrand({ name: 'Closed Brand', isActive: false });
  shoesId = shoes.id;
  // Ana works with the shoe brand only; created oldest first.
  await relateAffiliateToBrand(ana.affiliateId, shoes.id);
  // Created a minute apart, in this order, for the list's newest first.
  let created = Date.now() - 60 * 60_000;
  const coupon = (organizationId: string, data: Parameters<typeof createCampaign>[1]) =>
    createCampaign(organizationId, {
      offerType: null,
      createdAt: new Date((created += 60_000)),
      ...data,
    });
  campaigns.expired = await coupon(shoes.id, {
    type: 'PersonalCoupon',
    name: 'Winter codes',
    startAt: days(-60),
    endAt: days(-30),
  });
  campaigns.personal = await coupon(shoes.id, { type: 'PersonalCoupon', name: 'Podcast codes' });
  campaigns.generic = await coupon(shoes.id, {
    type: 'GenericCoupon',
    name: 'Spring sale',
    code: 'SPRING20',
    startAt: days(5),
    endAt: days(30),
  });
  // Not Ana's: a generic code of a brand she has no terms with, another affiliate's personal
  // code, a personal campaign without a code of hers, a hidden brand's code, an offer.
  campaigns.otherGeneric = await coupon(books.id, { type: 'GenericCoupon', code: 'READ5' });
  campaigns.othersCode = await coupon(books.id, { type: 'PersonalCoupon' });
  campaigns.noCode = await coupon(shoes.id, { type: 'PersonalCoupon' });
  campaigns.hidden = await coupon(hidden.id, { type: 'PersonalCoupon' });
  campaigns.offer = await createCampaign(shoes.id);
  await createPersonalCode(campaigns.expired.id, ana.affiliateId, 'ANA-WINTER');
  await createPersonalCode(campaigns.personal.id, ana.affiliateId, 'ana10');
  await createPersonalCode(campaigns.personal.id, ben.affiliateId, 'BEN10');
  await createPersonalCode(campaigns.othersCode.id, ben.affiliateId, 'BEN-BOOKS');
  await createPersonalCode(campaigns.hidden.id, ana.affiliateId, 'ANA-HIDDEN');
});

const coupons = (query = '', key = ana.apiKey) => call(`/affiliate/coupons?${query}`, { key });
const rows = (body: { data: { id: string; code: string | null; status: string }[] }) =>
  body.data.map(({ id, code, status }) => ({ id, code, status }));

describe('GET /affiliate/coupons', () => {
  test("answers the affiliate's codes, newest first, with campaign, period and status", async () => {
    const { status, body } = await coupons();
    expect(status).toBe(200);
    expect(rows(body)).toEqual([
      { id: campaigns.generic.id, code: 'SPRING20', status: 'scheduled' },
      { id: campaigns.personal.id, code: 'ana10', status: 'onTime' },
      { id: campaigns.expired.id, code: 'ANA-WINTER', status: 'expired' },
    ]);
    expect(body.meta).toEqual({ total: 3, page: 1, limit: 20, totalPages: 1 });
    expect(body.data[1]).toMatchObject({
      name: 'Podcast codes',
      type: 'PersonalCoupon',
      organizationId: shoesId,
      organization: { id: shoesId, name: 'Aurora Shoes' },
      period: { startAt: expect.any(String), endAt: expect.any(String) },
    });
  });

  test("another affiliate sees its own codes, never Ana's", async () => {
    const { body } = await coupons('', ben.apiKey);
    expect(rows(body)).toEqual([
      { id: campaigns.othersCode.id, code: 'BEN-BOOKS', status: 'onTime' },
      { id: campaigns.personal.id, code: 'BEN10', status: 'onTime' },
    ]);
  });

  test('types=, status= and organizationId= narrow the list', async () => {
    expect(rows((await coupons('types=GenericCoupon')).body)).toEqual([
      { id: campaigns.generic.id, code: 'SPRING20', status: 'scheduled' },
    ]);
    expect(rows((await coupons('status=onTime,expired')).body).map((row) => row.id)).toEqual([
      campaigns.personal.id,
      campaigns.expired.id,
    ]);
    expect(
      (await coupons('organizationId=00000000-0000-4000-8000-000000000000')).body.data,
    ).toEqual([]);
  });

  test('a malformed type or status answers 400 naming it', async () => {
    expectError(await coupons('types=Voucher'), 'BAD_REQUEST', /types/);
    expectError(await coupons('status=soon'), 'BAD_REQUEST', /status/);
  });
});

describe("the affiliate's codes as they change", () => {
  /** Every affiliate's coupons, asked of the personal codes and the brands' terms directly. */
  const definedCoupons = () => prisma.$queryRaw<
    { affiliateId: string; campaignId: string; createdAt: Date }[]
  >`
    SELECT personal."affiliateId"::text, coupon."id"::text AS "campaignId", coupon."createdAt"
    FROM "Campaign" coupon
    JOIN "PersonalCouponCode" personal ON personal."campaignId" = coupon."id"
    WHERE coupon."type" = 'PersonalCoupon'
    UNION
    SELECT terms."affiliateId"::text, coupon."id"::text, coupon."createdAt" FROM "Campaign" coupon
    JOIN "AffiliateBrand" terms ON terms."organizationId" = coupon."organizationId"
    WHERE coupon."type" = 'GenericCoupon' AND coupon."code" IS NOT NULL
    ORDER BY 1, 2`;
  const keptCoupons = () =>
    prisma.affiliateCoupon.findMany({
      select: { affiliateId: true, campaignId: true, createdAt: true },
      orderBy: [{ affiliateId: 'asc' }, { campaignId: 'asc' }],
    });

  test('follow codes issued and withdrawn, terms made and ended, and coupons changed', async () => {
    const carl = await createAffiliate();
    const tea = await createBrand({ name: 'Delta Tea' });
    const cups = await createBrand({ name: 'Echo Cups' });
    const coupon = (data: Parameters<typeof createCampaign>[1]) =>
      createCampaign(tea.id, { offerType: null, ...data });
    const generic = await coupon({ type: 'GenericCoupon', code: 'TEA5' });
    const personal = await coupon({ type: 'PersonalCoupon' });
    const carls = async () =>
      (await coupons('limit=100', carl.apiKey)).body.data.map((row: { id: string }) => row.id);
    const expectCarls = async (ids: string[]) => {
      expect([...(await carls())].sort()).toEqual([...ids].sort());
      expect(await keptCoupons()).toEqual(await definedCoupons());
    };

    await expectCarls([]);
    await relateAffiliateToBrand(carl.affiliateId, tea.id);
    await expectCarls([generic.id]);
    await createPersonalCode(personal.id, carl.affiliateId, 'CARL-TEA');
    await expectCarls([generic.id, personal.id]);

    // A generic code made after the terms is Carl's at once; one without a code, or whose code is
    // dropped, is not.
    const later = await coupon({ type: 'GenericCoupon', code: 'TEA10' });
    await coupon({ type: 'GenericCoupon', code: null });
    await prisma.campaign.update({ where: { id: generic.id }, data: { code: null } });
    await expectCarls([personal.id, later.id]);

    // Moved to a brand Carl has no terms with; a personal coupon turned generic, and back.
    await prisma.campaign.update({ where: { id: later.id }, data: { organizationId: cups.id } });
    await expectCarls([personal.id]);
    await prisma.campaign.update({ where: { id: later.id }, data: { organizationId: tea.id } });
    await prisma.campaign.update({
      where: { id: personal.id },
      data: { type: 'GenericCoupon', code: 'TEA-ALL' },
    });
    await expectCarls([personal.id, later.id]);
    await prisma.campaign.update({ where: { id: personal.id }, data: { type: 'PersonalCoupon' } });
    await expectCarls([personal.id, later.id]);
    // Each keeps its campaign's createdAt, the list's order.
    await prisma.campaign.update({ where: { id: later.id }, data: { createdAt: days(-3) } });
    await expectCarls([personal.id, later.id]);

    // Terms ended: the generic codes go, the personal code stays until it is withdrawn.
    await prisma.affiliateBrand.delete({
      where: {
        affiliateId_organizationId: { affiliateId: carl.affiliateId, organizationId: tea.id },
      },
    });
    await expectCarls([personal.id]);
    await prisma.personalCouponCode.delete({
      where: { campaignId_affiliateId: { campaignId: personal.id, affiliateId: carl.affiliateId } },
    });
    await expectCarls([]);

    // A deleted coupon leaves no code behind.
    await relateAffiliateToBrand(carl.affiliateId, tea.id);
    await expectCarls([later.id]);
    await prisma.campaign.delete({ where: { id: later.id } });
    await expectCarls([]);
  });
});

describe('a deep page', () => {
  test('holds the coupons the campaign order puts there, ties on createdAt by id', async () => {
    const dora = await createAffiliate();
    const bikes = await createBrand({ name: 'Foxtrot Bikes' });
    const helmets = await createBrand({ name: 'Golf Helmets' });
    const count = FIND_IDS_FROM_OFFSET + 100;
    const start = Date.now() - count * 1_000;
    // Two coupons a second, so every createdAt is shared by two; every 25th is a helmet code.
    await prisma.campaign.createMany({
      data: Array.from({ length: count }, (_, n) => ({
        organizationId: n % 25 === 0 ? helmets.id : bikes.id,
        name: `Code ${n}`,
        type: 'GenericCoupon' as const,
        code: `RIDE${n}`,
        url: 'https://bikes.example/',
        startAt: days(-1),
        endAt: days(30),
        createdAt: new Date(start + Math.floor(n / 2) * 1_000),
      })),
    });
    await relateAffiliateToBrand(dora.affiliateId, bikes.id);
    await relateAffiliateToBrand(dora.affiliateId, helmets.id);
    const inCampaignOrder = async (organizationIds: string[], skip: number) =>
      (
        await prisma.campaign.findMany({
          where: { organizationId: { in: organizationIds } },
          orderBy: CAMPAIGN_ORDER,
          skip,
          take: 20,
          select: { id: true },
        })
      ).map((row) => row.id);
    const ids = (body: { data: { id: string }[] }) => body.data.map((row) => row.id);

    const deep = FIND_IDS_FROM_OFFSET / 20 + 1;
    for (const page of [deep, deep + 1]) {
      const { body } = await coupons(`limit=20&page=${page}`, dora.apiKey);
      expect(ids(body)).toEqual(await inCampaignOrder([bikes.id, helmets.id], (page - 1) * 20));
      expect(body.meta).toEqual({ total: count, page, limit: 20, totalPages: count / 20 });
    }
    // The list's filters choose the page's rows there too.
    const { body } = await coupons(`limit=20&page=${deep}&organizationId=${bikes.id}`, dora.apiKey);
    expect(ids(body)).toHaveLength(20);
    expect(ids(body)).toEqual(await inCampaignOrder([bikes.id], FIND_IDS_FROM_OFFSET));
  });
});

describe('the partner catalog', () => {
  test("never shows a PersonalCoupon's code, in its list or on its page", async () => {
    const { apiKey: partnerKey } = await createApiKey('partner');
    const list = await call('/api/partner/campaigns?types=PersonalCoupon&limit=20', {
      key: partnerKey,
    });
    expect(list.status).toBe(200);
    expect(list.body.data.map((campaign: { id: string }) => campaign.id)).toContain(
      campaigns.personal.id,
    );
    const page = await call(`/api/partner/campaigns/${campaigns.personal.id}`, {
      key: partnerKey,
    });
    expect(page.body.data).toMatchObject({ type: 'PersonalCoupon', code: null });
    for (const text of [JSON.stringify(list.body), JSON.stringify(page.body)]) {
      for (const code of ['ana10', 'BEN10', 'ANA-WINTER', 'BEN-BOOKS']) {
        expect(text).not.toContain(code);
      }
    }
  });
});
