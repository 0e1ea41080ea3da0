// The values scenarios need (ids, a category, search terms), read from the running service through
// its own routes, so the same scenario table works on the demo data and at scale (the scale seed
// issues the demo keys too).
import { DEMO } from '../../prisma/seed/demo';

export interface Fixtures {
  /** Visible brands of the affiliate's first brand page (targets of brand-page short links). */
  brandIds: string[];
  partnerBrandId: string;
  category: string;
  brandSearch: string;
  organizationSearch: string;
  affiliateCampaignId: string;
  partnerCampaignId: string;
  campaignSearch: string;
  channelId: string;
  orderId: string;
  orderBrandId: string;
  orderSearch: string;
  productBrandId: string;
  productSearch: string;
  /** An active short link of the affiliate: the single GET and the redirect. */
  urlCode: string;
  shortUrlSearch: string;
  /** A created-at / period window: the last 30 days. */
  startAt: string;
  endAt: string;
}

type Item = Record<string, unknown>;

async function firstItems(
  baseUrl: string,
  path: string,
  key: string,
  minimum = 1,
): Promise<Item[]> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { 'x-api-key': key } });
  if (!response.ok) throw new Error(`fixtures: GET ${path} answered ${response.status}`);
  const body = (await response.json()) as { data?: Item[] };
  const items = body.data ?? [];
  if (items.length < minimum) {
    throw new Error(`fixtures: GET ${path} has ${items.length} items, need ${minimum}`);
  }
  return items;
}

function text(item: Item | undefined, field: string): string {
  const value = item?.[field];
  if (typeof value !== 'string' || !value) throw new Error(`fixtures: no ${field} in ${item}`);
  return value;
}

/** A search term that matches the text: its first word, lowercase (the routes ignore case). */
function firstWord(value: string): string {
  return value.split(/[\s-]+/)[0]!.toLowerCase();
}

const DAY_MS = 86_400_000;

export async function resolveFixtures(baseUrl: string): Promise<Fixtures> {
  const affiliate = (path: string, minimum?: number) =>
    firstItems(baseUrl, path, DEMO.keys.affiliate, minimum);
  const partner = (path: string) => firstItems(baseUrl, path, DEMO.keys.partner);

  const brands = await affiliate('/affiliate/brands?limit=20', 2);
  const [partnerBrand] = await partner('/api/partner/brands?limit=1');
  const [organization] = await partner('/api/partner/organizations?limit=1');
  const [campaign] = await affiliate('/affiliate/campaigns?limit=1');
  const [partnerCampaign] = await partner('/api/partner/campaigns?limit=1');
  const [channel] = await affiliate('/affiliate/channels');
  const [order] = await affiliate('/affiliate/orders?limit=1');
  const [product] = await affiliate('/affiliate/products?limit=1');
  const [shortUrl] = await affiliate('/affiliate/shortener/urls?limit=1');
  const categories = brands.flatMap((brand) => (brand.categories as string[] | undefined) ?? []);
  if (!categories.length) throw new Error('fixtures: no brand has a category');
  const now = Date.now();
  return {
    brandIds: brands.map((brand) => text(brand, 'id')),
    partnerBrandId: text(partnerBrand, 'id'),
    category: categories[0]!,
    brandSearch: firstWord(text(brands[0], 'name')),
    organizationSearch: firstWord(text(organization, 'name')),
    affiliateCampaignId: text(campaign, 'id'),
    partnerCampaignId: text(partnerCampaign, 'id'),
    campaignSearch: firstWord(text(campaign, 'name')),
    channelId: text(channel, 'id'),
    orderId: text(order, 'id'),
    orderBrandId: text(order, 'organizationId'),
    // The order number's last digits: a narrow match, as someone looking up one order types.
    orderSearch: text(order, 'orderNumber').slice(-6),
    productBrandId: text(product, 'organizationId'),
    productSearch: firstWord(text(product, 'name')),
    urlCode: text(shortUrl, 'urlCode'),
    // The brand's host name: every link of that brand matches.
    shortUrlSearch: new URL(text(shortUrl, 'originalUrl')).hostname.split('.')[0]!,
    startAt: new Date(now - 30 * DAY_MS).toISOString(),
    endAt: new Date(now).toISOString(),
  };
}
