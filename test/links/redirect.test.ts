// GET /s/{urlCode}, the public redirect: 302 to the original URL with no key; one click per client
// (address and user agent) and link within the window, exact even under concurrency, and at most
// a fixed number of clients per address; HEAD, bots, crawlers and link-preview fetchers
// redirected but not counted; unknown, malformed and inactive codes 404 in the contract's error
// body. Sub-IDs: counted per value, one new value per network in a link's hour, values on the
// affiliate's orders always kept.
import { prisma } from '../../src/platform/db';
import {
  CLICK_REPEAT_WINDOW_S,
  forgetExpiredClickClients,
  MAX_CLICKS_PER_ADDRESS,
} from '../../src/modules/links/clicks';
import { OTHER_SUB_ID_VALUES } from '../../src/modules/links/subIds';
import { countedClient, rememberingBotVerdicts } from '../../src/modules/links/redirect';
import { app, call, createIsolatedApp, expectError, useTestDatabase } from '../support/app';
import {
  clickCountOf,
  createAffiliate,
  createBrand,
  createLink,
  createOrder,
} from '../support/factories';

useTestDatabase();

const BROWSER =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

let affiliateId: string;
let organizationId: string;

beforeAll(async () => {
  ({ affiliateId } = await createAffiliate());
  ({ id: organizationId } = await createBrand());
});

/** A browser of its own: the same page in another browser is another client. */
const browser = (n: number) => `${BROWSER} client/${n}`;

/** Behind a proxy that says who the client is (TRUST_PROXY), so clients can come from many addresses. */
const behindProxy = createIsolatedApp({ settings: { trustProxy: 1 } });

/**
 * An address of its own for person `n`, in a network of its own: an IPv6 /48 of the documentation
 * range 2001:db8::/32 (RFC 3849; the IPv4 documentation ranges are only three /24s).
 */
const addressOf = (n: number) => `2001:db8:${n.toString(16)}::1`;

/** Person `n`: a browser and an address of their own. */
const person = (n: number) => ({ userAgent: browser(n), ip: addressOf(n) });

/** A row of the performance report by a sub-ID, as far as these tests read it. */
interface ReportRow {
  subId: string | null;
  clicks: number;
  repeatClicks: number;
  botClicks: number;
  orders: number;
}

function hit(path: string, init: { method?: string; userAgent?: string | null; ip?: string } = {}) {
  const userAgent = init.userAgent === undefined ? BROWSER : init.userAgent;
  const headers: Record<string, string> = userAgent === null ? {} : { 'user-agent': userAgent };
  if (init.ip) headers['x-forwarded-for'] = init.ip;
  return (init.ip ? behindProxy : app).fetch(`http://api.test${path}`, {
    method: init.method ?? 'GET',
    headers,
    redirect: 'manual',
  });
}

async function expectNotFound(response: Response) {
  expectError(
    { status: response.status, body: await response.json() },
    'NOT_FOUND',
    'Short URL not found',
  );
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
  await hit(`/s/${link.urlCode}?utm_source=mail`, { userAgent: browser(2) });
  expect(await clickCountOf(link.urlCode)).toBe(2);
});

test(`a client's repeat within ${CLICK_REPEAT_WINDOW_S} s is redirected, not counted again`, async () => {
  const link = await createLink(affiliateId, organizationId);
  for (let n = 0; n < 5; n += 1) {
    const response = await hit(`/s/${link.urlCode}`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(link.originalUrl);
  }
  expect(await clickCountOf(link.urlCode)).toBe(1);
  // The same client on another link is a click there.
  const other = await createLink(affiliateId, organizationId);
  await hit(`/s/${other.urlCode}`);
  expect(await clickCountOf(other.urlCode)).toBe(1);
});

test('once its window has passed, the client counts again', async () => {
  const link = await createLink(affiliateId, organizationId);
  await hit(`/s/${link.urlCode}`);
  await prisma.$executeRaw`
    UPDATE "RecentClick" SET "countedAt" = "countedAt" - make_interval(secs => ${CLICK_REPEAT_WINDOW_S})
    WHERE "linkId" = ${link.id}::uuid`;
  await hit(`/s/${link.urlCode}`);
  expect(await clickCountOf(link.urlCode)).toBe(2);
});

test('another address with the same browser is another client', async () => {
  const link = await createLink(affiliateId, organizationId);
  for (const ip of ['203.0.113.7', '203.0.113.8', '203.0.113.7']) {
    await hit(`/s/${link.urlCode}`, { ip });
  }
  expect(await clickCountOf(link.urlCode)).toBe(2);
});

describe(`one address adds at most ${MAX_CLICKS_PER_ADDRESS} clicks to a link per window`, () => {
  /** The link's counted and repeat clicks in its hourly history. */
  async function historyOf(linkId: string) {
    const hours = await prisma.linkClickHour.findMany({ where: { linkId } });
    return {
      clicks: hours.reduce((sum, hour) => sum + hour.clicks, 0),
      repeats: hours.reduce((sum, hour) => sum + hour.repeats, 0),
    };
  }

  test('a script rotating its user agent: every hit redirected, the first ones counted, the rest repeats', async () => {
    const link = await createLink(affiliateId, organizationId);
    for (let n = 0; n < 2 * MAX_CLICKS_PER_ADDRESS; n += 1) {
      const response = await hit(`/s/${link.urlCode}`, {
        userAgent: browser(n),
        ip: '203.0.113.9',
      });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(link.originalUrl);
    }
    expect(await clickCountOf(link.urlCode)).toBe(MAX_CLICKS_PER_ADDRESS);
    expect(await historyOf(link.id)).toEqual({
      clicks: MAX_CLICKS_PER_ADDRESS,
      repeats: MAX_CLICKS_PER_ADDRESS,
    });
  });

  test('people behind one NAT, each in their own browser, all count up to the bound', async () => {
    const link = await createLink(affiliateId, organizationId);
    const colleagues = [
      BROWSER,
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    ];
    for (const userAgent of colleagues) {
      await hit(`/s/${link.urlCode}`, { userAgent, ip: '192.0.2.44' });
    }
    expect(await clickCountOf(link.urlCode)).toBe(colleagues.length);
  });

  test('an IPv6 /64 is one address; another /64 is another', async () => {
    const link = await createLink(affiliateId, organizationId);
    for (let n = 0; n < MAX_CLICKS_PER_ADDRESS + 5; n += 1) {
      // A new address within the same /64 for every hit.
      await hit(`/s/${link.urlCode}`, { userAgent: browser(n), ip: `2001:db8:1:2::${n + 1}` });
    }
    expect(await clickCountOf(link.urlCode)).toBe(MAX_CLICKS_PER_ADDRESS);
    await hit(`/s/${link.urlCode}`, { ip: '2001:db8:1:3::1' });
    expect(await clickCountOf(link.urlCode)).toBe(MAX_CLICKS_PER_ADDRESS + 1);
  });

  test('the bound is per link: the same address counts on another link', async () => {
    const [first, second] = [
      await createLink(affiliateId, organizationId),
      await createLink(affiliateId, organizationId),
    ];
    for (const link of [first, second]) {
      for (let n = 0; n < MAX_CLICKS_PER_ADDRESS + 1; n += 1) {
        await hit(`/s/${link.urlCode}`, { userAgent: browser(n), ip: '203.0.113.10' });
      }
    }
    expect(await clickCountOf(first.urlCode)).toBe(MAX_CLICKS_PER_ADDRESS);
    expect(await clickCountOf(second.urlCode)).toBe(MAX_CLICKS_PER_ADDRESS);
  });

  test("once the address's window has passed, its clients count again", async () => {
    const link = await createLink(affiliateId, organizationId);
    for (let n = 0; n < MAX_CLICKS_PER_ADDRESS + 1; n += 1) {
      await hit(`/s/${link.urlCode}`, { userAgent: browser(n), ip: '203.0.113.11' });
    }
    await prisma.$executeRaw`
      UPDATE "RecentClickAddress"
      SET "windowStart" = "windowStart" - make_interval(secs => ${CLICK_REPEAT_WINDOW_S})
      WHERE "linkId" = ${link.id}::uuid`;
    await hit(`/s/${link.urlCode}`, { userAgent: browser(100), ip: '203.0.113.11' });
    await hit(`/s/${link.urlCode}`, { userAgent: browser(101), ip: '203.0.113.11' });
    expect(await clickCountOf(link.urlCode)).toBe(MAX_CLICKS_PER_ADDRESS + 2);
  });

  test('many user agents of one address at once count exactly the bound', async () => {
    const link = await createLink(affiliateId, organizationId);
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, n) =>
        hit(`/s/${link.urlCode}`, { userAgent: browser(n), ip: '203.0.113.12' }),
      ),
    );
    expect(responses.every((response) => response.status === 302)).toBe(true);
    expect(await clickCountOf(link.urlCode)).toBe(MAX_CLICKS_PER_ADDRESS);
  });

  test('address windows that have passed are forgotten', async () => {
    const link = await createLink(affiliateId, organizationId);
    // The first address's window is aged before the second address clicks: two clicks may share a
    // timestamp on a fast machine, so no row is picked by its time.
    await hit(`/s/${link.urlCode}`, { ip: '203.0.113.13' });
    await prisma.$executeRaw`
      UPDATE "RecentClickAddress"
      SET "windowStart" = "windowStart" - make_interval(secs => ${CLICK_REPEAT_WINDOW_S + 1})
      WHERE "linkId" = ${link.id}::uuid`;
    await hit(`/s/${link.urlCode}`, { ip: '203.0.113.14' });
    await forgetExpiredClickClients();
    expect(await prisma.recentClickAddress.count({ where: { linkId: link.id } })).toBe(1);
  });
});

test('clients whose window has passed are forgotten', async () => {
  const link = await createLink(affiliateId, organizationId);
  // Aged before the second client clicks, as above: never picked by its time.
  await hit(`/s/${link.urlCode}`, { userAgent: browser(1) });
  await prisma.$executeRaw`
    UPDATE "RecentClick" SET "countedAt" = "countedAt" - make_interval(secs => ${CLICK_REPEAT_WINDOW_S + 1})
    WHERE "linkId" = ${link.id}::uuid`;
  await hit(`/s/${link.urlCode}`, { userAgent: browser(2) });
  expect(await forgetExpiredClickClients()).toBeGreaterThanOrEqual(1);
  expect(await prisma.recentClick.count({ where: { linkId: link.id } })).toBe(1);
});

test('HEAD: the same redirect, not counted', async () => {
  const link = await createLink(affiliateId, organizationId);
  const response = await hit(`/s/${link.urlCode}`, { method: 'HEAD' });
  expect(response.status).toBe(302);
  expect(response.headers.get('location')).toBe(link.originalUrl);
  expect(await clickCountOf(link.urlCode)).toBe(0);
});

test.each([
  'curl/8.5.0',
  'python-requests/2.31.0',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
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
])(
  'a bot, crawler or link-preview fetcher is redirected, not counted, again: %s',
  async (userAgent) => {
    const link = await createLink(affiliateId, organizationId);
    for (let follow = 0; follow < 2; follow += 1) {
      const response = await hit(`/s/${link.urlCode}`, { userAgent });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(link.originalUrl);
    }
    expect(await clickCountOf(link.urlCode)).toBe(0);
  },
);

test("rememberingBotVerdicts: each agent's verdict is isbot's, remembered or not, past the oldest forgotten", () => {
  const isBot = rememberingBotVerdicts(2);
  const agents = ['curl/8.5.0', BROWSER, 'Twitterbot/1.0', browser(2), 'curl/8.5.0', BROWSER];
  expect(agents.map(isBot)).toEqual([true, false, true, false, true, false]);
  const long = `${BROWSER} ${'x'.repeat(600)}`;
  expect([isBot(long), isBot(`Googlebot/2.1 ${'x'.repeat(600)}`)]).toEqual([false, true]);
});

test('a GET without a user agent is redirected, not counted', async () => {
  const link = await createLink(affiliateId, organizationId);
  expect((await hit(`/s/${link.urlCode}`, { userAgent: null })).status).toBe(302);
  expect(await clickCountOf(link.urlCode)).toBe(0);
});

test('countedClient: browsers count, each address and browser apart; an IPv6 /64 is one address, a /24 or /48 one network; bots and no agent do not', () => {
  const client = (ip: string, userAgent: string | null) => countedClient(ip, userAgent)?.client;
  const address = (ip: string) => countedClient(ip, BROWSER)?.address;
  const network = (ip: string) => countedClient(ip, BROWSER)?.network;
  expect(countedClient('203.0.113.7', BROWSER)).toEqual({
    client: expect.stringMatching(/^[0-9a-f]{64}$/),
    address: expect.stringMatching(/^[0-9a-f]{64}$/),
    network: expect.stringMatching(/^[0-9a-f]{64}$/),
  });
  expect(network('203.0.113.7')).toBe(network('203.0.113.8'));
  expect(network('203.0.113.7')).toBe(network('::ffff:203.0.113.200'));
  expect(network('203.0.113.7')).not.toBe(network('198.51.100.7'));
  expect(network('2001:db8:1:2::1')).toBe(network('2001:db8:1:3::1'));
  expect(network('2001:db8:1::1')).not.toBe(network('2001:db8:2::1'));
  expect(network('203.0.113.7')).not.toBe(address('203.0.113.7'));
  expect(client('203.0.113.7', BROWSER)).not.toBe(client('203.0.113.8', BROWSER));
  expect(client('203.0.113.7', BROWSER)).not.toBe(client('203.0.113.7', browser(2)));
  expect(address('203.0.113.7')).not.toBe(address('203.0.113.8'));
  expect(address('203.0.113.7')).toBe(address('::ffff:203.0.113.7'));
  expect(client('2001:db8::1', BROWSER)).not.toBe(client('2001:db8::2', BROWSER));
  expect(address('2001:db8::1')).toBe(address('2001:db8:0:0:ffff::2'));
  expect(address('2001:db8::1')).not.toBe(address('2001:db8:0:1::1'));
  expect(countedClient('203.0.113.7', 'curl/8.5.0')).toBeNull();
  expect(countedClient('203.0.113.7', '')).toBeNull();
  expect(countedClient('203.0.113.7', null)).toBeNull();
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

test(`${CONCURRENT_HITS} clients at once count exactly ${CONCURRENT_HITS} clicks, their repeats none`, async () => {
  const link = await createLink(affiliateId, organizationId, { clickCount: 7 });
  const everyClientOnce = () =>
    Promise.all(
      Array.from({ length: CONCURRENT_HITS }, (_, n) => hit(`/s/${link.urlCode}`, person(n))),
    );
  const responses = [...(await everyClientOnce()), ...(await everyClientOnce())];
  expect(responses.every((response) => response.status === 302)).toBe(true);
  expect(await clickCountOf(link.urlCode)).toBe(7 + CONCURRENT_HITS);
}, 120_000);

test('one client clicking many times at once counts once', async () => {
  const link = await createLink(affiliateId, organizationId);
  const responses = await Promise.all(
    Array.from({ length: 50 }, () => hit(`/s/${link.urlCode}`, { userAgent: browser(7) })),
  );
  expect(responses.every((response) => response.status === 302)).toBe(true);
  expect(await clickCountOf(link.urlCode)).toBe(1);
});

test('concurrent clients of many links, some inactive, are each counted on their own link', async () => {
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
      Array.from({ length: hitsPerLink }, async (_, n) => ({
        link,
        response: await hit(`/s/${link.urlCode}`, person(n)),
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

describe('sub-IDs: GET /s/{urlCode}?sub1=…&sub5=…', () => {
  /** The link's clicks per sub-ID value (`sub1=value`), over every hour. */
  async function valuesOf(linkId: string) {
    const rows = await prisma.linkSubIdClickHour.findMany({ where: { linkId } });
    const values: Record<string, { clicks: number; repeats: number; bots: number }> = {};
    for (const row of rows) {
      const sum = (values[`sub${row.slot}=${row.value}`] ??= { clicks: 0, repeats: 0, bots: 0 });
      sum.clicks += row.clicks;
      sum.repeats += row.repeats;
      sum.bots += row.bots;
    }
    return values;
  }

  const once = { clicks: 1, repeats: 0, bots: 0 };

  /** How many values of a sub-ID a link's hour keeps (the database's bound). */
  async function valuesPerHour(): Promise<number> {
    const [row] = await prisma.$queryRaw<{ bound: number }[]>`
      SELECT "sub_id_values_per_hour"() AS bound`;
    return row!.bound;
  }

  /** The rows of the report by sub1 of an affiliate's key (default period: the last 30 days). */
  async function reportBySub1(apiKey: string): Promise<ReportRow[]> {
    const report = await call('/affiliate/reports/performance?groupBy=sub1&limit=366', {
      key: apiKey,
    });
    expect(report.status).toBe(200);
    return report.body.data;
  }

  /** Of each row: [subId, clicks, repeats, bots]. */
  const clicksOf = (rows: ReportRow[]) =>
    rows.map((row) => [row.subId, row.clicks, row.repeatClicks, row.botClicks]);

  /**
   * Runs a scenario again, once, if the UTC hour turned while it ran (the new hour starts with no
   * values): it makes links of its own.
   */
  async function withinOneHour(scenario: () => Promise<void>) {
    const hour = () => Math.floor(Date.now() / 3_600_000);
    const started = hour();
    try {
      await scenario();
    } catch (error) {
      if (hour() === started) throw error;
      await scenario();
    }
  }

  test("a tagged follow: 302 with the values appended, encoded, after the target's own parameters; counted under each value", async () => {
    const link = await createLink(affiliateId, organizationId, {
      originalUrl: `https://shop.example/sale?size=42&aff=${affiliateId}#top`,
    });
    const response = await hit(
      `/s/${link.urlCode}?utm_source=mail&sub1=newsletter-may&sub3=a%2Fb%3Dc%26d&sub5=%5Bhero%5D`,
    );
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(
      `https://shop.example/sale?size=42&aff=${affiliateId}&sub1=newsletter-may&sub3=a%2Fb%3Dc%26d&sub5=%5Bhero%5D#top`,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await clickCountOf(link.urlCode)).toBe(1);
    expect(await valuesOf(link.id)).toEqual({
      'sub1=newsletter-may': once,
      'sub3=a/b=c&d': once,
      'sub5=[hero]': once,
    });
  });

  test("an untagged follow's Location is the target as it is, whatever else the query holds", async () => {
    const link = await createLink(affiliateId, organizationId, {
      originalUrl: `https://shop.example/sale?size=42&aff=${affiliateId}#top`,
    });
    for (const query of ['', '?', '?utm_source=mail', '?SUB1=upper&sub6=six&sub=x&subid=y']) {
      const response = await hit(`/s/${link.urlCode}${query}`, person(query.length));
      expect(response.headers.get('location')).toBe(link.originalUrl);
    }
    expect(await clickCountOf(link.urlCode)).toBe(4);
    expect(await valuesOf(link.id)).toEqual({});
  });

  test.each([
    ['empty', 'sub1='],
    ['101 characters', `sub1=${'x'.repeat(101)}`],
    ['a space', 'sub1=spring+sale'],
    ['an encoded space', 'sub1=spring%20sale'],
    ['a tab', 'sub1=a%09b'],
    ['a control character', 'sub1=a%00b'],
    ['a non-ASCII character', 'sub1=caf%C3%A9'],
    ['broken percent-encoding', 'sub1=%E0%A4%A'],
  ])('an invalid value (%s) is dropped; the redirect and the click happen', async (_, query) => {
    const link = await createLink(affiliateId, organizationId);
    const response = await hit(`/s/${link.urlCode}?${query}&sub2=kept`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${link.originalUrl}&sub2=kept`);
    expect(await clickCountOf(link.urlCode)).toBe(1);
    expect(await valuesOf(link.id)).toEqual({ 'sub2=kept': once });
  });

  test('a value of 100 visible ASCII characters, every one of them, is kept and encoded', async () => {
    const printable = Array.from({ length: 94 }, (_, i) => String.fromCharCode(0x21 + i)).join('');
    const value = `${printable}abcdef`;
    expect(value).toHaveLength(100);
    const link = await createLink(affiliateId, organizationId, {
      originalUrl: 'https://shop.example/',
    });
    const response = await hit(`/s/${link.urlCode}?sub4=${encodeURIComponent(value)}`);
    const location = response.headers.get('location')!;
    expect(location).toBe(`https://shop.example/?sub4=${encodeURIComponent(value)}`);
    expect(new URL(location).searchParams.get('sub4')).toBe(value);
    expect(await valuesOf(link.id)).toEqual({ [`sub4=${value}`]: once });
  });

  test("the first of a repeated name counts; the target's own parameter of that name gives way", async () => {
    const link = await createLink(affiliateId, organizationId, {
      originalUrl: 'https://shop.example/p?sub1=static&x=1&sub2=own',
    });
    const response = await hit(`/s/${link.urlCode}?sub1=first&sub1=second`);
    expect(response.headers.get('location')).toBe('https://shop.example/p?x=1&sub2=own&sub1=first');
    expect(await valuesOf(link.id)).toEqual({ 'sub1=first': once });
  });

  test('HEAD: the same Location, not counted', async () => {
    const link = await createLink(affiliateId, organizationId);
    const response = await hit(`/s/${link.urlCode}?sub1=preview`, { method: 'HEAD' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${link.originalUrl}&sub1=preview`);
    expect(await clickCountOf(link.urlCode)).toBe(0);
    expect(await valuesOf(link.id)).toEqual({});
  });

  test(`repeats and bots are kept under a value counted clicks keep; a value only they carry counts under "${OTHER_SUB_ID_VALUES}"`, async () => {
    const link = await createLink(affiliateId, organizationId);
    await hit(`/s/${link.urlCode}?sub1=a`, person(1));
    await hit(`/s/${link.urlCode}?sub1=a`, person(1));
    await hit(`/s/${link.urlCode}?sub1=b`, person(1));
    await hit(`/s/${link.urlCode}?sub1=a`, person(2));
    await hit(`/s/${link.urlCode}?sub1=a`, {
      userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)',
    });
    await hit(`/s/${link.urlCode}?sub1=c`, { userAgent: 'curl/8.5.0' });
    expect(await clickCountOf(link.urlCode)).toBe(2);
    expect(await valuesOf(link.id)).toEqual({
      'sub1=a': { clicks: 2, repeats: 1, bots: 1 },
      [`sub1=${OTHER_SUB_ID_VALUES}`]: { clicks: 0, repeats: 1, bots: 1 },
    });
  });

  test("bots and repeats with values of their own, past the bound, take none of the link's kept values: an affiliate's counted value still is one", async () => {
    const { affiliateId: owner, apiKey } = await createAffiliate();
    const link = await createLink(owner, organizationId);
    const bound = await valuesPerHour();
    const spam = bound + 20;
    // A script: bots (its own user agent, at once) and a visitor's repeats, every one with a value
    // of its own.
    const bots = await Promise.all(
      Array.from({ length: spam }, (_, n) =>
        hit(`/s/${link.urlCode}?sub1=spam-${n}&sub2=spam`, { userAgent: 'curl/8.5.0' }),
      ),
    );
    expect(bots.every((response) => response.status === 302)).toBe(true);
    await hit(`/s/${link.urlCode}?sub2=visit`, person(1));
    for (let n = 0; n < 5; n += 1) {
      await hit(`/s/${link.urlCode}?sub1=repeat-${n}`, person(1));
    }
    // The affiliate's own followers.
    await hit(`/s/${link.urlCode}?sub1=newsletter`, person(2));
    await hit(`/s/${link.urlCode}?sub1=newsletter`, person(3));
    expect(await clickCountOf(link.urlCode)).toBe(3);
    const other = `sub1=${OTHER_SUB_ID_VALUES}`;
    expect(await valuesOf(link.id)).toEqual({
      'sub1=newsletter': { clicks: 2, repeats: 0, bots: 0 },
      [other]: { clicks: 0, repeats: 5, bots: spam },
      'sub2=visit': once,
      [`sub2=${OTHER_SUB_ID_VALUES}`]: { clicks: 0, repeats: 0, bots: spam },
    });

    expect(clicksOf(await reportBySub1(apiKey))).toEqual([
      ['newsletter', 2, 0, 0],
      [null, 1, 0, 0],
      [OTHER_SUB_ID_VALUES, 0, 5, spam],
    ]);
  });

  test("100 counted follows with values of their own from 10 addresses at once take one place per network: the affiliate's value keeps its row", async () => {
    await withinOneHour(async () => {
      const { affiliateId: owner, apiKey } = await createAffiliate();
      const link = await createLink(owner, organizationId);
      // A script from 10 addresses, each in a network of its own, with 10 browsers each.
      const junk = await Promise.all(
        Array.from({ length: 100 }, (_, n) =>
          hit(`/s/${link.urlCode}?sub1=junk-${n}`, {
            userAgent: browser(n % 10),
            ip: addressOf(1_000 + Math.floor(n / 10)),
          }),
        ),
      );
      expect(junk.every((response) => response.status === 302)).toBe(true);
      expect(await clickCountOf(link.urlCode)).toBe(100);
      await hit(`/s/${link.urlCode}?sub1=newsletter`, person(1));
      const rows = clicksOf(await reportBySub1(apiKey));
      expect(rows).toContainEqual(['newsletter', 1, 0, 0]);
      expect(rows).toContainEqual([OTHER_SUB_ID_VALUES, 90, 0, 0]);
      expect(rows.filter(([subId]) => String(subId).startsWith('junk-'))).toHaveLength(10);
    });
  });

  describe("a value new to a link's hour takes a place as the first its network (IPv4 /24, IPv6 /48) brings there; values on the affiliate's orders are always kept", () => {
    /**
     * An address of attacker network `n`, one per `host`: the three IPv4 documentation /24s, then
     * /48s of 2001:db8::/32, each host in a /64 of its own.
     */
    function attackerAddress(n: number, host: number): string {
      const ipv4 = ['192.0.2', '198.51.100', '203.0.113'];
      if (n < ipv4.length) return `${ipv4[n]}.${10 + host}`;
      return `2001:db8:${(0x8000 + n).toString(16)}:${host}::1`;
    }

    /** Each network at once from two addresses of its own, each a browser with a value of its own. */
    async function attack(urlCode: string, networks: number) {
      const follows = Array.from({ length: networks }, (_, n) =>
        [0, 1].map((host) =>
          hit(`/s/${urlCode}?sub1=junk-${n}-${host}&sub2=junk-${n}-${host}`, {
            userAgent: browser(host),
            ip: attackerAddress(n, host),
          }),
        ),
      ).flat();
      const responses = await Promise.all(follows);
      expect(responses.every((response) => response.status === 302)).toBe(true);
    }

    test('two addresses of one /24 or one /48 bring one value per sub-ID; their others count, under "(other values)"', async () => {
      await withinOneHour(async () => {
        const link = await createLink(affiliateId, organizationId);
        await attack(link.urlCode, 4);
        expect(await clickCountOf(link.urlCode)).toBe(8);
        const values = await valuesOf(link.id);
        /** The value network `n` brought to sub-ID `slot` (whichever of its two came first). */
        const brought = (slot: number, n: number) => {
          const kept = [0, 1]
            .map((host) => `junk-${n}-${host}`)
            .filter((v) => values[`sub${slot}=${v}`]);
          expect(kept).toHaveLength(1);
          return kept[0]!;
        };
        for (const slot of [1, 2]) {
          for (let n = 0; n < 4; n += 1) {
            expect(values[`sub${slot}=${brought(slot, n)}`]).toEqual(once);
          }
          expect(values[`sub${slot}=${OTHER_SUB_ID_VALUES}`]).toEqual({
            clicks: 4,
            repeats: 0,
            bots: 0,
          });
        }
        expect(Object.keys(values)).toHaveLength(10);
        // From another of its addresses, the network counts under the value it brought; a new
        // value of it counts under the other values.
        const known = brought(1, 3);
        await hit(`/s/${link.urlCode}?sub1=${known}`, {
          userAgent: browser(7),
          ip: attackerAddress(3, 7),
        });
        await hit(`/s/${link.urlCode}?sub1=fresh`, {
          userAgent: browser(8),
          ip: attackerAddress(3, 8),
        });
        expect(await valuesOf(link.id)).toMatchObject({
          [`sub1=${known}`]: { clicks: 2, repeats: 0, bots: 0 },
          [`sub1=${OTHER_SUB_ID_VALUES}`]: { clicks: 5, repeats: 0, bots: 0 },
        });
      });
    });

    test('the networks of hours before the previous one are forgotten', async () => {
      await withinOneHour(async () => {
        const link = await createLink(affiliateId, organizationId);
        const olderByAnHour = () => prisma.$executeRaw`
          UPDATE "RecentSubIdNetwork" SET "hour" = "hour" - interval '1 hour'
          WHERE "linkId" = ${link.id}::uuid`;
        await hit(`/s/${link.urlCode}?sub1=a`, person(1));
        await olderByAnHour();
        await hit(`/s/${link.urlCode}?sub1=b`, person(2));
        await olderByAnHour();
        await hit(`/s/${link.urlCode}?sub1=c`, person(3));
        expect(await prisma.recentSubIdNetwork.count({ where: { linkId: link.id } })).toBe(3);
        await forgetExpiredClickClients();
        expect(await prisma.recentSubIdNetwork.count({ where: { linkId: link.id } })).toBe(2);
      });
    });

    test("an attacker needs a network per place in the hour to push a new value out; a value the affiliate's orders carry stays its own", async () => {
      const places = await valuesPerHour();
      await withinOneHour(async () => {
        // One network short of the places: the affiliate's new value takes the last one.
        const short = await createLink(affiliateId, organizationId);
        await attack(short.urlCode, places - 1);
        expect(await clickCountOf(short.urlCode)).toBe(2 * (places - 1));
        await hit(`/s/${short.urlCode}?sub1=newsletter`, person(1));
        expect(await valuesOf(short.id)).toMatchObject({
          'sub1=newsletter': once,
          [`sub1=${OTHER_SUB_ID_VALUES}`]: { clicks: places - 1, repeats: 0, bots: 0 },
        });
      });
      await withinOneHour(async () => {
        // As many networks as places: a new value counts under the other values, but one the
        // affiliate's orders carried (yesterday, on this link) keeps its row.
        const { affiliateId: owner, apiKey } = await createAffiliate();
        const full = await createLink(owner, organizationId);
        await createOrder(owner, organizationId, {
          shortUrlCode: full.urlCode,
          orderedAt: new Date(Date.now() - 86_400_000),
          sub1: 'paid-mail',
        });
        await attack(full.urlCode, places);
        await hit(`/s/${full.urlCode}?sub1=spring`, person(2));
        await hit(`/s/${full.urlCode}?sub1=paid-mail`, person(3));
        const values = await valuesOf(full.id);
        expect(values).toMatchObject({
          'sub1=paid-mail': once,
          [`sub1=${OTHER_SUB_ID_VALUES}`]: { clicks: places + 1, repeats: 0, bots: 0 },
        });
        expect(values['sub1=spring']).toBeUndefined();
        const rows = await reportBySub1(apiKey);
        expect(rows).toContainEqual(
          expect.objectContaining({ subId: 'paid-mail', clicks: 1, orders: 1 }),
        );
      });
    }, 60_000);
  });

  test('clicks past the address bound are repeats under their values too', async () => {
    const link = await createLink(affiliateId, organizationId);
    for (let n = 0; n < MAX_CLICKS_PER_ADDRESS + 3; n += 1) {
      await hit(`/s/${link.urlCode}?sub1=scripted`, { userAgent: browser(n), ip: '203.0.113.20' });
    }
    expect(await valuesOf(link.id)).toEqual({
      'sub1=scripted': { clicks: MAX_CLICKS_PER_ADDRESS, repeats: 3, bots: 0 },
    });
  });

  test('many people at once, tagged: every value counted exactly', async () => {
    const link = await createLink(affiliateId, organizationId);
    const responses = await Promise.all(
      Array.from({ length: 120 }, (_, n) =>
        hit(`/s/${link.urlCode}?sub1=v${n % 3}&sub2=all`, person(n)),
      ),
    );
    expect(responses.every((response) => response.status === 302)).toBe(true);
    expect(await clickCountOf(link.urlCode)).toBe(120);
    expect(await valuesOf(link.id)).toEqual({
      'sub1=v0': { clicks: 40, repeats: 0, bots: 0 },
      'sub1=v1': { clicks: 40, repeats: 0, bots: 0 },
      'sub1=v2': { clicks: 40, repeats: 0, bots: 0 },
      'sub2=all': { clicks: 120, repeats: 0, bots: 0 },
    });
  });

  test(`past the bound of values per link, hour and sub-ID, further values count under "${OTHER_SUB_ID_VALUES}"`, async () => {
    const [settings] = await prisma.$queryRaw<{ other: string }[]>`
      SELECT "sub_id_other_values"() AS other`;
    const { other } = settings!;
    expect(other).toBe(OTHER_SUB_ID_VALUES);
    const bound = await valuesPerHour();
    const link = await createLink(affiliateId, organizationId);
    const value = (n: number) => `v${String(n).padStart(3, '0')}`;
    const extra = 5;
    for (let n = 0; n < bound + extra; n += 1) {
      await hit(`/s/${link.urlCode}?sub1=${value(n)}&sub2=same`, person(n));
    }
    // A kept value keeps counting under itself; the other values' clicks still reach the brand.
    const late = await hit(`/s/${link.urlCode}?sub1=${value(3)}`, person(bound + extra));
    expect(late.headers.get('location')).toBe(`${link.originalUrl}&sub1=${value(3)}`);
    const beyond = await hit(`/s/${link.urlCode}?sub1=late`, person(bound + extra + 1));
    expect(beyond.headers.get('location')).toBe(`${link.originalUrl}&sub1=late`);

    const rows = await prisma.linkSubIdClickHour.findMany({ where: { linkId: link.id, slot: 1 } });
    const hours = new Set(rows.map((row) => row.hour.getTime()));
    for (const hour of hours) {
      const kept = rows.filter((row) => row.hour.getTime() === hour && row.value !== other);
      expect(kept.length).toBeLessThanOrEqual(bound);
    }
    const total = rows.reduce((sum, row) => sum + row.clicks, 0);
    expect(total).toBe(bound + extra + 2);
    if (hours.size === 1) {
      // (An hour that turned during the test would start a new set of values.)
      const clicksOf = (v: string) => rows.find((row) => row.value === v)?.clicks;
      expect(clicksOf(value(3))).toBe(2);
      expect(clicksOf(value(bound - 1))).toBe(1);
      expect(clicksOf(value(bound))).toBeUndefined();
      expect(clicksOf(other)).toBe(extra + 1);
    }
    // Another sub-ID keeps its own values.
    expect(await valuesOf(link.id)).toMatchObject({
      'sub2=same': { clicks: bound + extra, repeats: 0, bots: 0 },
    });
  });
});
