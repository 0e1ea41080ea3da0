// The shortener routes against the contract and docs/decisions.md ("Short links", "Parameters"):
// POST /affiliate/shortener/url (body rules, 201 then 200, no duplicates under concurrency,
// Idempotency-Key), GET /affiliate/shortener/urls (meta, limits, filters) and GET
// /affiliate/shortener/urls/{urlCode}, with one affiliate never seeing another's links.
import { MAX_ACTIVE_LINKS_PER_AFFILIATE } from '../../src/modules/links/links';
import { prisma } from '../../src/platform/db';
import { app, call, expectError, graphql, postRaw, send, useTestDatabase } from '../support/app';
import {
  createAffiliate,
  createApiKey,
  createBrand,
  createCampaign,
  createLink,
} from '../support/factories';
import { until } from '../support/wait';

useTestDatabase();

const SHORTENER_PATH = '/affiliate/shortener/url';

/** POSTs a JSON body to the creation route. */
const createShortUrl = (key: string, body: unknown, headers: Record<string, string> = {}) =>
  postRaw(SHORTENER_PATH, JSON.stringify(body), { key, headers });

const BASE = 'https://api.test/s';
const SHORT_URL_FIELDS = [
  'originalUrl',
  'shortUrl',
  'urlCode',
  'organizationId',
  'active',
  'count',
  'linkType',
  'createdAt',
];

let key: string;
let affiliateId: string;
let otherKey: string;
let otherAffiliateId: string;
let brand: { id: string; websiteUrl: string | null };
let hiddenBrand: { id: string };
let siteless: { id: string };

beforeAll(async () => {
  ({ apiKey: key, affiliateId } = await createAffiliate());
  ({ apiKey: otherKey, affiliateId: otherAffiliateId } = await createAffiliate());
  brand = await createBrand({ name: 'Aurora Shoes', websiteUrl: 'https://www.aurora.example' });
  hiddenBrand = await createBrand({ name: 'Hidden', approvalStatus: 'PENDING' });
  siteless = await createBrand({ name: 'No Site', websiteUrl: null });
});

describe('POST /affiliate/shortener/url: body rules', () => {
  let campaign: { id: string };

  beforeAll(async () => {
    campaign = await createCampaign(brand.id, { offerType: 'Spreadsheet' });
  });

  test.each([
    ['an unknown field', { featureId: 'x', channel: 'blog' }, 'Unknown field channel'],
    ['several unknown fields', { url: 'x', name: 'y' }, 'Unknown fields url, name'],
    ['featureId as a number', { featureId: 42 }, 'featureId must be a string'],
    [
      'featureId as an object',
      { featureId: { id: 'x' } },
      'featureId: ID cannot represent value: { id: "x" }',
    ],
    ['organizationId as a number', { organizationId: 7 }, 'organizationId: "7" is not a UUID'],
    [
      'organizationId not a UUID',
      { organizationId: 'aurora' },
      'organizationId: "aurora" is not a UUID',
    ],
    [
      'originalUrl as an array',
      { originalUrl: ['https://a'] },
      'originalUrl: String cannot represent a non string value: ["https://a"]',
    ],
    [
      'originalUrl as a boolean',
      { originalUrl: true },
      'originalUrl: String cannot represent a non string value: true',
    ],
    ['an empty object', {}, /^Give featureId/],
    ['only nulls', { featureId: null, organizationId: null }, /^Give featureId/],
  ])('%s -> 400', async (_case, body, message) => {
    const response = await createShortUrl(key, body);
    expectError(response, 'BAD_REQUEST', message);
  });

  test.each([
    ['an array', '[]'],
    ['a string', '"featureId"'],
    ['a number', '12'],
    ['null', 'null'],
  ])('a body that is %s -> 400', async (_case, body) => {
    const response = await postRaw(SHORTENER_PATH, body, { key });
    expectError(response, 'BAD_REQUEST', 'The body must be a JSON object');
  });

  test.each([
    ['broken JSON', '{"featureId": '],
    ['a form-encoded body', 'featureId=abc'],
  ])('%s -> 400', async (_case, body) => {
    const response = await postRaw(SHORTENER_PATH, body, { key });
    expectError(response, 'BAD_REQUEST', 'The body must be valid JSON');
  });

  test('no body -> 400 naming what to give', async () => {
    const response = await postRaw(SHORTENER_PATH, undefined, { key });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/^Give featureId/);
  });

  test('arguments in the query string are not read (Sofa would)', async () => {
    const response = await postRaw(`${SHORTENER_PATH}?featureId=${campaign.id}`, '{}', {
      key,
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/^Give featureId/);
    expect(await prisma.shortUrl.count({ where: { campaignId: campaign.id } })).toBe(0);
  });

  test('the JSON body is read whatever the Content-Type says', async () => {
    const other = await createCampaign(brand.id);
    const response = await postRaw(SHORTENER_PATH, JSON.stringify({ featureId: other.id }), {
      key,
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.status).toBe(201);
  });

  test('featureId with organizationId or originalUrl -> 400', async () => {
    for (const extra of [
      { organizationId: brand.id },
      { originalUrl: 'https://aurora.example/' },
    ]) {
      const response = await createShortUrl(key, { featureId: campaign.id, ...extra });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/^featureId comes alone/);
    }
  });

  test('originalUrl without organizationId -> 400', async () => {
    const response = await createShortUrl(key, { originalUrl: 'https://aurora.example/sale' });
    expectError(
      response,
      'BAD_REQUEST',
      'originalUrl needs organizationId: the brand whose site it is on',
    );
  });

  test('an unknown campaign, a non-UUID one, or one of a hidden brand -> 400', async () => {
    const hidden = await createCampaign(hiddenBrand.id);
    for (const featureId of ['7c2e9d4f-3b1a-4c5d-8e6f-9a0b1c2d3e4f', 'not-a-uuid', hidden.id]) {
      const response = await createShortUrl(key, { featureId });
      expectError(response, 'BAD_REQUEST', `featureId: campaign ${featureId} not found`);
    }
    expect(await prisma.shortUrl.count({ where: { campaignId: hidden.id } })).toBe(0);
  });

  test('a campaign whose URL is not a web address -> 400', async () => {
    const mailto = await createCampaign(brand.id, { url: 'mailto:sales@aurora.example' });
    const response = await createShortUrl(key, { featureId: mailto.id });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(
      `featureId: campaign ${mailto.id} has no web address to link to`,
    );
  });

  test('an unknown or hidden brand -> 400', async () => {
    for (const organizationId of ['0b6f2c1e-8a4d-4e7b-9c3a-5f1d2e3c4b5a', hiddenBrand.id]) {
      for (const body of [
        { organizationId },
        { organizationId, originalUrl: 'https://aurora.example/' },
      ]) {
        const response = await createShortUrl(key, body);
        expectError(response, 'BAD_REQUEST', `organizationId: brand ${organizationId} not found`);
      }
    }
  });

  test('a brand page link of a brand without a website -> 400', async () => {
    const response = await createShortUrl(key, { organizationId: siteless.id });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(
      `organizationId: brand ${siteless.id} has no website to link to`,
    );
  });

  test.each([
    [
      'another host',
      'https://evil.example/aurora',
      "originalUrl must be on the brand's site (aurora.example)",
    ],
    [
      'a look-alike host',
      'https://notaurora.example/',
      "originalUrl must be on the brand's site (aurora.example)",
    ],
    [
      'the brand host as a subdomain elsewhere',
      'https://aurora.example.evil.example/',
      "originalUrl must be on the brand's site (aurora.example)",
    ],
    ['a relative URL', '/sale', 'originalUrl must be an absolute http(s) URL'],
    ['not a URL', 'aurora sale', 'originalUrl must be an absolute http(s) URL'],
    ['another scheme', 'ftp://aurora.example/file', 'originalUrl must be an absolute http(s) URL'],
    ['javascript:', 'javascript:alert(1)', 'originalUrl must be an absolute http(s) URL'],
    ['credentials', 'https://user:pw@aurora.example/', 'originalUrl must not contain credentials'],
    [
      'a control character',
      'https://aurora.example/\nx',
      'originalUrl must not contain control characters',
    ],
  ])('a deep link to %s -> 400', async (_case, originalUrl, message) => {
    const response = await createShortUrl(key, { organizationId: brand.id, originalUrl });
    expectError(response, 'BAD_REQUEST', message);
  });

  test('a deep link of a brand without a website -> 400', async () => {
    const response = await createShortUrl(key, {
      organizationId: siteless.id,
      originalUrl: 'https://nosite.example/',
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/no website/);
  });

  test('refused bodies create nothing', async () => {
    expect(await prisma.shortUrl.count({ where: { affiliateId, campaignId: campaign.id } })).toBe(
      0,
    );
  });
});

describe('POST /affiliate/shortener/url: links', () => {
  test('a Spreadsheet offer has no link until POST makes one; then the campaigns list shows it', async () => {
    const sheet = await createCampaign(brand.id, { offerType: 'Spreadsheet' });
    const shortUrlInList = async () => {
      const list = await call('/affiliate/campaigns?offerType=Spreadsheet&limit=20', { key });
      expect(list.status).toBe(200);
      return list.body.data.find((item: { id: string }) => item.id === sheet.id).shortUrl;
    };
    expect(await shortUrlInList()).toBeNull();
    expect((await call(`/affiliate/campaigns/${sheet.id}`, { key })).body.data.shortUrl).toBeNull();

    const created = await createShortUrl(key, { featureId: sheet.id });
    expect(created.status).toBe(201);
    const link = created.body.data;
    expect(Object.keys(link)).toEqual(SHORT_URL_FIELDS);
    expect(link).toEqual({
      originalUrl: `${sheet.url}?aff=${affiliateId}`,
      shortUrl: `${BASE}/${link.urlCode}`,
      urlCode: expect.stringMatching(/^[0-9A-Za-z]{8}$/),
      organizationId: brand.id,
      active: true,
      count: 0,
      linkType: 'Offer',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });

    expect(await shortUrlInList()).toBe(link.shortUrl);
    expect((await call(`/affiliate/campaigns/${sheet.id}`, { key })).body.data.shortUrl).toBe(
      link.shortUrl,
    );
  });

  test('the same request again answers 200 with the same link', async () => {
    const sheet = await createCampaign(brand.id, { offerType: 'Spreadsheet' });
    const first = await createShortUrl(key, { featureId: sheet.id });
    const second = await createShortUrl(key, { featureId: sheet.id.toUpperCase() });
    expect([first.status, second.status]).toEqual([201, 200]);
    expect(second.body).toEqual(first.body);
    expect(await prisma.shortUrl.count({ where: { campaignId: sheet.id } })).toBe(1);
  });

  test('a Url offer: POST answers the link the campaigns listing made (200)', async () => {
    const offer = await createCampaign(brand.id, { offerType: 'Url' });
    const listed = await call(`/affiliate/campaigns/${offer.id}`, { key });
    const response = await createShortUrl(key, { featureId: offer.id });
    expect(response.status).toBe(200);
    expect(response.body.data.shortUrl).toBe(listed.body.data.shortUrl);
  });

  test('a Url offer linked by POST first: the listing shows that link', async () => {
    const offer = await createCampaign(brand.id, { offerType: 'Url' });
    const response = await createShortUrl(key, { featureId: offer.id });
    expect(response.status).toBe(201);
    const listed = await call(`/affiliate/campaigns/${offer.id}`, { key });
    expect(listed.body.data.shortUrl).toBe(response.body.data.shortUrl);
  });

  test('a coupon gets a Coupon link', async () => {
    const coupon = await createCampaign(brand.id, {
      type: 'GenericCoupon',
      offerType: null,
      code: 'SAVE10',
    });
    const response = await createShortUrl(key, { featureId: coupon.id });
    expect(response.status).toBe(201);
    expect(response.body.data.linkType).toBe('Coupon');
  });

  test("organizationId alone: the brand page link, shown on the affiliate's brand", async () => {
    const shop = await createBrand({ websiteUrl: 'https://shop-brand.example/home?lang=en' });
    const response = await createShortUrl(key, { organizationId: shop.id });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      originalUrl: `https://shop-brand.example/home?lang=en&aff=${affiliateId}`,
      organizationId: shop.id,
      linkType: 'BrandPage',
    });
    const again = await createShortUrl(key, { organizationId: shop.id.toUpperCase() });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(response.body);
    const brandView = await call(`/affiliate/brands/${shop.id}`, { key });
    expect(brandView.body.data.shortUrl).toBe(response.body.data.shortUrl);
  });

  test("a deep link on the brand's site or a subdomain: a Custom link", async () => {
    for (const originalUrl of [
      'https://aurora.example/sale?size=42#top',
      'http://www.aurora.example/boots',
      'https://shop.AURORA.example/new',
    ]) {
      const response = await createShortUrl(key, { organizationId: brand.id, originalUrl });
      expect(response.status).toBe(201);
      expect(response.body.data.linkType).toBe('Custom');
      expect(new URL(response.body.data.originalUrl).searchParams.get('aff')).toBe(affiliateId);
    }
    const first = await createShortUrl(key, {
      organizationId: brand.id,
      originalUrl: 'https://aurora.example/sale?size=42#top',
    });
    expect(first.status).toBe(200);
    expect(first.body.data.originalUrl).toBe(
      `https://aurora.example/sale?size=42&aff=${affiliateId}#top`,
    );
  });

  test("a deep link carrying someone else's aff= credits this affiliate, and is the same link", async () => {
    const plain = await createShortUrl(key, {
      organizationId: brand.id,
      originalUrl: 'https://aurora.example/socks',
    });
    const foreign = await createShortUrl(key, {
      organizationId: brand.id,
      originalUrl: 'https://aurora.example/socks?aff=someone-else',
    });
    expect([plain.status, foreign.status]).toEqual([201, 200]);
    expect(foreign.body.data.originalUrl).toBe(`https://aurora.example/socks?aff=${affiliateId}`);
  });

  test('20 concurrent identical requests make exactly one link', async () => {
    const sheet = await createCampaign(brand.id, { offerType: 'Spreadsheet' });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => createShortUrl(key, { featureId: sheet.id })),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(19);
    expect(new Set(responses.map((r) => r.body.data.urlCode)).size).toBe(1);
    expect(await prisma.shortUrl.count({ where: { campaignId: sheet.id } })).toBe(1);
  });

  test('another affiliate gets its own link to the same campaign', async () => {
    const sheet = await createCampaign(brand.id, { offerType: 'Spreadsheet' });
    const mine = await createShortUrl(key, { featureId: sheet.id });
    const theirs = await createShortUrl(otherKey, { featureId: sheet.id });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.data.urlCode).not.toBe(mine.body.data.urlCode);
    expect(theirs.body.data.originalUrl).toBe(`${sheet.url}?aff=${otherAffiliateId}`);
  });

  test('GraphQL: createShortUrl answers the same link', async () => {
    const sheet = await createCampaign(brand.id, { offerType: 'Spreadsheet' });
    const rest = await createShortUrl(key, { featureId: sheet.id });
    const response = await graphql(
      'mutation($id: ID!) { createShortUrl(featureId: $id) { data { urlCode linkType } } }',
      { id: sheet.id },
      { key },
    );
    expect(response.body).toEqual({
      data: { createShortUrl: { data: { urlCode: rest.body.data.urlCode, linkType: 'Offer' } } },
    });
  });
});

describe(`POST /affiliate/shortener/url: at most ${MAX_ACTIVE_LINKS_PER_AFFILIATE} active links per affiliate`, () => {
  // One affiliate, filled once to one link below the bound; the tests run in order on it.
  let full: { apiKey: string; affiliateId: string };
  const deepLink = (path: string) => ({
    organizationId: brand.id,
    originalUrl: `${brand.websiteUrl}/${path}`,
  });
  const activeLinks = () =>
    prisma.shortUrl.count({ where: { affiliateId: full.affiliateId, active: true } });

  /** Deactivates the affiliate's links, as the network's back office does, down to `active`. */
  async function deactivateDownTo(active: number): Promise<void> {
    await prisma.$executeRaw`
      UPDATE "ShortUrl" SET "active" = false WHERE "id" IN (
        SELECT "id" FROM "ShortUrl" WHERE "affiliateId" = ${full.affiliateId}::uuid AND "active"
        ORDER BY "createdAt", "id" LIMIT greatest(${(await activeLinks()) - active}, 0))`;
  }

  beforeAll(async () => {
    full = await createAffiliate();
    await prisma.$executeRaw`
      INSERT INTO "ShortUrl" ("id", "urlCode", "affiliateId", "organizationId", "linkType",
        "originalUrl", "dedupeKey")
      SELECT gen_random_uuid(), 'f' || lpad(n::text, 7, '0'), ${full.affiliateId}::uuid,
        ${brand.id}::uuid, 'Custom', 'https://www.aurora.example/f/' || n, 'custom:filled:' || n
      FROM generate_series(1, ${MAX_ACTIVE_LINKS_PER_AFFILIATE - 1}) AS n`;
  }, 120_000);

  test('the last one is made (201); past it a new link is a 400 naming the bound, on both transports, and nothing is made', async () => {
    expect((await createShortUrl(full.apiKey, deepLink('last'))).status).toBe(201);
    const refused = await createShortUrl(full.apiKey, deepLink('one-too-many'));
    expectError(
      refused,
      'BAD_REQUEST',
      `At most ${MAX_ACTIVE_LINKS_PER_AFFILIATE} active short links per affiliate: reuse a link (the same request answers the one made), or have the network deactivate links no longer used`,
    );
    const graphqlRefused = await graphql(
      'mutation ($id: UUID) { createShortUrl(organizationId: $id) { data { urlCode } } }',
      { id: (await createBrand()).id },
      { key: full.apiKey },
    );
    expect(graphqlRefused.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(await activeLinks()).toBe(MAX_ACTIVE_LINKS_PER_AFFILIATE);
  });

  test('a link the affiliate has is still answered (200), and a Url offer still gets its own', async () => {
    expect((await createShortUrl(full.apiKey, deepLink('last'))).status).toBe(200);
    const offer = await createCampaign(brand.id, { offerType: 'Url' });
    const campaign = await call(`/affiliate/campaigns/${offer.id}`, { key: full.apiKey });
    expect(campaign.body.data.shortUrl).toMatch(/^https:\/\/api\.test\/s\/\w{8}$/);
    expect(await activeLinks()).toBe(MAX_ACTIVE_LINKS_PER_AFFILIATE + 1);
  });

  test('links the network deactivates leave room', async () => {
    await deactivateDownTo(MAX_ACTIVE_LINKS_PER_AFFILIATE - 1);
    expect((await createShortUrl(full.apiKey, deepLink('into-the-room'))).status).toBe(201);
    expect((await createShortUrl(full.apiKey, deepLink('no-room-again'))).status).toBe(400);
  });

  test('new links asked at once with room for one: one is made, the others are refused', async () => {
    await deactivateDownTo(MAX_ACTIVE_LINKS_PER_AFFILIATE - 1);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, n) => createShortUrl(full.apiKey, deepLink(`at-once-${n}`))),
    );
    expect(answers.map(({ status }) => status).sort()).toEqual([201, 400, 400, 400, 400]);
    expect(await activeLinks()).toBe(MAX_ACTIVE_LINKS_PER_AFFILIATE);
  });
});

describe('POST /affiliate/shortener/url: Idempotency-Key', () => {
  const withKey = (idempotencyKey: string) => ({ 'Idempotency-Key': idempotencyKey });

  test('the same key and body replay the first answer, status included', async () => {
    const sheet = await createCampaign(brand.id, { offerType: 'Spreadsheet' });
    const first = await createShortUrl(key, { featureId: sheet.id }, withKey('replay-1'));
    const again = await createShortUrl(key, { featureId: sheet.id }, withKey('replay-1'));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201); // without the key the repeat would be a 200
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  /** Polls until a fresh request of `key` (no Idempotency-Key) answers `status`. */
  function untilFreshAnswers(key: string, body: unknown, status: number): Promise<void> {
    return until(
      async () => (await createShortUrl(key, body)).status === status,
      `a fresh request answering ${status}`,
    );
  }

  test('a replay is refused with 403 once the key has lost shortener:write', async () => {
    const { apiKey, row } = await createApiKey('affiliate');
    const sheet = await createCampaign(brand.id, { offerType: 'Spreadsheet' });
    const body = { featureId: sheet.id };
    expect((await createShortUrl(apiKey, body, withKey('lost-scope'))).status).toBe(201);
    // The back office narrows the key in SQL; replicas hear of the change within moments.
    await prisma.$executeRaw`UPDATE "ApiKey" SET "scopes" = ARRAY['shortener:read'] WHERE "id" = ${row.id}::uuid`;
    await untilFreshAnswers(apiKey, body, 403);
    const replay = await createShortUrl(apiKey, body, withKey('lost-scope'));
    expectError(replay, 'FORBIDDEN', 'This API key lacks the scope shortener:write');
    expect(replay.headers.get('idempotent-replayed')).toBeNull();
  });

  test("a replay is refused with 404 once the key's affiliate account is closed", async () => {
    const { apiKey, row } = await createApiKey('affiliate');
    const sheet = await createCampaign(brand.id, { offerType: 'Spreadsheet' });
    const body = { featureId: sheet.id };
    expect((await createShortUrl(apiKey, body, withKey('closed'))).status).toBe(201);
    await prisma.$executeRaw`UPDATE "User" SET "deletedAt" = now() WHERE "id" = ${row.ownerId}::uuid`;
    await untilFreshAnswers(apiKey, body, 404);
    expectError(
      await createShortUrl(apiKey, body, withKey('closed')),
      'NOT_FOUND',
      'Affiliate not found',
    );
  });

  test('a replay sends the very bytes of the first answer', async () => {
    const sheet = await createCampaign(brand.id, { offerType: 'Spreadsheet' });
    const post = async () =>
      (
        await send(app, SHORTENER_PATH, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json', ...withKey('bytes') },
          body: JSON.stringify({ featureId: sheet.id }),
        })
      ).text;
    const [first, replay] = [await post(), await post()];
    expect(replay).toBe(first);
  });

  // Found by the fuzz test (FUZZ_SEED=22553667): the 400 echoes the lone surrogate, which
  // PostgreSQL's jsonb cannot store; the answer was a 500 and the key stayed "in progress".
  test('an answer the database cannot record is still the answer, and the key is let go', async () => {
    const body = { featureId: '\udfff' };
    const first = await createShortUrl(key, body, withKey('unrecordable-1'));
    expect(first.status).toBe(400);
    const started = Date.now();
    const again = await createShortUrl(key, body, withKey('unrecordable-1'));
    expect(again.status).toBe(400);
    expect(Date.now() - started).toBeLessThan(2_000); // not a wait for a claim nobody holds
  });

  test('the same key with a different body -> 409', async () => {
    const [a, b] = [await createCampaign(brand.id), await createCampaign(brand.id)];
    expect((await createShortUrl(key, { featureId: a.id }, withKey('conflict-1'))).status).toBe(
      201,
    );
    const response = await createShortUrl(key, { featureId: b.id }, withKey('conflict-1'));
    expectError(
      response,
      'CONFLICT',
      'Idempotency-Key conflict-1 was already used for a different request',
    );
    expect(await prisma.shortUrl.count({ where: { campaignId: b.id } })).toBe(0);
  });

  test('equal bodies in another key order or spelling of the JSON are the same request', async () => {
    const shop = await createBrand();
    const url = `${shop.websiteUrl}/a`;
    const first = await postRaw(
      SHORTENER_PATH,
      JSON.stringify({ organizationId: shop.id, originalUrl: url }),
      {
        key,
        headers: withKey('order-1'),
      },
    );
    const second = await postRaw(
      SHORTENER_PATH,
      `{ "originalUrl": "${url}",  "organizationId": "${shop.id}" }`,
      {
        key,
        headers: withKey('order-1'),
      },
    );
    expect(second.status).toBe(first.status);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  test('keys are per API key: another key may use the same one', async () => {
    const sheet = await createCampaign(brand.id);
    const mine = await createShortUrl(key, { featureId: sheet.id }, withKey('shared-1'));
    const theirs = await createShortUrl(otherKey, { featureId: sheet.id }, withKey('shared-1'));
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.data.urlCode).not.toBe(mine.body.data.urlCode);
  });

  test('a refused body is not remembered: the key stays free', async () => {
    const sheet = await createCampaign(brand.id);
    const refused = await createShortUrl(key, { featureId: sheet.id, x: 1 }, withKey('free-1'));
    expect(refused.status).toBe(400);
    const accepted = await createShortUrl(key, { featureId: sheet.id }, withKey('free-1'));
    expect(accepted.status).toBe(201);
  });

  test('an answer of the resolver (400) is remembered like any other', async () => {
    const unknown = '7c2e9d4f-3b1a-4c5d-8e6f-9a0b1c2d3e4f';
    const first = await createShortUrl(key, { featureId: unknown }, withKey('remember-400'));
    const again = await createShortUrl(key, { featureId: unknown }, withKey('remember-400'));
    expect([first.status, again.status]).toEqual([400, 400]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  test('after 24 h the key is free again', async () => {
    const [a, b] = [await createCampaign(brand.id), await createCampaign(brand.id)];
    expect((await createShortUrl(key, { featureId: a.id }, withKey('expiry-1'))).status).toBe(201);
    await prisma.idempotencyRecord.updateMany({
      where: { key: 'expiry-1' },
      data: { createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) },
    });
    const response = await createShortUrl(key, { featureId: b.id }, withKey('expiry-1'));
    expect(response.status).toBe(201);
    expect(response.body.data.originalUrl).toBe(`${b.url}?aff=${affiliateId}`);
  });

  test.each([
    ['too long', 'k'.repeat(256)],
    ['with a space', 'my key'],
    ['empty', ''],
  ])('a key %s -> 400', async (_case, idempotencyKey) => {
    const sheet = await createCampaign(brand.id);
    const response = await createShortUrl(key, { featureId: sheet.id }, withKey(idempotencyKey));
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/^Idempotency-Key must be 1 to 255 visible ASCII/);
  });

  test('10 concurrent requests with one key: one execution, ten equal answers', async () => {
    const sheet = await createCampaign(brand.id, { offerType: 'Spreadsheet' });
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        createShortUrl(key, { featureId: sheet.id }, withKey('concurrent-1')),
      ),
    );
    // One execution: every answer is its 201 (separate executions would answer one 201, nine 200s).
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(201));
    for (const response of responses) expect(response.body).toEqual(responses[0]!.body);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(
      9,
    );
    expect(await prisma.shortUrl.count({ where: { campaignId: sheet.id } })).toBe(1);
  });
});

describe('GET /affiliate/shortener/urls', () => {
  let lister: string;
  let listerId: string;
  const links: Record<string, { urlCode: string; id: string }> = {};
  let second: { id: string };

  beforeAll(async () => {
    ({ apiKey: lister, affiliateId: listerId } = await createAffiliate());
    second = await createBrand({ name: 'Chapter Books' });
    const at = (iso: string) => new Date(iso);
    links.march = await createLink(listerId, brand.id, {
      linkType: 'Offer',
      originalUrl: `https://Aurora.example/Spring-Sale?aff=${listerId}`,
      createdAt: at('2025-03-01T00:00:00Z'),
      clickCount: 17,
    });
    links.june = await createLink(listerId, second.id, {
      linkType: 'BrandPage',
      originalUrl: `https://books.example/?aff=${listerId}`,
      createdAt: at('2025-06-01T00:00:00Z'),
    });
    links.inactive = await createLink(listerId, brand.id, {
      linkType: 'Coupon',
      active: false,
      createdAt: at('2025-07-01T00:00:00Z'),
    });
    // 10 recent Custom links: 12 active links in all, so the 10-per-page list has a second page.
    for (let i = 0; i < 10; i += 1) {
      links[`recent${i}`] = await createLink(listerId, brand.id, {
        createdAt: new Date(Date.UTC(2025, 8, 1 + i)),
      });
    }
    // Another affiliate's link: never in this affiliate's answers.
    links.foreign = await createLink(otherAffiliateId, brand.id, {
      originalUrl: 'https://aurora.example/spring-sale?aff=other',
    });
  });

  const list = (query = '') => call(`/affiliate/shortener/urls${query}`, { key: lister });
  const codes = (body: { data: { urlCode: string }[] }) => body.data.map((item) => item.urlCode);

  test('default page: 10 newest active links, meta, the ShortUrl fields', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['data', 'meta']);
    expect(response.body.meta).toEqual({ total: 12, page: 1, limit: 10, totalPages: 2 });
    expect(codes(response.body)).toEqual(
      [9, 8, 7, 6, 5, 4, 3, 2, 1, 0].map((i) => links[`recent${i}`]!.urlCode),
    );
    for (const item of response.body.data) expect(Object.keys(item)).toEqual(SHORT_URL_FIELDS);
  });

  test('page 2, limit, clamping to 100', async () => {
    const page2 = await list('?page=2');
    expect(codes(page2.body)).toEqual([links.june!.urlCode, links.march!.urlCode]);
    expect(page2.body.meta).toEqual({ total: 12, page: 2, limit: 10, totalPages: 2 });
    expect((await list('?limit=5')).body.meta).toEqual({
      total: 12,
      page: 1,
      limit: 5,
      totalPages: 3,
    });
    expect((await list('?limit=1000')).body.meta).toEqual({
      total: 12,
      page: 1,
      limit: 100,
      totalPages: 1,
    });
  });

  test('a link as listed', async () => {
    const response = await list('?type=Offer');
    expect(response.body.data).toEqual([
      {
        originalUrl: `https://Aurora.example/Spring-Sale?aff=${listerId}`,
        shortUrl: `${BASE}/${links.march!.urlCode}`,
        urlCode: links.march!.urlCode,
        organizationId: brand.id,
        active: true,
        count: 17,
        linkType: 'Offer',
        createdAt: '2025-03-01T00:00:00.000Z',
      },
    ]);
  });

  test.each([
    ['?active=yes', 'active'],
    ['?organizationId=aurora', 'organizationId'],
    ['?type=Banner', 'type'],
    ['?startAt=yesterday', 'startAt'],
    ['?startAt=2025-07-01&endAt=2025-01-01', 'startAt'],
  ])('%s -> 400 naming %s', async (query, name) => {
    const response = await list(query);
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(name);
  });

  test('active: default true, false lists only inactive links', async () => {
    expect(codes((await list('?limit=100')).body)).not.toContain(links.inactive!.urlCode);
    expect(codes((await list('?active=true&limit=100')).body)).toHaveLength(12);
    const inactive = await list('?active=false');
    expect(codes(inactive.body)).toEqual([links.inactive!.urlCode]);
    expect(inactive.body.data[0].active).toBe(false);
  });

  test('search: part of the original URL, any case', async () => {
    expect(codes((await list('?search=spring-SALE')).body)).toEqual([links.march!.urlCode]);
    expect(codes((await list('?search=books.example')).body)).toEqual([links.june!.urlCode]);
    expect((await list('?search=nothing-like-this')).body.meta.total).toBe(0);
  });

  test('search: the short URL, with or without scheme, or part of its code', async () => {
    const code = links.june!.urlCode;
    for (const search of [
      `${BASE}/${code}`,
      `api.test/s/${code}`,
      `HTTPS://API.TEST/s/${code.slice(0, 6)}`,
      code.slice(2, 7).toLowerCase(),
    ]) {
      const found = codes((await list(`?search=${encodeURIComponent(search)}&limit=100`)).body);
      expect(found).toContain(code);
      if (search.includes('/')) expect(found).toEqual([code]);
    }
  });

  test('organizationId, type, startAt/endAt', async () => {
    expect(codes((await list(`?organizationId=${second.id}`)).body)).toEqual([links.june!.urlCode]);
    expect(codes((await list(`?organizationId=${second.id.toUpperCase()}`)).body)).toEqual([
      links.june!.urlCode,
    ]);
    expect(codes((await list('?type=BrandPage')).body)).toEqual([links.june!.urlCode]);
    expect((await list('?type=Custom')).body.meta.total).toBe(10);
    expect((await list('?type=Coupon')).body.meta.total).toBe(0);
    expect((await list('?type=Coupon&active=false')).body.meta.total).toBe(1);
    expect(
      codes((await list('?startAt=2025-02-01T00:00:00Z&endAt=2025-06-30T00:00:00Z')).body),
    ).toEqual([links.june!.urlCode, links.march!.urlCode]);
    expect((await list('?startAt=2025-09-05')).body.meta.total).toBe(6);
    expect(codes((await list('?endAt=2025-03-01T00:00:00Z')).body)).toEqual([links.march!.urlCode]);
  });

  test("another affiliate's links are never listed", async () => {
    const all = await list('?limit=100&search=aurora');
    expect(codes(all.body)).not.toContain(links.foreign!.urlCode);
    const theirs = await call('/affiliate/shortener/urls?limit=100', { key: otherKey });
    const theirCodes = codes(theirs.body);
    expect(theirCodes).toContain(links.foreign!.urlCode);
    for (const link of Object.values(links)) {
      if (link !== links.foreign) expect(theirCodes).not.toContain(link.urlCode);
    }
  });

  describe('GET /affiliate/shortener/urls/{urlCode}', () => {
    test('answers { data: ShortUrl }', async () => {
      const response = await call(`/affiliate/shortener/urls/${links.june!.urlCode}`, {
        key: lister,
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        data: {
          originalUrl: `https://books.example/?aff=${listerId}`,
          shortUrl: `${BASE}/${links.june!.urlCode}`,
          urlCode: links.june!.urlCode,
          organizationId: second.id,
          active: true,
          count: 0,
          linkType: 'BrandPage',
          createdAt: '2025-06-01T00:00:00.000Z',
        },
      });
    });

    test('an inactive link is still the affiliate’s to fetch', async () => {
      const response = await call(`/affiliate/shortener/urls/${links.inactive!.urlCode}`, {
        key: lister,
      });
      expect(response.status).toBe(200);
      expect(response.body.data.active).toBe(false);
    });

    test("unknown, malformed or another affiliate's code -> 404 in the contract's body", async () => {
      for (const code of ['ZZZZZZZZ', 'abc', 'abc%2Fdef', '%E0%A4%A', links.foreign!.urlCode]) {
        const response = await call(`/affiliate/shortener/urls/${code}`, { key: lister });
        expectError(response, 'NOT_FOUND');
      }
    });

    test('the code is case-sensitive', async () => {
      const code = links.june!.urlCode;
      const flipped = [...code]
        .map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
        .join('');
      if (flipped === code) return; // all digits
      const response = await call(`/affiliate/shortener/urls/${flipped}`, { key: lister });
      expect(response.status).toBe(404);
    });
  });
});

describe('keys and scopes', () => {
  const routes = [
    ['GET', '/affiliate/shortener/urls'],
    ['GET', '/affiliate/shortener/urls/ZZZZZZZZ'],
    ['POST', SHORTENER_PATH],
  ] as const;
  const send = (method: string, path: string, apiKey?: string) =>
    call(path, { method, key: apiKey, ...(method === 'POST' && { body: {} }) });

  test.each(routes)('%s %s without a key or with a partner key -> 401', async (method, path) => {
    const { apiKey: partnerKey } = await createApiKey('partner');
    for (const apiKey of [undefined, partnerKey]) {
      const response = await send(method, path, apiKey);
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({
        success: false,
        requestId: expect.any(String),
        code: 'UNAUTHORIZED',
      });
    }
  });

  test('shortener:read does not write, shortener:write does not read', async () => {
    const { apiKey: reader } = await createAffiliate(['shortener:read']);
    const { apiKey: writer } = await createAffiliate(['shortener:write']);
    const sheet = await createCampaign(brand.id);
    const post = await call(SHORTENER_PATH, { key: reader, body: { featureId: sheet.id } });
    expect(post.status).toBe(403);
    expect(post.body).toMatchObject({
      success: false,
      requestId: expect.any(String),
      code: 'FORBIDDEN',
    });
    expect((await call('/affiliate/shortener/urls', { key: writer })).status).toBe(403);
    expect((await call('/affiliate/shortener/urls/ZZZZZZZZ', { key: writer })).status).toBe(403);
    expect((await call('/affiliate/shortener/urls', { key: reader })).status).toBe(200);
    expect(
      (await call(SHORTENER_PATH, { key: writer, body: { featureId: sheet.id } })).status,
    ).toBe(201);
  });

  test('GET on the creation path and POST on the list -> 405', async () => {
    expect((await call(SHORTENER_PATH, { key })).status).toBe(405);
    expect((await call('/affiliate/shortener/urls', { key, body: {} })).status).toBe(405);
  });
});
