// `search` and `name` filters match what was typed, literally: `%`, `_` and `\` are characters,
// not LIKE wildcards, on every route that has such a filter (REST and GraphQL share the filter).
import { call, useTestDatabase } from '../support/app';
import {
  createAffiliate,
  createApiKey,
  createBrand,
  createCampaign,
  createLink,
  createOrder,
  createProduct,
} from '../support/factories';

useTestDatabase();

/** Names that differ only by one special character, and one with none. */
const NAMES = {
  underscore: 'Zq under_score',
  percent: 'Zq per%cent',
  backslash: 'Zq back\\slash',
  plain: 'Zq plain-text',
};
type Which = keyof typeof NAMES;

let affiliateKey: string;
let partnerKey: string;
/** For each route, the value its rows were named by, per kind. */
const ids: Record<string, Record<string, Which>> = {};

beforeAll(async () => {
  const affiliate = await createAffiliate();
  affiliateKey = affiliate.apiKey;
  ({ apiKey: partnerKey } = await createApiKey('partner'));
  const brand = await createBrand({ name: 'Zq host brand' });
  ids.brands = {};
  ids.campaigns = {};
  ids.orders = {};
  ids.products = {};
  ids.links = {};
  for (const [which, name] of Object.entries(NAMES) as [Which, string][]) {
    ids.brands[(await createBrand({ name })).id] = which;
    ids.campaigns[(await createCampaign(brand.id, { name })).id] = which;
    ids.orders[(await createOrder(affiliate.affiliateId, brand.id, { orderNumber: name })).id] =
      which;
    ids.products[(await createProduct(brand.id, { name, sku: `SKU-${which}` })).id] = which;
    const link = await createLink(affiliate.affiliateId, brand.id, {
      // Stored as written (no percent-encoding), so each special character appears once.
      originalUrl: `https://brand.example/${name.replaceAll(' ', '-')}`,
    });
    ids.links[link.urlCode] = which;
  }
});

// [route, the filter, which rows a route lists (ids or codes), the key]
const ROUTES: [string, string, string, 'affiliate' | 'partner'][] = [
  ['/api/partner/organizations', 'search', 'brands', 'partner'],
  ['/api/partner/brands', 'search', 'brands', 'partner'],
  ['/affiliate/brands', 'search', 'brands', 'affiliate'],
  ['/api/partner/campaigns', 'name', 'campaigns', 'partner'],
  ['/affiliate/campaigns', 'name', 'campaigns', 'affiliate'],
  ['/affiliate/orders', 'search', 'orders', 'affiliate'],
  ['/affiliate/products', 'search', 'products', 'affiliate'],
  ['/affiliate/shortener/urls', 'search', 'links', 'affiliate'],
];

describe.each(ROUTES)('%s?%s=', (path, filter, rows, keyType) => {
  async function found(typed: string): Promise<Which[]> {
    const key = keyType === 'partner' ? partnerKey : affiliateKey;
    const { status, body } = await call(`${path}?${filter}=${encodeURIComponent(typed)}&limit=20`, {
      key,
    });
    expect(status).toBe(200);
    return (body.data as { id?: string; urlCode?: string }[])
      .map((row) => ids[rows]![(row.id ?? row.urlCode)!])
      .filter((which): which is Which => which !== undefined)
      .sort();
  }

  test.each([
    ['_', ['underscore']],
    ['%', ['percent']],
    ['\\', ['backslash']],
    ['r_s', ['underscore']],
    ['R%C', ['percent']],
  ])('%p matches only the rows holding it, literally', async (typed, expected) => {
    expect(await found(typed)).toEqual(expected);
  });

  test('plain text still matches part of the text, any case', async () => {
    expect(await found('ZQ')).toEqual(['backslash', 'percent', 'plain', 'underscore']);
  });
});
