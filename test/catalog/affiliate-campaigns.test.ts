// The affiliate campaigns (/affiliate/campaigns) against the contract and docs/decisions.md
// ("Catalog", "Affiliate surface", "Parameters"): envelope, filters, the affiliate's context
// (commission, own code, short link) and errors.
import { call, graphql, useTestDatabase, expectError, refusesParameters } from '../support/app';
import {
  campaignLinks,
  createAffiliate,
  createApiKey,
  createBrand,
  createCampaign,
  createCampaignLink,
  createPersonalCode,
  days,
} from '../support/factories';
import { prisma } from '../../src/platform/db';
import {
  campaignShortLink,
  getOrCreateShortUrl,
  UrlCodeExhaustedError,
} from '../../src/modules/links/links';

useTestDatabase();

type CampaignRow = Awaited<ReturnType<typeof createCampaign>>;

let affiliate: { affiliateId: string; apiKey: string };
let second: { affiliateId: string; apiKey: string };
let partnerKey: string;
const brands: Record<string, { id: string }> = {};
const campaigns: Record<string, CampaignRow> = {};
const FILLER_COUNT = 17;
const FILLERS = Array<string>(FILLER_COUNT).fill('filler');
const SHORT_URL = /^https:\/\/api\.test\/s\/[0-9A-Za-z]{8}$/;

beforeAll(async () => {
  affiliate = await createAffiliate();
  second = await createAffiliate();
  ({ apiKey: partnerKey } = await createApiKey('partner'));

  brands.shoes = await createBrand({ name: 'Aurora Shoes', logoUrl: 'https://cdn.example/a.png' });
  brands.gadgets = await createBrand({ name: 'Beta Gadgets' });
  brands.books = await createBrand({ name: 'Chapter Books' });
  brands.fillers = await createBrand({ name: 'Filler Brand' });
  brands.hidden = await createBrand({ name: 'Hidden Brand', approvalStatus: 'PENDING' });

  campaigns.urlOffer = await createCampaign(brands.shoes.id, {
    name: 'Spring Sale',
    description: 'Up to 40 % off',
    url: 'https://aurora.example/sale?utm_source=network',
    categories: ['fashion'],
    isHighlight: true,
    commissionType: 'PERCENTAGE',
    commissionValue: 750,
    startAt: new Date('2026-01-01T00:00:00.000Z'),
    endAt: days(10),
    createdAt: days(-4),
  });
  campaigns.sheetOffer = await createCampaign(brands.gadgets.id, {
    name: 'Gadget Feed',
    offerType: 'Spreadsheet',
    categories: ['electronics'],
    commissionType: 'FIXED',
    commissionValue: 250,
    createdAt: days(-3),
  });
  campaigns.generic = await createCampaign(brands.gadgets.id, {
    name: 'Welcome Coupon',
    type: 'GenericCoupon',
    offerType: null,
    code: 'WELCOME10',
    startAt: days(-40),
    endAt: days(-5),
    createdAt: days(-2),
  });
  campaigns.personal = await createCampaign(brands.books.id, {
    name: 'Reader Coupon',
    type: 'PersonalCoupon',
    offerType: null,
    categories: ['books'],
    startAt: days(5),
    endAt: days(30),
    createdAt: days(-1),
  });
  campaigns.hidden = await createCampaign(brands.hidden.id, { name: 'Hidden Campaign' });
  // Older expired public coupons, so that lists have several pages.
  for (let i = 0; i < FILLER_COUNT; i += 1) {
    await createCampaign(brands.fillers.id, {
      name: `Filler ${i}`,
      type: 'GenericCoupon',
      offerType: null,
      code: `FILL${i}`,
      categories: ['filler'],
      startAt: days(-200),
      endAt: days(-100),
      createdAt: days(-300 + i),
    });
  }

  await createPersonalCode(campaigns.personal.id, affiliate.affiliateId, 'READER-AFFILIATE-ONE');
  await createPersonalCode(campaigns.personal.id, second.affiliateId, 'READER-AFFILIATE-TWO');
});

const get = (path: string, key = affiliate.apiKey) => call(path, { key });
const keyOf = (id: string) =>
  Object.entries(campaigns).find(([, campaign]) => campaign.id === id)?.[0] ?? 'filler';
const names = (body: { data: { id: string }[] }) => body.data.map((item) => keyOf(item.id));

describe('GET /affiliate/campaigns', () => {
  test('answers { data, meta } with the default limit of 10, newest first', async () => {
    const { status, body } = await get('/affiliate/campaigns');
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['data', 'meta']);
    expect(body.meta).toEqual({ total: 21, page: 1, limit: 10, totalPages: 3 });
    expect(names(body)).toEqual([
      'personal',
      'generic',
      'sheetOffer',
      'urlOffer',
      ...FILLERS.slice(0, 6),
    ]);
  });

  test('serves the last page', async () => {
    const { body } = await get('/affiliate/campaigns?page=3');
    expect(body.meta).toEqual({ total: 21, page: 3, limit: 10, totalPages: 3 });
    expect(body.data).toHaveLength(1);
  });

  test('a page past the end is empty', async () => {
    const { status, body } = await get('/affiliate/campaigns?page=9');
    expect(status).toBe(200);
    expect(body).toEqual({ data: [], meta: { total: 21, page: 9, limit: 10, totalPages: 3 } });
  });

  test('campaigns of brands that are not visible are neither listed nor found', async () => {
    const { body } = await get('/affiliate/campaigns?name=hidden');
    expect(body.data).toEqual([]);
    expect((await get(`/affiliate/campaigns/${campaigns.hidden!.id}`)).status).toBe(404);
  });

  test.each([
    ['types=Offer', ['sheetOffer', 'urlOffer']],
    ['types=GenericCoupon', ['generic', ...FILLERS]],
    ['types=PersonalCoupon', ['personal']],
    ['types=PersonalCoupon,Offer', ['personal', 'sheetOffer', 'urlOffer']],
    ['types=PersonalCoupon&types=Offer', ['personal', 'sheetOffer', 'urlOffer']],
    ['offerType=Url', ['urlOffer']],
    ['offerType=Spreadsheet', ['sheetOffer']],
    ['offerType=Spreadsheet,Url', ['sheetOffer', 'urlOffer']],
    ['types=Offer,PersonalCoupon&offerType=Url', ['personal', 'urlOffer']],
    ['name=COUPON', ['personal', 'generic']],
    ['isHighlight=true', ['urlOffer']],
    ['isHighlight=false', ['personal', 'generic', 'sheetOffer', ...FILLERS]],
    ['categories=electronics,books', ['personal', 'sheetOffer']],
    ['categories=fashion&categories=books', ['personal', 'urlOffer']],
    ['status=onTime', ['sheetOffer', 'urlOffer']],
    ['status=scheduled', ['personal']],
    ['status=expired', ['generic', ...FILLERS]],
    ['status=scheduled,onTime', ['personal', 'sheetOffer', 'urlOffer']],
    ['status=scheduled&status=onTime', ['personal', 'sheetOffer', 'urlOffer']],
  ])('filters %s', async (query, expected) => {
    const { status, body } = await get(`/affiliate/campaigns?${query}&limit=20`);
    expect(status).toBe(200);
    expect(names(body)).toEqual(expected);
    expect(body.meta.total).toBe(expected.length);
  });

  test('organizationId selects one brand', async () => {
    const { body } = await get(`/affiliate/campaigns?organizationId=${brands.gadgets!.id}`);
    expect(names(body)).toEqual(['generic', 'sheetOffer']);
  });

  test('organizationIds selects several brands, as a comma list or repeated', async () => {
    const comma = await get(
      `/affiliate/campaigns?organizationIds=${brands.shoes!.id},${brands.books!.id}`,
    );
    expect(names(comma.body)).toEqual(['personal', 'urlOffer']);
    const repeated = await get(
      `/affiliate/campaigns?organizationIds=${brands.shoes!.id}&organizationIds=${brands.books!.id}`,
    );
    expect(repeated.body).toEqual(comma.body);
  });

  test('startAt and endAt together keep campaigns whose period overlaps them', async () => {
    const from = days(20).toISOString();
    const until = days(40).toISOString();
    const { body } = await get(`/affiliate/campaigns?startAt=${from}&endAt=${until}`);
    expect(names(body)).toEqual(['personal']);
  });

  test('filters combine', async () => {
    const { body } = await get(
      '/affiliate/campaigns?types=Offer,GenericCoupon&status=onTime,expired&isHighlight=false' +
        `&organizationIds=${brands.gadgets!.id},${brands.shoes!.id}`,
    );
    expect(names(body)).toEqual(['generic', 'sheetOffer']);
    expect(body.meta).toEqual({ total: 2, page: 1, limit: 10, totalPages: 1 });
  });

  test('unknown query parameters are ignored', async () => {
    const { status, body } = await get('/affiliate/campaigns?types=Offer&isFavorite=true');
    expect(status).toBe(200);
    expect(names(body)).toEqual(['sheetOffer', 'urlOffer']);
  });

  refusesParameters(
    (query) => get(`/affiliate/campaigns?${query}`),
    [
      ['startAt=2026-01-01T00:00:00Z', 'startAt'],
      ['endAt=2026-01-01T00:00:00Z', 'endAt'],
      ['startAt=2026-03-01T00:00:00Z&endAt=2026-01-01T00:00:00Z', 'startAt'],
      ['startAt=tomorrow&endAt=2026-01-01T00:00:00Z', 'startAt'],
      ['types=Coupon', 'types'],
      ['types=offer', 'types'],
      ['types=Offer,Nope', 'types'],
      ['offerType=Csv', 'offerType'],
      ['status=active', 'status'],
      ['status=onTime,late', 'status'],
      ['organizationId=abc', 'organizationId'],
      ['organizationIds=abc', 'organizationIds'],
      ['isHighlight=yes', 'isHighlight'],
    ],
  );

  test('startAt without endAt says they go together', async () => {
    const { body } = await get('/affiliate/campaigns?startAt=2026-01-01T00:00:00Z');
    expect(body.message).toBe('startAt and endAt must be used together');
  });
});

describe('the affiliate campaign payload', () => {
  test('a Url offer: commission and the affiliate short link', async () => {
    const { status, body } = await get(`/affiliate/campaigns/${campaigns.urlOffer!.id}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      data: {
        id: campaigns.urlOffer!.id,
        name: 'Spring Sale',
        description: 'Up to 40 % off',
        type: 'Offer',
        offerType: 'Url',
        url: 'https://aurora.example/sale?utm_source=network',
        organizationId: brands.shoes!.id,
        organization: {
          id: brands.shoes!.id,
          name: 'Aurora Shoes',
          logoUrl: 'https://cdn.example/a.png',
        },
        categories: ['fashion'],
        period: {
          startAt: '2026-01-01T00:00:00.000Z',
          endAt: campaigns.urlOffer!.endAt.toISOString(),
        },
        status: 'onTime',
        isHighlight: true,
        createdAt: campaigns.urlOffer!.createdAt.toISOString(),
        code: null,
        commission: { type: 'PERCENTAGE', value: 7.5 },
        shortUrl: expect.stringMatching(SHORT_URL),
      },
    });
  });

  test('the Url offer link leads to the campaign url with the tracking parameter', async () => {
    const { body } = await get(`/affiliate/campaigns/${campaigns.urlOffer!.id}`);
    const [link] = await campaignLinks(campaigns.urlOffer!.id, affiliate.affiliateId);
    expect(link).toMatchObject({
      affiliateId: affiliate.affiliateId,
      organizationId: brands.shoes!.id,
      campaignId: campaigns.urlOffer!.id,
      linkType: 'Offer',
      originalUrl: `https://aurora.example/sale?utm_source=network&aff=${affiliate.affiliateId}`,
      dedupeKey: `campaign:${campaigns.urlOffer!.id}`,
      active: true,
      clickCount: 0,
    });
    expect(body.data.shortUrl).toBe(`https://api.test/s/${link!.urlCode}`);
  });

  test('a Spreadsheet offer: fixed commission, no link made automatically', async () => {
    const { body } = await get(`/affiliate/campaigns/${campaigns.sheetOffer!.id}`);
    expect(body.data).toEqual({
      id: campaigns.sheetOffer!.id,
      name: 'Gadget Feed',
      description: null,
      type: 'Offer',
      offerType: 'Spreadsheet',
      url: campaigns.sheetOffer!.url,
      organizationId: brands.gadgets!.id,
      organization: { id: brands.gadgets!.id, name: 'Beta Gadgets', logoUrl: null },
      categories: ['electronics'],
      period: {
        startAt: campaigns.sheetOffer!.startAt.toISOString(),
        endAt: campaigns.sheetOffer!.endAt.toISOString(),
      },
      status: 'onTime',
      isHighlight: false,
      createdAt: campaigns.sheetOffer!.createdAt.toISOString(),
      code: null,
      commission: { type: 'FIXED', value: 2.5 },
      shortUrl: null,
    });
    expect(await campaignLinks(campaigns.sheetOffer!.id)).toEqual([]);
  });

  test('a GenericCoupon: its public code, no link until one is made', async () => {
    const { body } = await get(`/affiliate/campaigns/${campaigns.generic!.id}`);
    expect(body.data).toEqual({
      id: campaigns.generic!.id,
      name: 'Welcome Coupon',
      description: null,
      type: 'GenericCoupon',
      offerType: null,
      url: campaigns.generic!.url,
      organizationId: brands.gadgets!.id,
      organization: { id: brands.gadgets!.id, name: 'Beta Gadgets', logoUrl: null },
      categories: [],
      period: {
        startAt: campaigns.generic!.startAt.toISOString(),
        endAt: campaigns.generic!.endAt.toISOString(),
      },
      status: 'expired',
      isHighlight: false,
      createdAt: campaigns.generic!.createdAt.toISOString(),
      code: 'WELCOME10',
      commission: { type: 'PERCENTAGE', value: 0 },
      shortUrl: null,
    });
    expect(await campaignLinks(campaigns.generic!.id)).toEqual([]);
  });

  test("a PersonalCoupon: this affiliate's own code", async () => {
    const { body } = await get(`/affiliate/campaigns/${campaigns.personal!.id}`);
    expect(body.data).toEqual({
      id: campaigns.personal!.id,
      name: 'Reader Coupon',
      description: null,
      type: 'PersonalCoupon',
      offerType: null,
      url: campaigns.personal!.url,
      organizationId: brands.books!.id,
      organization: { id: brands.books!.id, name: 'Chapter Books', logoUrl: null },
      categories: ['books'],
      period: {
        startAt: campaigns.personal!.startAt.toISOString(),
        endAt: campaigns.personal!.endAt.toISOString(),
      },
      status: 'scheduled',
      isHighlight: false,
      createdAt: campaigns.personal!.createdAt.toISOString(),
      code: 'READER-AFFILIATE-ONE',
      commission: { type: 'PERCENTAGE', value: 0 },
      shortUrl: null,
    });
  });

  test('the list carries the same payload as the single campaign', async () => {
    const list = await get('/affiliate/campaigns?types=Offer,PersonalCoupon');
    for (const item of list.body.data) {
      const one = await get(`/affiliate/campaigns/${item.id}`);
      expect(one.body.data).toEqual(item);
    }
  });
});

describe('PersonalCoupon codes are per affiliate', () => {
  test('each affiliate sees its own code and never the other one', async () => {
    const mine = await get(`/affiliate/campaigns/${campaigns.personal!.id}`);
    const theirs = await get(`/affiliate/campaigns/${campaigns.personal!.id}`, second.apiKey);
    expect(mine.body.data.code).toBe('READER-AFFILIATE-ONE');
    expect(theirs.body.data.code).toBe('READER-AFFILIATE-TWO');
    expect(JSON.stringify(mine.body)).not.toContain('READER-AFFILIATE-TWO');
    expect(JSON.stringify(theirs.body)).not.toContain('READER-AFFILIATE-ONE');
  });

  test('in the list too', async () => {
    const { body } = await get('/affiliate/campaigns?types=PersonalCoupon', second.apiKey);
    expect(body.data.map((item: { code: string }) => item.code)).toEqual(['READER-AFFILIATE-TWO']);
    expect(JSON.stringify(body)).not.toContain('READER-AFFILIATE-ONE');
  });

  test('an affiliate without a code gets null', async () => {
    const { apiKey } = await createAffiliate();
    const { body } = await get(`/affiliate/campaigns/${campaigns.personal!.id}`, apiKey);
    expect(body.data.code).toBeNull();
    expect(JSON.stringify(body)).not.toContain('READER-AFFILIATE');
  });
});

describe('short links', () => {
  async function freshUrlOffer() {
    const brand = await createBrand();
    return createCampaign(brand.id, { createdAt: days(-500) });
  }

  test('a Url offer gets its link on first listing and the same link afterwards', async () => {
    const offer = await freshUrlOffer();
    expect(await campaignLinks(offer.id)).toEqual([]);
    const first = await get(`/affiliate/campaigns?organizationId=${offer.organizationId}`);
    const link = first.body.data[0].shortUrl;
    expect(link).toMatch(SHORT_URL);
    const again = await get(`/affiliate/campaigns?organizationId=${offer.organizationId}`);
    const single = await get(`/affiliate/campaigns/${offer.id}`);
    expect(again.body.data[0].shortUrl).toBe(link);
    expect(single.body.data.shortUrl).toBe(link);
    expect(await campaignLinks(offer.id)).toHaveLength(1);
  });

  test('20 concurrent requests for a fresh Url offer make exactly one link', async () => {
    const offer = await freshUrlOffer();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? get(`/affiliate/campaigns/${offer.id}`).then(({ body }) => body.data.shortUrl)
          : get(`/affiliate/campaigns?organizationId=${offer.organizationId}`).then(
              ({ body }) => body.data[0].shortUrl,
            ),
      ),
    );
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatch(SHORT_URL);
    expect(await prisma.shortUrl.count({ where: { campaignId: offer.id } })).toBe(1);
  });

  test('concurrent get-or-create calls report exactly one creation', async () => {
    const offer = await freshUrlOffer();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        getOrCreateShortUrl(campaignShortLink(affiliate.affiliateId, offer)),
      ),
    );
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.shortUrl.id)).size).toBe(1);
  });

  test('the second affiliate gets its own distinct link to the same offer', async () => {
    const mine = await get(`/affiliate/campaigns/${campaigns.urlOffer!.id}`);
    const theirs = await get(`/affiliate/campaigns/${campaigns.urlOffer!.id}`, second.apiKey);
    expect(theirs.body.data.shortUrl).toMatch(SHORT_URL);
    expect(theirs.body.data.shortUrl).not.toBe(mine.body.data.shortUrl);
    const [link] = await campaignLinks(campaigns.urlOffer!.id, second.affiliateId);
    expect(link!.originalUrl).toBe(
      `https://aurora.example/sale?utm_source=network&aff=${second.affiliateId}`,
    );
    expect(await campaignLinks(campaigns.urlOffer!.id)).toHaveLength(2);
  });

  test('a Spreadsheet offer shows a link once one exists, for that affiliate only', async () => {
    expect(
      (await get(`/affiliate/campaigns/${campaigns.sheetOffer!.id}`)).body.data.shortUrl,
    ).toBeNull();
    const link = await createCampaignLink(affiliate.affiliateId, campaigns.sheetOffer!);
    expect(link.linkType).toBe('Offer');
    const mine = await get(`/affiliate/campaigns/${campaigns.sheetOffer!.id}`);
    expect(mine.body.data.shortUrl).toBe(`https://api.test/s/${link.urlCode}`);
    const listed = await get('/affiliate/campaigns?offerType=Spreadsheet');
    expect(listed.body.data[0].shortUrl).toBe(`https://api.test/s/${link.urlCode}`);
    const theirs = await get(`/affiliate/campaigns/${campaigns.sheetOffer!.id}`, second.apiKey);
    expect(theirs.body.data.shortUrl).toBeNull();
    expect(await campaignLinks(campaigns.sheetOffer!.id)).toHaveLength(1);
  });

  test('a coupon shows its existing Coupon link', async () => {
    const link = await createCampaignLink(affiliate.affiliateId, campaigns.generic!);
    expect(link.linkType).toBe('Coupon');
    const { body } = await get(`/affiliate/campaigns/${campaigns.generic!.id}`);
    expect(body.data.shortUrl).toBe(`https://api.test/s/${link.urlCode}`);
    const theirs = await get(`/affiliate/campaigns/${campaigns.generic!.id}`, second.apiKey);
    expect(theirs.body.data.shortUrl).toBeNull();
  });

  test('a deactivated link is not handed out, nor replaced', async () => {
    const offer = await freshUrlOffer();
    const link = await createCampaignLink(affiliate.affiliateId, offer);
    await prisma.shortUrl.update({ where: { id: link.id }, data: { active: false } });
    const { body } = await get(`/affiliate/campaigns/${offer.id}`);
    expect(body.data.shortUrl).toBeNull();
    expect(await campaignLinks(offer.id)).toHaveLength(1);
  });

  test('partner campaigns still carry no short URL and no commission', async () => {
    const one = await call(`/api/partner/campaigns/${campaigns.urlOffer!.id}`, { key: partnerKey });
    expect(one.status).toBe(200);
    expect(one.body.data).not.toHaveProperty('shortUrl');
    expect(one.body.data).not.toHaveProperty('commission');
    const list = await call('/api/partner/campaigns?limit=20', { key: partnerKey });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain('api.test/s/');
    expect(JSON.stringify(list.body)).not.toContain('READER-AFFILIATE');
    for (const item of list.body.data) {
      expect(item).not.toHaveProperty('shortUrl');
      expect(item).not.toHaveProperty('commission');
    }
  });
});

describe('GET /affiliate/campaigns/{campaignId}', () => {
  test.each([
    ['an unknown id', '00000000-0000-4000-8000-000000000000'],
    ['a non-UUID id', 'not-a-uuid'],
    ['an injection attempt', "1'%20OR%20'1'='1"],
  ])('answers 404 in both error shapes for %s', async (_case, campaignId) => {
    const { status, body } = await get(`/affiliate/campaigns/${campaignId}`);
    expectError({ status, body }, 'NOT_FOUND');
  });

  test('an upper-case UUID finds the campaign', async () => {
    const { status, body } = await get(
      `/affiliate/campaigns/${campaigns.generic!.id.toUpperCase()}`,
    );
    expect(status).toBe(200);
    expect(body.data.id).toBe(campaigns.generic!.id);
  });
});

describe('GET /affiliate/offers', () => {
  test('answers 410 pointing to /affiliate/campaigns?types=Offer', async () => {
    const { status, body } = await get('/affiliate/offers');
    expectError(
      { status, body },
      'GONE',
      'GET /affiliate/offers was removed: use GET /affiliate/campaigns?types=Offer',
    );
  });

  test('query parameters change nothing', async () => {
    expect((await get('/affiliate/offers?page=2&limit=5')).status).toBe(410);
  });
});

describe('a closed affiliate account', () => {
  test('a closed affiliate account answers 404 and gets no link made', async () => {
    const closed = await createAffiliate();
    await prisma.user.update({
      where: { id: closed.affiliateId },
      data: { deletedAt: new Date() },
    });
    for (const path of ['/affiliate/campaigns', `/affiliate/campaigns/${campaigns.urlOffer!.id}`]) {
      const { status, body } = await get(path, closed.apiKey);
      expect(status).toBe(404);
      expect(body.message).toBe('Affiliate not found');
    }
    expect(await prisma.shortUrl.count({ where: { affiliateId: closed.affiliateId } })).toBe(0);
  });
});

describe('GraphQL answers what REST answers', () => {
  const CAMPAIGN_FIELDS = `
    id name description type offerType url organizationId
    organization { id name logoUrl }
    categories period { startAt endAt } status isHighlight createdAt
    code commission { type value } shortUrl
  `;

  test('affiliateCampaigns', async () => {
    const rest = await get(
      '/affiliate/campaigns?types=Offer,PersonalCoupon&status=onTime,scheduled',
    );
    const { body } = await graphql(
      `query ($types: [CampaignType!], $status: [CampaignStatus!]) {
        affiliateCampaigns(types: $types, status: $status) {
          data { ${CAMPAIGN_FIELDS} }
          meta { total page limit totalPages }
        }
      }`,
      { types: ['Offer', 'PersonalCoupon'], status: ['onTime', 'scheduled'] },
      { key: affiliate.apiKey },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.affiliateCampaigns).toEqual(rest.body);
  });

  test('affiliateCampaign', async () => {
    const rest = await get(`/affiliate/campaigns/${campaigns.personal!.id}`, second.apiKey);
    const { body } = await graphql(
      `query ($id: ID!) { affiliateCampaign(campaignId: $id) { data { ${CAMPAIGN_FIELDS} } } }`,
      { id: campaigns.personal!.id },
      { key: second.apiKey },
    );
    expect(body.data.affiliateCampaign).toEqual(rest.body);
  });

  test('affiliateOffers answers GONE', async () => {
    const { body } = await graphql(
      '{ affiliateOffers { meta { total } } }',
      {},
      { key: affiliate.apiKey },
    );
    expect(body.errors[0].extensions.code).toBe('GONE');
    expect(body.errors[0].message).toContain('/affiliate/campaigns?types=Offer');
  });

  test('startAt alone is refused over GraphQL too', async () => {
    const { body } = await graphql(
      '{ affiliateCampaigns(startAt: "2026-01-01T00:00:00Z") { meta { total } } }',
      {},
      { key: affiliate.apiKey },
    );
    expect(body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });
});

describe('getOrCreateShortUrl and url-code collisions', () => {
  test('a taken url code is drawn again', async () => {
    const brand = await createBrand();
    const [first, second] = await Promise.all([
      createCampaign(brand.id),
      createCampaign(brand.id, { type: 'GenericCoupon', offerType: null, code: 'C' }),
    ]);
    const taken = await createCampaignLink(affiliate.affiliateId, first);
    const codes = [taken.urlCode, 'Fresh123'];
    const { shortUrl, created } = await getOrCreateShortUrl(
      campaignShortLink(affiliate.affiliateId, second),
      () => codes.shift()!,
    );
    expect(created).toBe(true);
    expect(shortUrl.urlCode).toBe('Fresh123');
    expect(shortUrl.linkType).toBe('Coupon');
  });

  test('gives up after a bounded number of collisions', async () => {
    const brand = await createBrand();
    const [first, second] = await Promise.all([createCampaign(brand.id), createCampaign(brand.id)]);
    const taken = await createCampaignLink(affiliate.affiliateId, first);
    await expect(
      getOrCreateShortUrl(campaignShortLink(affiliate.affiliateId, second), () => taken.urlCode),
    ).rejects.toThrow(UrlCodeExhaustedError);
    expect(await campaignLinks(second.id)).toEqual([]);
  });
});
