// GET /s/{urlCode}, the public redirect (decisions.md section 5): 302 to the original URL with no
// key, exactly one click per GET even under concurrency, HEAD and link-preview bots not counted,
// unknown, malformed and inactive codes 404 in the contract's error body.
import { isLinkPreviewOrCrawler } from '../src/rest/redirect';
import { app, useTestDatabase } from './support/app';
import { createAffiliate } from './support/campaignFactories';
import { createBrand } from './support/factories';
import { clickCountOf, createLink } from './support/shortenerFactories';

useTestDatabase();

const BROWSER =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

let affiliateId: string;
let organizationId: string;

beforeAll(async () => {
  ({ affiliateId } = await createAffiliate());
  ({ id: organizationId } = await createBrand());
});

function hit(path: string, init: { method?: string; userAgent?: string } = {}) {
  return app.fetch(`http://api.test${path}`, {
    method: init.method ?? 'GET',
    headers: { 'user-agent': init.userAgent ?? BROWSER },
    redirect: 'manual',
  });
}

async function expectNotFound(response: Response) {
  expect(response.status).toBe(404);
  expect(await response.json()).toEqual({
    success: false,
    requestId: expect.any(String),
    message: 'Short URL not found',
    code: 'NOT_FOUND',
    error: 'Not Found',
    statusCode: 404,
  });
}

test('GET: 302 to the original URL, no-store, one click', async () => {
  const link = await createLink(affiliateId, organizationId, {
    originalUrl: `https://shop.example/sale?size=42&aff=${affiliateId}#top`,
  });
  const response = await hit(`/s/${link.urlCode}`);
  expect(response.status).toBe(302);
  expect(response.headers.get('location')).toBe(link.originalUrl);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(await clickCountOf(link.urlCode)).toBe(1);
  await hit(`/s/${link.urlCode}?utm_source=mail`);
  expect(await clickCountOf(link.urlCode)).toBe(2);
});

test('HEAD: the same redirect, not counted', async () => {
  const link = await createLink(affiliateId, organizationId);
  const response = await hit(`/s/${link.urlCode}`, { method: 'HEAD' });
  expect(response.status).toBe(302);
  expect(response.headers.get('location')).toBe(link.originalUrl);
  expect(await clickCountOf(link.urlCode)).toBe(0);
});

test.each([
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Twitterbot/1.0',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  'WhatsApp/2.23.20.0',
  'TelegramBot (like TwitterBot)',
  'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1)',
  'Mozilla/5.0 (compatible; redditbot/1.0; +http://www.reddit.com/feedback)',
])('a link-preview bot is redirected, not counted: %s', async (userAgent) => {
  const link = await createLink(affiliateId, organizationId);
  const response = await hit(`/s/${link.urlCode}`, { userAgent });
  expect(response.status).toBe(302);
  expect(response.headers.get('location')).toBe(link.originalUrl);
  expect(await clickCountOf(link.urlCode)).toBe(0);
});

test('isLinkPreviewOrCrawler leaves browsers and apps alone', () => {
  expect(isLinkPreviewOrCrawler(BROWSER)).toBe(false);
  expect(isLinkPreviewOrCrawler('curl/8.5.0')).toBe(false);
  expect(isLinkPreviewOrCrawler(null)).toBe(false);
  expect(isLinkPreviewOrCrawler('Mozilla/5.0 (compatible; Googlebot/2.1)')).toBe(true);
});

test('an inactive link: 404, not counted', async () => {
  const link = await createLink(affiliateId, organizationId, { active: false, clickCount: 5 });
  await expectNotFound(await hit(`/s/${link.urlCode}`));
  expect((await hit(`/s/${link.urlCode}`, { method: 'HEAD' })).status).toBe(404);
  expect(await clickCountOf(link.urlCode)).toBe(5);
});

test.each(['ZZZZZZZZ', 'short', 'aB3dE6gH9', 'aB3dE6g-', 'aB3d%20E6g', ''])(
  'unknown or malformed code %p: 404',
  async (code) => {
    await expectNotFound(await hit(`/s/${code}`));
  },
);

test('a further path segment: 404', async () => {
  const link = await createLink(affiliateId, organizationId);
  await expectNotFound(await hit(`/s/${link.urlCode}/more`));
  expect(await clickCountOf(link.urlCode)).toBe(0);
});

test('other methods: 405 with Allow', async () => {
  const link = await createLink(affiliateId, organizationId);
  const response = await hit(`/s/${link.urlCode}`, { method: 'POST' });
  expect(response.status).toBe(405);
  expect(response.headers.get('allow')).toBe('GET, HEAD');
  expect(await clickCountOf(link.urlCode)).toBe(0);
});

// PGlite is one in-process session; PostgreSQL (CI) takes the full 1,000 over a pool.
const CONCURRENT_HITS = process.env.DATABASE_URL ? 1000 : 200;

test(`${CONCURRENT_HITS} concurrent GETs count exactly ${CONCURRENT_HITS} clicks`, async () => {
  const link = await createLink(affiliateId, organizationId, { clickCount: 7 });
  const responses = await Promise.all(
    Array.from({ length: CONCURRENT_HITS }, () => hit(`/s/${link.urlCode}`)),
  );
  expect(responses.every((response) => response.status === 302)).toBe(true);
  expect(await clickCountOf(link.urlCode)).toBe(7 + CONCURRENT_HITS);
}, 120_000);

test('concurrent GETs of many links, some inactive, are each counted on their own link', async () => {
  const active = await Promise.all(
    Array.from({ length: 12 }, (_, n) =>
      createLink(affiliateId, organizationId, { clickCount: n }),
    ),
  );
  const inactive = await createLink(affiliateId, organizationId, { active: false, clickCount: 3 });
  const hitsPerLink = 15;
  const links = [...active, inactive];
  const responses = await Promise.all(
    links.flatMap((link) =>
      Array.from({ length: hitsPerLink }, async () => ({
        link,
        response: await hit(`/s/${link.urlCode}`),
      })),
    ),
  );
  for (const { link, response } of responses) {
    expect(response.status).toBe(link.active ? 302 : 404);
    if (link.active) expect(response.headers.get('location')).toBe(link.originalUrl);
  }
  const counts = await Promise.all(links.map((link) => clickCountOf(link.urlCode)));
  expect(counts).toEqual([...active.map((link) => link.clickCount + hitsPerLink), 3]);
}, 60_000);
