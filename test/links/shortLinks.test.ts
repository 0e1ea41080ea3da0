// Short-link building blocks, docs/decisions.md "Short links": 8-character base62 codes, the
// tracking parameter, dedupe keys and the link a campaign gets.
import {
  brandDedupeKey,
  campaignDedupeKey,
  campaignLinkType,
  campaignShortLink,
  customDedupeKey,
  generateUrlCode,
  isUrlCode,
  shortUrlOf,
  trackingUrl,
  withoutTracking,
} from '../../src/modules/links/links';

const AFFILIATE = '11111111-1111-4111-8111-111111111111';
const BRAND = '0b6f2c1e-8a4d-4e7b-9c3a-5f1d2e3c4b5a';
const CAMPAIGN = '7c2e9d4f-3b1a-4c5d-8e6f-9a0b1c2d3e4f';

describe('generateUrlCode', () => {
  test('8 base62 characters', () => {
    for (let i = 0; i < 200; i += 1) expect(generateUrlCode()).toMatch(/^[0-9A-Za-z]{8}$/);
  });

  test('draws from the whole alphabet and rarely repeats', () => {
    const codes = Array.from({ length: 2000 }, generateUrlCode);
    expect(new Set(codes).size).toBe(codes.length);
    const characters = new Set(codes.join(''));
    expect(characters.size).toBe(62);
  });
});

describe('isUrlCode', () => {
  test.each(['aB3dE6gH', '00000000', 'zzzzzzzz'])('%s is a url code', (code) => {
    expect(isUrlCode(code)).toBe(true);
  });

  test.each(['aB3dE6g', 'aB3dE6gHi', 'aB3dE6g-', 'aB3dE6g ', '', null, 12345678])(
    '%p is not',
    (value) => {
      expect(isUrlCode(value)).toBe(false);
    },
  );
});

test('shortUrlOf puts the code under SHORT_LINK_BASE_URL', () => {
  // test/support/env.ts sets PUBLIC_BASE_URL=https://api.test; the default base is its /s.
  expect(shortUrlOf('aB3dE6gH')).toBe('https://api.test/s/aB3dE6gH');
});

describe('trackingUrl', () => {
  test('adds aff=<affiliateId>', () => {
    expect(trackingUrl('https://shop.example/sale', AFFILIATE)).toBe(
      `https://shop.example/sale?aff=${AFFILIATE}`,
    );
  });

  test('keeps existing query parameters and the fragment', () => {
    expect(trackingUrl('https://shop.example/sale?utm_source=net&page=2#top', AFFILIATE)).toBe(
      `https://shop.example/sale?utm_source=net&page=2&aff=${AFFILIATE}#top`,
    );
  });

  test("replaces another affiliate's aff parameter", () => {
    expect(trackingUrl('https://shop.example/?aff=someone-else&x=1', AFFILIATE)).toBe(
      `https://shop.example/?aff=${AFFILIATE}&x=1`,
    );
  });

  test.each(['javascript:alert(1)', 'ftp://shop.example/file', '/relative/path', 'not a url'])(
    'refuses %s',
    (url) => {
      expect(() => trackingUrl(url, AFFILIATE)).toThrow(/URL/);
    },
  );
});

describe('withoutTracking', () => {
  test('drops aff and keeps the rest', () => {
    expect(withoutTracking(`https://shop.example/p?aff=${AFFILIATE}&color=red`)).toBe(
      'https://shop.example/p?color=red',
    );
  });

  test('is the inverse of trackingUrl', () => {
    const url = 'https://shop.example/p?color=red';
    expect(withoutTracking(trackingUrl(url, AFFILIATE))).toBe(url);
  });
});

describe('dedupe keys', () => {
  test('campaign and brand links', () => {
    expect(campaignDedupeKey(CAMPAIGN)).toBe(`campaign:${CAMPAIGN}`);
    expect(brandDedupeKey(BRAND)).toBe(`brand:${BRAND}`);
  });

  test('a custom link is keyed by the URL without its tracking parameter', () => {
    const plain = customDedupeKey(BRAND, 'https://shop.example/collections/linen');
    expect(plain).toBe(`custom:${BRAND}:https://shop.example/collections/linen`);
    expect(customDedupeKey(BRAND, `https://shop.example/collections/linen?aff=${AFFILIATE}`)).toBe(
      plain,
    );
  });
});

describe('campaign links', () => {
  test.each([
    ['Offer', 'Offer'],
    ['GenericCoupon', 'Coupon'],
    ['PersonalCoupon', 'Coupon'],
  ] as const)('a %s gets a %s link', (type, linkType) => {
    expect(campaignLinkType(type)).toBe(linkType);
  });

  test('campaignShortLink: the tracked campaign url, one per affiliate and campaign', () => {
    expect(
      campaignShortLink(AFFILIATE, {
        id: CAMPAIGN,
        organizationId: BRAND,
        type: 'Offer',
        url: 'https://shop.example/sale?utm_source=net',
      }),
    ).toEqual({
      affiliateId: AFFILIATE,
      organizationId: BRAND,
      campaignId: CAMPAIGN,
      linkType: 'Offer',
      originalUrl: `https://shop.example/sale?utm_source=net&aff=${AFFILIATE}`,
      dedupeKey: `campaign:${CAMPAIGN}`,
    });
  });
});
