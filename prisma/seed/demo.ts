// Deterministic demo data: the fixed users, keys and catalog that manual testing, the README
// examples and the integration tests rely on. The same rows on every run: ids are hashes of names,
// "random" traits come from a PRNG seeded by those names, and every date is relative to `now`.
// Idempotent: each table is written with createMany + skipDuplicates, parents first.
import { createHash } from 'node:crypto';
import { parseApiKey, sha256Hex } from '../../src/auth/keyFormat';
import { BASE62 } from '../../src/platform/base62';
import {
  brandDedupeKey,
  campaignDedupeKey,
  campaignLinkType,
  customDedupeKey,
  trackingUrl,
} from '../../src/modules/links/links';
import { config } from '../../src/platform/config';
import { DEMO_KEYS, DEMO_USERS } from '../../src/auth/demoIdentities';
import { SCOPES_BY_KEY_TYPE, type KeyType } from '../../src/auth/scopes';
import {
  Prisma,
  type CampaignType,
  type CommissionType,
  type LinkType,
  type OfferType,
  type OrderStatus,
  type PrismaClient,
} from '../../src/generated/prisma/client';

// ---------------------------------------------------------------------------------------------
// Ids, randomness, dates

/** A stable UUID for a demo row, from its name (sha1, laid out as a version-5 UUID). */
export function demoId(name: string): string {
  const hex = createHash('sha1').update(name).digest('hex').slice(0, 32);
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  const bits = `${hex.slice(0, 12)}5${hex.slice(13, 16)}${variant}${hex.slice(17)}`;
  return bits.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
}

type Rng = () => number;

/** mulberry32: a tiny seeded PRNG, so "random" traits are the same on every run. */
function mulberry32(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** One generator per row, seeded by the row's name: adding a row does not reshuffle the others. */
function rngFor(name: string): Rng {
  return mulberry32(createHash('sha1').update(name).digest().readUInt32BE(0));
}

function int(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

/** The item at `index`, wrapping around the list. */
function nth<T>(list: readonly T[], index: number): T {
  const item = list[index % list.length];
  if (item === undefined) throw new Error('demo data: nth() of an empty list');
  return item;
}

function pick<T>(rng: Rng, list: readonly T[]): T {
  return nth(list, Math.floor(rng() * list.length));
}

const DAY_MS = 86_400_000;

function daysBefore(date: Date, days: number): Date {
  return new Date(date.getTime() - days * DAY_MS);
}

function daysAfter(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function splitValues<K extends string>(table: Record<K, string>): Record<K, string[]> {
  const entries = Object.entries<string>(table).map(([key, list]) => [key, list.split(', ')]);
  return Object.fromEntries(entries) as Record<K, string[]>;
}

/** 8 base62 characters from a name, like the codes the shortener issues. */
function demoUrlCode(name: string): string {
  const bytes = createHash('sha1').update(`url-code:${name}`).digest();
  return Array.from(bytes.subarray(0, 8), (byte) => BASE62.charAt(byte % 62)).join('');
}

// ---------------------------------------------------------------------------------------------
// Users and API keys

const {
  affiliate: AFFILIATE_ID,
  secondAffiliate: SECOND_AFFILIATE_ID,
  partner: PARTNER_ID,
} = DEMO_USERS;

const USERS = [
  { id: AFFILIATE_ID, name: 'Ana Affiliate', email: 'ana@demo.example', role: 'AFFILIATE' },
  { id: SECOND_AFFILIATE_ID, name: 'Ben Blogger', email: 'ben@demo.example', role: 'AFFILIATE' },
  { id: PARTNER_ID, name: 'Pia Partner', email: 'pia@demo.example', role: 'PARTNER' },
] as const satisfies readonly Prisma.UserCreateManyInput[];

const {
  legacyAffiliate: LEGACY_AFFILIATE_KEY,
  affiliate: AFFILIATE_KEY,
  partner: PARTNER_KEY,
} = DEMO_KEYS;

// prettier-ignore
const API_KEYS: { slug: string; type: KeyType; ownerId: string; apiKey: string }[] = [
  { slug: 'legacy-affiliate', type: 'affiliate', ownerId: AFFILIATE_ID, apiKey: LEGACY_AFFILIATE_KEY },
  { slug: 'affiliate', type: 'affiliate', ownerId: AFFILIATE_ID, apiKey: AFFILIATE_KEY },
  { slug: 'partner', type: 'partner', ownerId: PARTNER_ID, apiKey: PARTNER_KEY },
];

// ---------------------------------------------------------------------------------------------
// Brands (organizations)

const CATEGORIES = [
  'fashion',
  'electronics',
  'beauty',
  'home',
  'sports',
  'travel',
  'food',
  'books',
] as const;
type Category = (typeof CATEGORIES)[number];

interface BrandSeed {
  name: string;
  categories: Category[];
  isExclusive?: boolean;
  isHighlight?: boolean;
  isPublic?: boolean;
}

// 26 visible brands: more than one page of partner brands (max 20 per page).
// prettier-ignore
const VISIBLE_BRAND_SEEDS: BrandSeed[] = [
  { name: 'Northwind Apparel', categories: ['fashion'], isHighlight: true },
  { name: 'Lumen Electronics', categories: ['electronics'], isExclusive: true },
  { name: 'Velvet & Vine Beauty', categories: ['beauty'], isHighlight: true },
  { name: 'Casa Clara Home', categories: ['home'] },
  { name: 'Summit Sports Co.', categories: ['sports'], isPublic: false },
  { name: 'Wanderlust Travel', categories: ['travel'], isExclusive: true, isHighlight: true },
  { name: 'Harvest Table', categories: ['food'] },
  { name: 'Paper Lantern Books', categories: ['books'], isPublic: false },
  { name: 'Urban Thread', categories: ['fashion'], isExclusive: true },
  { name: 'Voltline Gadgets', categories: ['electronics', 'home'], isHighlight: true },
  { name: 'Glow Botanica', categories: ['beauty'] },
  { name: 'Oak & Ember Living', categories: ['home'], isExclusive: true, isPublic: false },
  { name: 'Trailhead Outfitters', categories: ['sports', 'travel'], isHighlight: true },
  { name: 'Blue Horizon Cruises', categories: ['travel'] },
  { name: 'Spice Route Pantry', categories: ['food'], isHighlight: true },
  { name: 'Inkwell Bookshop', categories: ['books'] },
  { name: 'Maison Sorelle', categories: ['fashion', 'beauty'], isExclusive: true, isHighlight: true },
  { name: 'Pixel Forge', categories: ['electronics'] },
  { name: 'Pure Petal Skincare', categories: ['beauty'], isPublic: false },
  { name: 'Nest & Nook', categories: ['home'] },
  { name: 'Fastlane Running', categories: ['sports', 'fashion'] },
  { name: 'Jetset Luggage', categories: ['travel', 'fashion'], isHighlight: true },
  { name: 'Green Basket Grocers', categories: ['food'], isPublic: false },
  { name: 'Chapter One Kids', categories: ['books'], isExclusive: true },
  { name: 'Coastal Kitchenware', categories: ['home', 'food'] },
  { name: 'Arcade Audio', categories: ['electronics'] },
];

const HIDDEN_REASONS = [
  'onboardingPending',
  'approvalPending',
  'approvalRejected',
  'inactive',
  'invisible',
] as const;
type HiddenReason = (typeof HIDDEN_REASONS)[number];

// One brand per visibility rule (docs/decisions.md, "Catalog"), each breaking only that rule.
const HIDDEN_BRAND_SEEDS: Record<
  HiddenReason,
  { seed: BrandSeed; breaks: Partial<Prisma.OrganizationCreateManyInput> }
> = {
  onboardingPending: {
    seed: { name: 'Aurora Candles', categories: ['home'], isHighlight: true },
    breaks: { onboardingStatus: 'PENDING' },
  },
  approvalPending: {
    seed: { name: 'Brightside Optics', categories: ['electronics'], isHighlight: true },
    breaks: { approvalStatus: 'PENDING' },
  },
  approvalRejected: {
    seed: { name: 'Copperleaf Tea', categories: ['food'], isHighlight: true },
    breaks: { approvalStatus: 'REJECTED' },
  },
  inactive: {
    seed: { name: 'Driftwood Surf', categories: ['sports'], isHighlight: true },
    breaks: { isActive: false },
  },
  invisible: {
    seed: { name: 'Elmstreet Toys', categories: ['home'], isHighlight: true },
    breaks: { isVisible: false },
  },
};

const CATEGORY_BLURBS: Record<Category, string> = {
  fashion: 'Everyday clothing and accessories, with free returns.',
  electronics: 'Gadgets, audio and accessories with a two-year warranty.',
  beauty: 'Skincare and cosmetics made with natural ingredients.',
  home: 'Furniture, decor and textiles for every room.',
  sports: 'Gear and apparel for running, training and the outdoors.',
  travel: 'Trips, stays and everything for the journey.',
  food: 'Pantry staples and treats, delivered fresh.',
  books: 'New releases, classics and gifts for readers.',
};

interface Brand extends BrandSeed {
  id: string;
  slug: string;
  websiteUrl: string;
  hiddenBy: HiddenReason | null;
  commissionType: CommissionType;
  commissionValue: number;
}

function toBrand(seed: BrandSeed, hiddenBy: HiddenReason | null): Brand {
  const slug = slugify(seed.name);
  const rng = rngFor(`organization:${slug}`);
  // Travel brands pay a fixed fee per booking (minor units); the others a share of the sale (bps).
  const isFixed = seed.categories[0] === 'travel';
  return {
    ...seed,
    id: demoId(`organization:${slug}`),
    slug,
    websiteUrl: `https://${slug}.example`,
    hiddenBy,
    commissionType: isFixed ? 'FIXED' : 'PERCENTAGE',
    commissionValue: isFixed ? int(rng, 10, 40) * 100 : int(rng, 10, 30) * 50,
  };
}

const VISIBLE_BRANDS = VISIBLE_BRAND_SEEDS.map((seed) => toBrand(seed, null));
const HIDDEN_BRANDS = HIDDEN_REASONS.map((reason) =>
  toBrand(HIDDEN_BRAND_SEEDS[reason].seed, reason),
);
const BRANDS = [...VISIBLE_BRANDS, ...HIDDEN_BRANDS];
const BRANDS_BY_SLUG = new Map(BRANDS.map((brand) => [brand.slug, brand]));

function brand(slug: string): Brand {
  const found = BRANDS_BY_SLUG.get(slug);
  if (!found) throw new Error(`demo data: unknown brand ${slug}`);
  return found;
}

function hiddenBrandId(reason: HiddenReason): string {
  return brand(slugify(HIDDEN_BRAND_SEEDS[reason].seed.name)).id;
}

// ---------------------------------------------------------------------------------------------
// Channels and affiliate-brand relations

const CHANNEL_TYPES = [
  'Blog',
  'Instagram',
  'YouTube',
  'TikTok',
  'Email',
  'Push Notification',
  'WhiteLabel',
] as const;
type ChannelTypeName = (typeof CHANNEL_TYPES)[number];

interface ChannelSeed {
  key: string;
  userId: string;
  type: ChannelTypeName;
  active: boolean;
  ageDays: number;
}

// prettier-ignore
const CHANNELS: ChannelSeed[] = [
  { key: 'ana-blog', userId: AFFILIATE_ID, type: 'Blog', active: true, ageDays: 400 },
  { key: 'ana-instagram', userId: AFFILIATE_ID, type: 'Instagram', active: true, ageDays: 350 },
  { key: 'ana-youtube', userId: AFFILIATE_ID, type: 'YouTube', active: true, ageDays: 280 },
  // Inactive channels are still listed, with active: false.
  { key: 'ana-tiktok', userId: AFFILIATE_ID, type: 'TikTok', active: false, ageDays: 200 },
  { key: 'ana-email', userId: AFFILIATE_ID, type: 'Email', active: true, ageDays: 120 },
  // WhiteLabel channels are never listed or fetched (contract, Channel).
  { key: 'ana-whitelabel', userId: AFFILIATE_ID, type: 'WhiteLabel', active: true, ageDays: 60 },
  { key: 'ben-blog', userId: SECOND_AFFILIATE_ID, type: 'Blog', active: true, ageDays: 300 },
  { key: 'ben-push', userId: SECOND_AFFILIATE_ID, type: 'Push Notification', active: true, ageDays: 90 },
];

const channelTypeId = (name: ChannelTypeName) => demoId(`channel-type:${name}`);

function channelId(key: string): string {
  if (!CHANNELS.some((channel) => channel.key === key)) {
    throw new Error(`demo data: unknown channel ${key}`);
  }
  return demoId(`channel:${key}`);
}

interface RelationSeed {
  affiliateId: string;
  brand: string;
  /** Negotiated on top of the brand's default: bps for PERCENTAGE brands, minor units for FIXED. */
  bonus: number;
  isFavorite?: boolean;
  /** Keys of the affiliate's channels enrolled in the brand. */
  channels: string[];
}

function relations(affiliateId: string, rows: Omit<RelationSeed, 'affiliateId'>[]): RelationSeed[] {
  return rows.map((row) => ({ affiliateId, ...row }));
}

// prettier-ignore
const AFFILIATE_BRANDS: RelationSeed[] = [
  ...relations(AFFILIATE_ID, [
    { brand: 'northwind-apparel', bonus: 200, isFavorite: true, channels: ['ana-blog', 'ana-instagram'] },
    // The WhiteLabel enrollment must not show among the brand's channels.
    { brand: 'lumen-electronics', bonus: 0, channels: ['ana-youtube', 'ana-whitelabel'] },
    { brand: 'velvet-vine-beauty', bonus: 300, isFavorite: true, channels: ['ana-instagram', 'ana-tiktok'] },
    { brand: 'casa-clara-home', bonus: 100, channels: ['ana-blog'] },
    { brand: 'summit-sports-co', bonus: 0, channels: [] },
    { brand: 'wanderlust-travel', bonus: 500, channels: ['ana-email'] },
    { brand: 'harvest-table', bonus: 150, channels: ['ana-blog', 'ana-email'] },
    { brand: 'paper-lantern-books', bonus: 0, channels: [] },
    { brand: 'blue-horizon-cruises', bonus: 1000, channels: ['ana-email'] },
    { brand: 'pixel-forge', bonus: 250, isFavorite: true, channels: ['ana-youtube', 'ana-blog', 'ana-instagram'] },
    // Every hidden brand too, so a listing that skipped a visibility rule would show it.
    ...HIDDEN_BRANDS.map((hidden) => ({ brand: hidden.slug, bonus: 0, isFavorite: true, channels: ['ana-blog'] })),
  ]),
  ...relations(SECOND_AFFILIATE_ID, [
    { brand: 'lumen-electronics', bonus: 100, channels: ['ben-blog'] },
    { brand: 'harvest-table', bonus: 0, isFavorite: true, channels: ['ben-blog', 'ben-push'] },
    { brand: 'glow-botanica', bonus: 200, isFavorite: true, channels: ['ben-push'] },
    { brand: 'trailhead-outfitters', bonus: 0, channels: [] },
  ]),
];

function relationCommission(relation: RelationSeed) {
  const related = brand(relation.brand);
  return { type: related.commissionType, value: related.commissionValue + relation.bonus };
}

function relatedVisibleBrands(affiliateId: string): Brand[] {
  return AFFILIATE_BRANDS.filter((relation) => relation.affiliateId === affiliateId)
    .map((relation) => brand(relation.brand))
    .filter((related) => !related.hiddenBy);
}

// ---------------------------------------------------------------------------------------------
// Campaigns

const CAMPAIGN_KINDS = [
  { label: 'Url offer', type: 'Offer', offerType: 'Url' },
  { label: 'Spreadsheet offer', type: 'Offer', offerType: 'Spreadsheet' },
  { label: 'GenericCoupon', type: 'GenericCoupon', offerType: null },
  { label: 'PersonalCoupon', type: 'PersonalCoupon', offerType: null },
] as const satisfies readonly { label: string; type: CampaignType; offerType: OfferType | null }[];
type CampaignKind = (typeof CAMPAIGN_KINDS)[number];
const [URL_OFFER, SPREADSHEET_OFFER, GENERIC_COUPON, PERSONAL_COUPON] = CAMPAIGN_KINDS;

const KIND_BLURBS: Record<CampaignKind['label'], string> = {
  'Url offer': 'Tracked link to the landing page.',
  'Spreadsheet offer': 'Product feed delivered as a spreadsheet.',
  GenericCoupon: 'One public code for every shopper.',
  PersonalCoupon: 'Every affiliate gets a code of their own.',
};

/** Campaign status at seeding time (contract, States). */
const PERIODS = ['onTime', 'expired', 'scheduled'] as const;
type Period = (typeof PERIODS)[number];

// 11 themes each: coprime with the brand cycles below, so no brand gets the same name twice.
const OFFER_THEMES = [
  'Spring Sale',
  'Summer Clearance',
  'Autumn Favourites',
  'Winter Warmers',
  'New Arrivals',
  'Weekend Flash Sale',
  'Bestseller Bundles',
  'Members Week',
  'Outlet Event',
  'Gift Guide',
  'Back to School',
];
const COUPON_THEMES = [
  'Welcome Discount',
  'Free Shipping Code',
  'Loyalty Reward',
  'Birthday Treat',
  'App Exclusive',
  'Newsletter Bonus',
  'Bundle Saver',
  'Early Bird Code',
  'VIP Code',
  'Refer a Friend',
  'Holiday Code',
];

interface CampaignSeed {
  id: string;
  name: string;
  theme: string;
  brand: Brand;
  kind: CampaignKind;
  period: Period;
}

function campaignSeed(
  owner: Brand,
  kind: CampaignKind,
  period: Period,
  theme: string,
): CampaignSeed {
  const name = `${owner.name} ${theme}`;
  return { id: demoId(`campaign:${slugify(name)}`), name, theme, brand: owner, kind, period };
}

const AFFILIATE_VISIBLE_BRANDS = relatedVisibleBrands(AFFILIATE_ID);
const OTHER_VISIBLE_BRANDS = VISIBLE_BRANDS.filter((b) => !AFFILIATE_VISIBLE_BRANDS.includes(b));

/**
 * 45 campaigns on visible brands. Kinds cycle fastest, then periods, so each of the 12 kind x
 * period pairs appears 3-4 times; the first 24 sit on the first affiliate's brands (every pair
 * twice there), the rest on the other brands (each at least once).
 */
const VISIBLE_CAMPAIGNS: CampaignSeed[] = Array.from({ length: 45 }, (_, i) => {
  const kind = nth(CAMPAIGN_KINDS, i);
  const period = nth(PERIODS, Math.floor(i / 4));
  const owner = i < 24 ? nth(AFFILIATE_VISIBLE_BRANDS, i) : nth(OTHER_VISIBLE_BRANDS, i);
  const theme = nth(kind.type === 'Offer' ? OFFER_THEMES : COUPON_THEMES, i);
  return campaignSeed(owner, kind, period, theme);
});

// Hidden brands carry running campaigns, so only the visibility rule keeps them out of listings.
const HIDDEN_CAMPAIGNS = HIDDEN_BRANDS.flatMap((hidden) => [
  campaignSeed(hidden, URL_OFFER, 'onTime', 'Spring Sale'),
  campaignSeed(hidden, GENERIC_COUPON, 'onTime', 'Welcome Discount'),
]);

const CAMPAIGNS = [...VISIBLE_CAMPAIGNS, ...HIDDEN_CAMPAIGNS];

/** The first visible campaign of that kind and period on one of the affiliate's brands. */
function findCampaign(
  affiliateId: string,
  kind: CampaignKind,
  period: Period,
  except: CampaignSeed[] = [],
): CampaignSeed {
  const brands = relatedVisibleBrands(affiliateId);
  const found = VISIBLE_CAMPAIGNS.find(
    (c) =>
      c.kind === kind && c.period === period && brands.includes(c.brand) && !except.includes(c),
  );
  if (!found) throw new Error(`demo data: no ${kind.label} ${period} campaign`);
  return found;
}

// Personal coupon codes: one per affiliate, with a recognisable prefix.
const COUPON_PREFIXES = [
  { affiliateId: AFFILIATE_ID, prefix: 'ANA' },
  { affiliateId: SECOND_AFFILIATE_ID, prefix: 'BEN' },
];

function personalCode(campaignId: string, prefix: string): string {
  const suffix = createHash('sha1').update(`${campaignId}:${prefix}`).digest('hex').slice(0, 4);
  return `${prefix}-${suffix.toUpperCase()}`;
}

// ---------------------------------------------------------------------------------------------
// Short URLs

interface ShortUrlSeed {
  affiliateId: string;
  linkType: LinkType;
  owner: Brand;
  campaign: CampaignSeed | null;
  /** Where the link leads, before the tracking parameter is added. */
  target: string;
  dedupeKey: string;
  active: boolean;
  urlCode: string;
}

function linkSeed(fields: Omit<ShortUrlSeed, 'urlCode' | 'active'>, active = true): ShortUrlSeed {
  return { ...fields, active, urlCode: demoUrlCode(`${fields.affiliateId}:${fields.dedupeKey}`) };
}

function brandPageLink(affiliateId: string, slug: string, active = true): ShortUrlSeed {
  const owner = brand(slug);
  const fields = { affiliateId, linkType: 'BrandPage', owner, campaign: null } as const;
  return linkSeed(
    { ...fields, target: owner.websiteUrl, dedupeKey: brandDedupeKey(owner.id) },
    active,
  );
}

function campaignLink(affiliateId: string, campaign: CampaignSeed): ShortUrlSeed {
  return linkSeed({
    affiliateId,
    linkType: campaignLinkType(campaign.kind.type),
    owner: campaign.brand,
    campaign,
    target: `${campaign.brand.websiteUrl}${campaignPath(campaign)}`,
    dedupeKey: campaignDedupeKey(campaign.id),
  });
}

/** A deep link; the dedupe key holds the URL as requested, before the tracking parameter. */
function customLink(affiliateId: string, slug: string, path: string): ShortUrlSeed {
  const owner = brand(slug);
  const target = `${owner.websiteUrl}${path}`;
  const fields = { affiliateId, linkType: 'Custom', owner, campaign: null, target } as const;
  return linkSeed({ ...fields, dedupeKey: customDedupeKey(owner.id, target) });
}

function campaignPath(campaign: CampaignSeed): string {
  return `/${campaign.kind.type === 'Offer' ? 'offers' : 'coupons'}/${slugify(campaign.theme)}`;
}

const LINKED_URL_OFFER = findCampaign(AFFILIATE_ID, URL_OFFER, 'onTime');
const LINKED_SPREADSHEET_OFFER = findCampaign(AFFILIATE_ID, SPREADSHEET_OFFER, 'onTime');

const SHORT_URLS: ShortUrlSeed[] = [
  brandPageLink(AFFILIATE_ID, 'northwind-apparel'),
  // Inactive: listed only with active=false, and /s/{urlCode} answers 404.
  brandPageLink(AFFILIATE_ID, 'velvet-vine-beauty', false),
  campaignLink(AFFILIATE_ID, LINKED_URL_OFFER),
  campaignLink(AFFILIATE_ID, findCampaign(AFFILIATE_ID, URL_OFFER, 'expired')),
  campaignLink(AFFILIATE_ID, LINKED_SPREADSHEET_OFFER),
  campaignLink(AFFILIATE_ID, findCampaign(AFFILIATE_ID, GENERIC_COUPON, 'onTime')),
  campaignLink(AFFILIATE_ID, findCampaign(AFFILIATE_ID, PERSONAL_COUPON, 'onTime')),
  customLink(AFFILIATE_ID, 'casa-clara-home', '/collections/linen'),
  // Ana sells Harvest Table through this link: some of those orders come back with its code.
  campaignLink(AFFILIATE_ID, brandCampaign('harvest-table', GENERIC_COUPON)),
  brandPageLink(SECOND_AFFILIATE_ID, 'glow-botanica'),
  campaignLink(SECOND_AFFILIATE_ID, findCampaign(SECOND_AFFILIATE_ID, URL_OFFER, 'onTime')),
];

function brandCampaign(slug: string, kind: CampaignKind): CampaignSeed {
  const found = VISIBLE_CAMPAIGNS.find((c) => c.kind === kind && c.brand === brand(slug));
  if (!found) throw new Error(`demo data: no ${kind.label} campaign of ${slug}`);
  return found;
}

function shortUrlCode(affiliateId: string, dedupeKey: string): string {
  const found = SHORT_URLS.find((s) => s.affiliateId === affiliateId && s.dedupeKey === dedupeKey);
  if (!found) throw new Error(`demo data: no short URL ${dedupeKey}`);
  return found.urlCode;
}

// ---------------------------------------------------------------------------------------------
// Products

// Comma-separated to keep the table narrow.
const PRODUCT_NAMES = splitValues({
  fashion: 'Linen Shirt, Merino Sweater, Denim Jacket, Leather Belt, Silk Scarf, Canvas Sneakers',
  electronics: 'Wireless Earbuds, USB-C Charger, Smart Speaker, Mechanical Keyboard, 4K Monitor',
  beauty: 'Vitamin C Serum, Hydrating Cream, Matte Lipstick, Clay Mask, Mineral Sunscreen',
  home: 'Ceramic Vase, Linen Bedding Set, Oak Side Table, Scented Candle, Wool Throw',
  sports: 'Trail Running Shoes, Yoga Mat, Insulated Bottle, Cycling Gloves, Running Vest',
  travel: 'Carry-on Suitcase, Packing Cubes, Travel Pillow, Weekender Bag, Passport Wallet',
  food: 'Olive Oil, Single-Origin Coffee, Spice Gift Box, Dark Chocolate, Wildflower Honey',
  books: 'Hardcover Novel, Seasonal Cookbook, City Travel Guide, Notebook Set, Picture Book',
});

/** Each product gets one value per specification of its category. */
// prettier-ignore
const SPECIFICATION_OPTIONS: Record<Category, Record<string, string[]>> = {
  fashion: splitValues({ Material: 'Organic cotton, Linen, Merino wool', Care: 'Machine wash, Hand wash' }),
  electronics: splitValues({ Warranty: '2 years, 3 years', Connectivity: 'Bluetooth 5.3, USB-C, Wi-Fi 6' }),
  beauty: splitValues({ 'Skin type': 'All, Dry, Sensitive, Oily', Vegan: 'Yes, No' }),
  home: splitValues({ Material: 'Oak, Ceramic, Linen, Glass', Dimensions: '20 x 20 cm, 45 x 60 cm' }),
  sports: splitValues({ Material: 'Mesh, Neoprene, Stainless steel', Weight: '120 g, 350 g, 900 g' }),
  travel: splitValues({ Weight: '1.2 kg, 2.8 kg, 3.5 kg', Warranty: '5 years, 10 years' }),
  food: splitValues({ Origin: 'Italy, Spain, Ethiopia, Colombia', 'Net weight': '250 g, 500 g, 1 kg' }),
  books: splitValues({ Language: 'English, German, French', Pages: '96, 240, 384, 512' }),
};

/** Up to three variants per product, in this order. */
// prettier-ignore
const VARIANT_OPTIONS: Record<Category, Record<string, string>[]> = {
  fashion: [{ size: 'S', color: 'black' }, { size: 'M', color: 'black' }, { size: 'L', color: 'navy' }],
  electronics: [{ color: 'black' }, { color: 'white' }, { color: 'silver' }],
  beauty: [{ volume: '30 ml' }, { volume: '50 ml' }, { volume: '100 ml' }],
  home: [{ color: 'sand' }, { color: 'sage' }, { color: 'terracotta' }],
  sports: [{ size: 'M', color: 'red' }, { size: 'L', color: 'red' }, { size: 'XL', color: 'blue' }],
  travel: [{ size: 'cabin' }, { size: 'medium' }, { size: 'large' }],
  food: [{ weight: '250 g' }, { weight: '500 g' }, { weight: '1 kg' }],
  books: [{ format: 'hardcover' }, { format: 'paperback' }, { format: 'ebook' }],
};

interface ProductSeed {
  id: string;
  owner: Brand;
  category: Category;
  name: string;
  sku: string;
  priceMinor: number;
  salePriceMinor: number | null;
  stock: number;
}

/** 40 products on visible brands (every brand has one, some two) plus one per hidden brand. */
function buildProductSeeds(): ProductSeed[] {
  const namesUsed = new Map<Category, number>();
  const place = (owner: Brand, i: number): ProductSeed => {
    // A brand's second product comes from its second category, when it has one.
    const category = nth(owner.categories, Math.floor(i / VISIBLE_BRANDS.length));
    const used = namesUsed.get(category) ?? 0;
    namesUsed.set(category, used + 1);
    const sku = `${owner.slug.slice(0, 3).toUpperCase()}-${1001 + i}`;
    const id = demoId(`product:${owner.slug}:${sku}`);
    const rng = rngFor(id);
    const priceMinor = int(rng, 6, 500) * 100 - 1; // 5.99 .. 499.99
    const isOnSale = rng() < 0.35;
    // Sold-out products only on visible brands: hidden ones must look orderable.
    const isSoldOut = !owner.hiddenBy && i % 6 === 2;
    return {
      id,
      owner,
      category,
      name: nth(PRODUCT_NAMES[category], used),
      sku,
      priceMinor,
      salePriceMinor: isOnSale ? Math.round((priceMinor * 0.8) / 100) * 100 - 1 : null,
      stock: isSoldOut ? 0 : int(rng, 1, 200),
    };
  };
  return [
    ...Array.from({ length: 40 }, (_, i) => place(nth(VISIBLE_BRANDS, i), i)),
    ...HIDDEN_BRANDS.map((hidden, j) => place(hidden, 40 + j)),
  ];
}

const PRODUCTS = buildProductSeeds();

// ---------------------------------------------------------------------------------------------
// Orders

const ORDER_HISTORY_DAYS = 198;

const ORDER_PLANS = [
  { affiliateId: AFFILIATE_ID, key: 'ana', count: 30 },
  { affiliateId: SECOND_AFFILIATE_ID, key: 'ben', count: 8 },
];

function orderStatus(n: number, ageDays: number): OrderStatus {
  if (n % 7 === 4) return 'REJECTED'; // returned or cancelled sales, at any age
  if (ageDays < 20) return 'PENDING';
  if (ageDays < 60) return 'APPROVED';
  return 'PAID';
}

// ---------------------------------------------------------------------------------------------
// The fixed identities tests and examples use

export const DEMO = {
  users: { affiliate: AFFILIATE_ID, secondAffiliate: SECOND_AFFILIATE_ID, partner: PARTNER_ID },
  /** Raw keys, full scopes of their type. */
  keys: { legacyAffiliate: LEGACY_AFFILIATE_KEY, affiliate: AFFILIATE_KEY, partner: PARTNER_KEY },
  brands: {
    visibleCount: VISIBLE_BRANDS.length,
    /** A favorite of the first affiliate, with a BrandPage link. */
    favorite: brand('northwind-apparel').id,
    /** Related to both affiliates, with orders from both. */
    shared: brand('lumen-electronics').id,
    /** Visible, related to neither affiliate. */
    unrelated: brand('arcade-audio').id,
  },
  /** Otherwise visible-looking brands, each breaking one visibility rule. */
  hiddenBrands: {
    onboardingPending: hiddenBrandId('onboardingPending'),
    approvalPending: hiddenBrandId('approvalPending'),
    approvalRejected: hiddenBrandId('approvalRejected'),
    inactive: hiddenBrandId('inactive'),
    invisible: hiddenBrandId('invisible'),
  },
  channels: {
    affiliateBlog: channelId('ana-blog'),
    affiliateInactive: channelId('ana-tiktok'),
    affiliateWhiteLabel: channelId('ana-whitelabel'),
    secondAffiliateBlog: channelId('ben-blog'),
  },
  campaigns: {
    /** Running offers of the first affiliate's brands that have no link for that affiliate yet. */
    urlOfferWithoutLink: findCampaign(AFFILIATE_ID, URL_OFFER, 'onTime', [LINKED_URL_OFFER]).id,
    spreadsheetOfferWithoutLink: findCampaign(AFFILIATE_ID, SPREADSHEET_OFFER, 'onTime', [
      LINKED_SPREADSHEET_OFFER,
    ]).id,
    /** Running offers that already have the first affiliate's link. */
    linkedUrlOffer: LINKED_URL_OFFER.id,
    linkedSpreadsheetOffer: LINKED_SPREADSHEET_OFFER.id,
    /** A running PersonalCoupon with codes ANA-xxxx and BEN-xxxx. */
    personalCoupon: findCampaign(AFFILIATE_ID, PERSONAL_COUPON, 'onTime').id,
  },
  /** The first affiliate's short link codes. */
  shortUrlCodes: {
    brandPage: shortUrlCode(AFFILIATE_ID, `brand:${brand('northwind-apparel').id}`),
    inactive: shortUrlCode(AFFILIATE_ID, `brand:${brand('velvet-vine-beauty').id}`),
    urlOffer: shortUrlCode(AFFILIATE_ID, `campaign:${LINKED_URL_OFFER.id}`),
  },
} as const;

// ---------------------------------------------------------------------------------------------
// Rows (the only part that depends on `now`)

function apiKeyRow(key: (typeof API_KEYS)[number], now: Date): Prisma.ApiKeyCreateManyInput {
  const parsed = parseApiKey(key.apiKey);
  if (!parsed) throw new Error(`demo data: key ${key.slug} does not parse`);
  return {
    id: demoId(`api-key:${key.slug}`),
    name: `Demo ${key.slug} key`,
    type: key.type,
    version: parsed.version,
    env: parsed.version === 'v2' ? parsed.env : null,
    prefix: parsed.version === 'v2' ? parsed.prefix : null,
    // v2: SHA-256 of the secret (found by prefix); v1: SHA-256 of the whole key (keyFormat.ts).
    secretHash: sha256Hex(parsed.version === 'v2' ? parsed.secret : parsed.key),
    scopes: [...SCOPES_BY_KEY_TYPE[key.type]],
    ownerId: key.ownerId,
    createdAt: daysBefore(now, 90),
  };
}

function organizationRow(owner: Brand, now: Date): Prisma.OrganizationCreateManyInput {
  const rng = rngFor(`organization-row:${owner.slug}`);
  // Hidden brands are the newest: a listing that forgot a visibility rule would show them first.
  const ageDays = owner.hiddenBy
    ? 1 + HIDDEN_BRANDS.indexOf(owner) * 0.5
    : 6 + VISIBLE_BRANDS.indexOf(owner) * 15 + rng() * 10;
  const createdAt = daysBefore(now, ageDays);
  return {
    id: owner.id,
    name: owner.name,
    slug: owner.slug,
    description: `${owner.name}: ${CATEGORY_BLURBS[nth(owner.categories, 0)]}`,
    logoUrl: `${owner.websiteUrl}/logo.png`,
    websiteUrl: owner.websiteUrl,
    onboardingStatus: 'COMPLETED',
    approvalStatus: 'APPROVED',
    isActive: true,
    isVisible: true,
    isExclusive: owner.isExclusive ?? false,
    isHighlight: owner.isHighlight ?? false,
    isPublic: owner.isPublic ?? true,
    ...(owner.hiddenBy ? HIDDEN_BRAND_SEEDS[owner.hiddenBy].breaks : {}),
    categories: [...owner.categories],
    defaultCommissionType: owner.commissionType,
    defaultCommissionValue: owner.commissionValue,
    createdAt,
    updatedAt: createdAt,
  };
}

function affiliateBrandRow(
  relation: RelationSeed,
  now: Date,
): Prisma.AffiliateBrandCreateManyInput {
  const commission = relationCommission(relation);
  const rng = rngFor(`relation:${relation.affiliateId}:${relation.brand}`);
  return {
    affiliateId: relation.affiliateId,
    organizationId: brand(relation.brand).id,
    commissionType: commission.type,
    commissionValue: commission.value,
    isFavorite: relation.isFavorite ?? false,
    createdAt: daysBefore(now, int(rng, 5, 300)),
  };
}

function enrollmentRows(
  relation: RelationSeed,
  now: Date,
): Prisma.BrandChannelEnrollmentCreateManyInput[] {
  return relation.channels.map((key, i) => ({
    organizationId: brand(relation.brand).id,
    channelId: channelId(key),
    createdAt: daysBefore(now, 4 + i),
  }));
}

function periodDates(period: Period, now: Date, rng: Rng): { startAt: Date; endAt: Date } {
  // Wide margins around `now`, so statuses stay as seeded for weeks on a persistent database.
  if (period === 'onTime') {
    return {
      startAt: daysBefore(now, int(rng, 10, 180)),
      endAt: daysAfter(now, int(rng, 30, 180)),
    };
  }
  if (period === 'expired') {
    const endAt = daysBefore(now, int(rng, 1, 120));
    return { startAt: daysBefore(endAt, int(rng, 14, 90)), endAt };
  }
  const startAt = daysAfter(now, int(rng, 20, 90));
  return { startAt, endAt: daysAfter(startAt, int(rng, 14, 90)) };
}

function campaignRow(campaign: CampaignSeed, now: Date): Prisma.CampaignCreateManyInput {
  const rng = rngFor(campaign.id);
  const { startAt, endAt } = periodDates(campaign.period, now, rng);
  const { brand: owner, kind } = campaign;
  const otherCategories = CATEGORIES.filter((c) => !owner.categories.includes(c));
  const extraCategory = rng() < 0.3 ? pick(rng, otherCategories) : null;
  const isFixed = owner.commissionType === 'FIXED';
  const codeStem = owner.slug.replace(/-.*/, '').toUpperCase(); // NORTHWIND15
  return {
    id: campaign.id,
    organizationId: owner.id,
    name: campaign.name,
    description: `${campaign.theme} at ${owner.name}. ${KIND_BLURBS[kind.label]}`,
    type: kind.type,
    offerType: kind.offerType,
    code: kind.type === 'GenericCoupon' ? `${codeStem}${int(rng, 2, 6) * 5}` : null,
    url: `${owner.websiteUrl}${campaignPath(campaign)}`,
    categories: extraCategory ? [...owner.categories, extraCategory] : [...owner.categories],
    startAt,
    endAt,
    isHighlight: rng() < 0.3,
    commissionType: owner.commissionType,
    commissionValue: isFixed ? int(rng, 5, 50) * 100 : int(rng, 6, 40) * 50,
    // Created some days before it started (or, when scheduled, before today).
    createdAt: daysBefore(new Date(Math.min(startAt.getTime(), now.getTime())), 1 + rng() * 30),
  };
}

function personalCouponRows(now: Date): Prisma.PersonalCouponCodeCreateManyInput[] {
  return VISIBLE_CAMPAIGNS.filter((c) => c.kind === PERSONAL_COUPON).flatMap((campaign) =>
    COUPON_PREFIXES.map(({ affiliateId, prefix }) => ({
      campaignId: campaign.id,
      affiliateId,
      code: personalCode(campaign.id, prefix),
      createdAt: daysBefore(now, 2),
    })),
  );
}

function productRow(product: ProductSeed, index: number, now: Date): Prisma.ProductCreateManyInput {
  const rng = rngFor(`product-row:${product.id}`);
  const imageBase = `${product.owner.websiteUrl}/images/${product.sku.toLowerCase()}`;
  const options = Object.entries(SPECIFICATION_OPTIONS[product.category]);
  const specifications = options.map(([name, values]) => ({ name, value: pick(rng, values) }));
  return {
    id: product.id,
    organizationId: product.owner.id,
    name: product.name,
    description: `${product.name} from ${product.owner.name}.`,
    sku: product.sku,
    url: `${product.owner.websiteUrl}/products/${slugify(product.name)}`,
    priceMinor: product.priceMinor,
    salePriceMinor: product.salePriceMinor,
    currency: 'EUR',
    stock: product.stock,
    available: product.stock > 0,
    images: Array.from({ length: int(rng, 1, 3) }, (_, n) => `${imageBase}-${n + 1}.jpg`),
    specifications,
    categories: [product.category],
    createdAt: daysBefore(now, 3 + index * 7 + rng() * 5),
  };
}

function variantRows(product: ProductSeed): Prisma.ProductVariantCreateManyInput[] {
  const rng = rngFor(`variants:${product.id}`);
  return VARIANT_OPTIONS[product.category].slice(0, int(rng, 0, 3)).map((attributes, position) => ({
    id: demoId(`variant:${product.id}:${position}`),
    productId: product.id,
    sku: `${product.sku}-${position + 1}`,
    name: Object.values(attributes).join(' / '),
    // Larger variants cost a little more.
    priceMinor: product.priceMinor + position * Math.round(product.priceMinor * 0.1),
    stock: product.stock === 0 ? 0 : int(rng, 0, 80),
    attributes,
    position,
  }));
}

function shortUrlRow(link: ShortUrlSeed, index: number, now: Date): Prisma.ShortUrlCreateManyInput {
  const rng = rngFor(`short-url:${link.urlCode}`);
  return {
    id: demoId(`short-url:${link.affiliateId}:${link.dedupeKey}`),
    urlCode: link.urlCode,
    affiliateId: link.affiliateId,
    organizationId: link.owner.id,
    campaignId: link.campaign?.id ?? null,
    linkType: link.linkType,
    originalUrl: trackingUrl(link.target, link.affiliateId),
    dedupeKey: link.dedupeKey,
    active: link.active,
    clickCount: link.active ? int(rng, 0, 900) : 12,
    createdAt: daysBefore(now, 3 + index * 11 + rng() * 5),
  };
}

/**
 * The currency of an affiliate's n-th order: mostly euros, some dollars, yen and Bahraini dinars,
 * so every surface shows amounts with 2, 0 and 3 decimals.
 */
function orderCurrency(n: number): string {
  if (n % 6 === 5) return 'USD';
  if (n % 10 === 2) return 'JPY';
  if (n % 10 === 8) return 'BHD';
  return 'EUR';
}

/**
 * Minor units of each currency a euro cent of the catalog's prices is sold for (160 yen and 0.410
 * dinars to the euro); dollars at par.
 */
const MINOR_PER_EURO_CENT: Record<string, number> = { EUR: 1, USD: 1, JPY: 1.6, BHD: 4.1 };

function orderItemRows(
  orderId: string,
  currency: string,
  rateBps: number,
  rng: Rng,
  products: ProductSeed[],
) {
  return Array.from({ length: int(rng, 1, 3) }, (_, position) => {
    const product = pick(rng, products);
    const quantity = int(rng, 1, 3);
    const unitPriceMinor = Math.round(
      (product.salePriceMinor ?? product.priceMinor) * MINOR_PER_EURO_CENT[currency]!,
    );
    const totalMinor = quantity * unitPriceMinor;
    return {
      id: demoId(`order-item:${orderId}:${position}`),
      orderId,
      productId: product.id,
      sku: product.sku,
      name: product.name,
      quantity,
      unitPriceMinor,
      totalMinor,
      commissionRateBps: rateBps,
      commissionValueMinor: Math.round((totalMinor * rateBps) / 10_000),
      position,
    } satisfies Prisma.OrderItemCreateManyInput;
  });
}

/** What the demo affiliates tag their links' clicks with in sub1 (GET /s/{urlCode}?sub1=…). */
const DEMO_SUB1_SOURCES = ['newsletter', 'blog-review', 'instagram'];

/**
 * The code an order of the affiliate's was placed with, as the brand reports it (docs/integrating.md,
 * "Attribution by link and by code"): every fifth order its own PersonalCoupon code of the brand,
 * with or without a click on its link; every third other order through a link the brand's
 * GenericCoupon code, where the brand has one; else none.
 */
function demoCouponCode(
  affiliateId: string,
  owner: Brand,
  n: number,
  throughLink: boolean,
  now: Date,
): string | null {
  const prefix = COUPON_PREFIXES.find((c) => c.affiliateId === affiliateId)?.prefix;
  const ofBrand = (kind: CampaignKind) =>
    VISIBLE_CAMPAIGNS.find((c) => c.kind === kind && c.brand.id === owner.id);
  const personal = ofBrand(PERSONAL_COUPON);
  if (n % 5 === 2 && prefix && personal) return personalCode(personal.id, prefix);
  const generic = ofBrand(GENERIC_COUPON);
  if (n % 3 === 0 && throughLink && generic) return campaignRow(generic, now).code ?? null;
  return null;
}

function orderRows(now: Date) {
  const orders: Prisma.OrderCreateManyInput[] = [];
  const items: Prisma.OrderItemCreateManyInput[] = [];
  /** Each order's status once the demo's payouts are paid. */
  const plannedStatus = new Map<string, OrderStatus>();
  /** Orders whose amounts the back office corrects after recording them. */
  const corrections = new Map<string, OrderAmounts>();
  let sequence = 100;
  for (const plan of ORDER_PLANS) {
    // Orders record a percentage rate, so they go to visible brands paying this affiliate a share.
    const relations = AFFILIATE_BRANDS.filter(
      (r) =>
        r.affiliateId === plan.affiliateId &&
        !brand(r.brand).hiddenBy &&
        relationCommission(r).type === 'PERCENTAGE',
    );
    const channels = CHANNELS.filter(
      (c) => c.userId === plan.affiliateId && c.active && c.type !== 'WhiteLabel',
    );
    const span = ORDER_HISTORY_DAYS / plan.count;
    for (let n = 0; n < plan.count; n += 1) {
      sequence += 1;
      const id = demoId(`order:${plan.key}:${n}`);
      const rng = rngFor(id);
      const relation = nth(relations, n * 3);
      const owner = brand(relation.brand);
      const rateBps = relationCommission(relation).value;
      const ageDays = 1 + n * span + rng() * span * 0.5;
      const orderedAt = daysBefore(now, ageDays);
      const status = orderStatus(n, ageDays);
      plannedStatus.set(id, status);
      int(rng, 3, 20); // a draw the later rows were generated after: kept, so they stay as they are
      const products = PRODUCTS.filter((p) => p.owner === owner);
      const currency = orderCurrency(n);
      const orderItems = orderItemRows(id, currency, rateBps, rng, products);
      const link = SHORT_URLS.find((s) => s.affiliateId === plan.affiliateId && s.owner === owner);
      const throughLink = link !== undefined && n % 2 === 1;
      const amounts = {
        transactionValueMinor: orderItems.reduce((sum, item) => sum + item.totalMinor, 0),
        earningsMinor: orderItems.reduce((sum, item) => sum + item.commissionValueMinor, 0),
      };
      // Some sales are partly returned within the lock period: a fifth of the amounts goes.
      if (n % 8 === 3 && status !== 'REJECTED') corrections.set(id, partlyReturned(amounts));
      orders.push({
        id,
        orderNumber: `ORD-${orderedAt.getUTCFullYear()}-${String(sequence).padStart(6, '0')}`,
        affiliateId: plan.affiliateId,
        organizationId: owner.id,
        // The first affiliate's paid orders are paid by her payouts (demoPayouts): written
        // approved, then made PAID by the database when their payout is.
        status: status === 'PAID' && plan.affiliateId === AFFILIATE_ID ? 'APPROVED' : status,
        // A rejection carries its reason (the database requires one).
        statusReason: status === 'REJECTED' ? (n % 2 ? 'RETURNED' : 'CANCELLED') : null,
        currency,
        transactionValueMinor: amounts.transactionValueMinor,
        commissionRateBps: rateBps,
        earningsMinor: amounts.earningsMinor,
        shortUrlCode: throughLink ? link.urlCode : null,
        couponCode: demoCouponCode(plan.affiliateId, owner, n, throughLink, now),
        channelId: n % 3 === 0 ? channelId(nth(channels, n / 3).key) : null,
        // Most orders through a link carry the tags of its click, as the brand reported them.
        sub1: throughLink && n % 7 !== 0 ? nth(DEMO_SUB1_SOURCES, n) : null,
        sub2: throughLink && n % 4 === 1 ? 'hero' : null,
        orderedAt,
      });
      items.push(...orderItems);
    }
  }
  return { orders, items, plannedStatus, corrections };
}

interface OrderAmounts {
  transactionValueMinor: number;
  earningsMinor: number;
}

const partlyReturned = (amounts: OrderAmounts): OrderAmounts => ({
  transactionValueMinor: Math.round(amounts.transactionValueMinor * 0.8),
  earningsMinor: Math.round(amounts.earningsMinor * 0.8),
});

/**
 * The back office's corrections, as it writes them: the database keeps the amounts first recorded
 * and writes an ADJUSTED event. In the transaction that records the orders (an order recorded past
 * its lock period locks when that transaction ends), and only of orders still at those amounts: a
 * second run changes nothing.
 */
function demoCorrections(
  prisma: PrismaClient,
  orders: Prisma.OrderCreateManyInput[],
  corrections: Map<string, OrderAmounts>,
) {
  return orders.flatMap((order) => {
    const corrected = corrections.get(order.id!);
    if (!corrected) return [];
    return prisma.order.updateMany({
      where: {
        id: order.id!,
        lockedAt: null,
        transactionValueMinor: order.transactionValueMinor,
        earningsMinor: order.earningsMinor,
      },
      data: {
        ...corrected,
        statusReason: 'AMOUNT_CORRECTED',
        statusNote: 'A fifth of the order was returned',
      },
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Payouts

interface DemoPayout {
  id: string;
  currency: string;
  status: 'SCHEDULED' | 'PROCESSING' | 'PAID' | 'FAILED' | 'CANCELLED';
  periodStart: Date;
  periodEnd: Date;
  scheduledAt: Date;
  paidAt: Date | null;
  reference: string;
  items: { orderId: string; amountMinor: number }[];
}

const monthStart = (date: Date, months = 0) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));

/**
 * The first affiliate's payouts: one PAID per currency and month of her paid orders (scheduled
 * five days after the month, paid five days later); of her approved orders, newest first, one
 * in a SCHEDULED payout, one PROCESSING, one whose payout FAILED and one whose payout was
 * CANCELLED (those two available again).
 */
function demoPayouts(
  orders: Prisma.OrderCreateManyInput[],
  plannedStatus: Map<string, OrderStatus>,
  corrections: Map<string, OrderAmounts>,
  now: Date,
): DemoPayout[] {
  const earningsOf = (order: Prisma.OrderCreateManyInput) =>
    corrections.get(order.id!)?.earningsMinor ?? order.earningsMinor;
  const hers = orders.filter((order) => order.affiliateId === AFFILIATE_ID);
  const payouts: DemoPayout[] = [];
  const paidGroups = new Map<string, Prisma.OrderCreateManyInput[]>();
  for (const order of hers) {
    if (plannedStatus.get(order.id!) !== 'PAID') continue;
    const month = monthStart(new Date(order.orderedAt));
    const key = `${order.currency}:${month.toISOString().slice(0, 7)}`;
    paidGroups.set(key, [...(paidGroups.get(key) ?? []), order]);
  }
  for (const [key, group] of [...paidGroups].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [currency, month] = key.split(':') as [string, string];
    const periodStart = new Date(`${month}-01T00:00:00Z`);
    const periodEnd = monthStart(periodStart, 1);
    payouts.push({
      id: demoId(`payout:${key}`),
      currency,
      status: 'PAID',
      periodStart,
      periodEnd,
      scheduledAt: new Date(periodEnd.getTime() + 5 * 86_400_000),
      paidAt: new Date(periodEnd.getTime() + 10 * 86_400_000),
      reference: `PO-${month}-${currency}`,
      items: group.map((order) => ({ orderId: order.id!, amountMinor: earningsOf(order) })),
    });
  }
  const approved = hers
    .filter((order) => order.status === 'APPROVED')
    .filter((order) => plannedStatus.get(order.id!) === 'APPROVED')
    // Past the default lock period: only locked orders are paid.
    .filter((order) => new Date(order.orderedAt) < daysBefore(now, 30))
    .sort((a, b) => new Date(b.orderedAt).getTime() - new Date(a.orderedAt).getTime());
  const open = ['SCHEDULED', 'PROCESSING', 'FAILED', 'CANCELLED'] as const;
  approved.slice(0, open.length).forEach((order, i) => {
    const periodStart = monthStart(new Date(order.orderedAt));
    payouts.push({
      id: demoId(`payout:open:${open[i]}`),
      currency: order.currency,
      status: open[i]!,
      periodStart,
      periodEnd: monthStart(periodStart, 1),
      scheduledAt: daysBefore(now, 1 + i),
      paidAt: null,
      reference: `PO-OPEN-${i + 1}`,
      items: [{ orderId: order.id!, amountMinor: earningsOf(order) }],
    });
  });
  return payouts;
}

/**
 * Writes the payouts as the back office does: each with its items in one transaction, then its
 * status (PAID makes its orders PAID). Once the first affiliate has payouts, a run adds none.
 */
async function seedDemoPayouts(prisma: PrismaClient, payouts: DemoPayout[]): Promise<void> {
  if (await prisma.payout.count({ where: { affiliateId: AFFILIATE_ID } })) return;
  // The lock pass, as the orders module's worker runs it: orders recorded past their lock date
  // lock now, and only locked orders are paid.
  await prisma.$queryRaw`SELECT lock_due_orders(100000)`;
  for (const payout of payouts) {
    const { items, status, paidAt, ...columns } = payout;
    const amountMinor = items.reduce((sum, item) => sum + item.amountMinor, 0);
    await prisma.$transaction([
      prisma.payout.create({
        data: {
          ...columns,
          affiliateId: AFFILIATE_ID,
          amountMinor: BigInt(amountMinor),
          method: 'BANK_TRANSFER',
        },
      }),
      prisma.payoutItem.createMany({
        data: items.map((item) => ({ payoutId: payout.id, ...item })),
      }),
    ]);
    if (status !== 'SCHEDULED') {
      // A failed payment says why, as the database asks.
      const failureReason = status === 'FAILED' ? 'the bank returned the transfer' : null;
      await prisma.payout.update({
        where: { id: payout.id },
        data: { status, paidAt, failureReason },
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The ledger beside the orders

/**
 * The network's payout terms per currency: the least a payout pays (minor units) and its day of
 * the month. Low enough that the demo's available money is paid on the next payout.
 */
const DEMO_PAYOUT_TERMS = [
  { currency: 'EUR', minimumMinor: 2_000, payoutDay: 15 },
  { currency: 'USD', minimumMinor: 2_000, payoutDay: 15 },
  { currency: 'JPY', minimumMinor: 3_000, payoutDay: 15 },
  { currency: 'BHD', minimumMinor: 500, payoutDay: 15 },
];

/**
 * The first affiliate's ledger beside her orders, as the back office writes it: a bonus, pay per
 * click, a fee in dinars (three decimals), a return after payment clawed back from her newest paid
 * euro order, and her newest pending order held for review. Once she has entries, a run adds none.
 */
async function seedDemoLedger(prisma: PrismaClient, now: Date): Promise<void> {
  await prisma.payoutTerms.createMany({
    data: DEMO_PAYOUT_TERMS.map((terms) => ({ id: demoId(`terms:${terms.currency}`), ...terms })),
    skipDuplicates: true,
  });
  if (await prisma.earning.count({ where: { affiliateId: AFFILIATE_ID } })) return;
  const newest = (where: Prisma.OrderWhereInput) =>
    prisma.order.findFirst({
      where: { affiliateId: AFFILIATE_ID, ...where },
      orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
      select: { id: true, earningsMinor: true },
    });
  const paid = await newest({ status: 'PAID', currency: 'EUR' });
  const pending = await newest({ status: 'PENDING' });
  const entry = (name: string, days: number) => ({
    id: demoId(`earning:${name}`),
    affiliateId: AFFILIATE_ID,
    earnedAt: daysBefore(now, days),
  });
  await prisma.earning.createMany({
    data: [
      {
        ...entry('bonus', 20),
        kind: 'BONUS',
        currency: 'EUR',
        amountMinor: 2_500,
        reason: 'Autumn launch bonus: 25 orders in October',
      },
      {
        ...entry('cpc', 9),
        kind: 'CPC',
        currency: 'USD',
        amountMinor: 480,
        reason: 'Pay per click: 240 clicks at 0.02 USD',
      },
      {
        ...entry('fee', 6),
        kind: 'DEBIT',
        currency: 'BHD',
        amountMinor: -1_500,
        reason: 'Chargeback fee',
      },
      ...(paid
        ? [
            {
              ...entry('clawback', 2),
              kind: 'CLAWBACK' as const,
              currency: 'EUR',
              orderId: paid.id,
              amountMinor: -Math.ceil(paid.earningsMinor / 2),
              reason: 'Half of the order returned after payment',
            },
          ]
        : []),
    ],
  });
  if (pending) {
    await prisma.order.update({
      where: { id: pending.id },
      data: { heldReason: 'REVIEW', heldNote: 'An unusually large basket: the brand checks it' },
    });
  }
}

/** Refuses a duplicate key: skipDuplicates would otherwise drop the second row silently. */
function assertUnique(label: string, values: string[]): void {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) throw new Error(`demo data: duplicate ${label} ${value}`);
    seen.add(value);
  }
}

function buildDemoRows(now: Date) {
  const { orders, items, plannedStatus, corrections } = orderRows(now);
  const rows = {
    users: USERS.map((user) => ({ ...user, createdAt: daysBefore(now, 420) })),
    apiKeys: API_KEYS.map((key) => apiKeyRow(key, now)),
    organizations: BRANDS.map((owner) => organizationRow(owner, now)),
    channelTypes: CHANNEL_TYPES.map((name) => ({
      id: channelTypeId(name),
      name,
      isWhiteLabel: name === 'WhiteLabel',
    })),
    channels: CHANNELS.map((channel) => ({
      id: channelId(channel.key),
      userId: channel.userId,
      typeId: channelTypeId(channel.type),
      active: channel.active,
      createdAt: daysBefore(now, channel.ageDays),
    })),
    affiliateBrands: AFFILIATE_BRANDS.map((relation) => affiliateBrandRow(relation, now)),
    enrollments: AFFILIATE_BRANDS.flatMap((relation) => enrollmentRows(relation, now)),
    campaigns: CAMPAIGNS.map((campaign) => campaignRow(campaign, now)),
    personalCouponCodes: personalCouponRows(now),
    products: PRODUCTS.map((product, i) => productRow(product, i, now)),
    productVariants: PRODUCTS.flatMap(variantRows),
    shortUrls: SHORT_URLS.map((link, i) => shortUrlRow(link, i, now)),
    orders,
    orderItems: items,
    corrections,
    payouts: demoPayouts(orders, plannedStatus, corrections, now),
  };
  const uniqueKeys = {
    'organization slug': rows.organizations.map((o) => o.slug),
    'campaign id': CAMPAIGNS.map((c) => c.id),
    'product id': PRODUCTS.map((p) => p.id),
    'url code': SHORT_URLS.map((link) => link.urlCode),
    'order number': orders.map((o) => o.orderNumber),
  };
  for (const [label, values] of Object.entries(uniqueKeys)) assertUnique(label, values);
  return rows;
}

/**
 * Demo data never reaches production: its API keys are published (README, GraphiQL, this file), so
 * whoever reads them could use them there. Every way of loading it asks this first.
 */
/** The refusal of the demo data in production: what to do instead, nothing more to show. */
export class DemoDataRefused extends Error {}

export function refuseDemoDataInProduction(isProduction = config.isProduction): void {
  if (isProduction) {
    throw new DemoDataRefused(
      'The demo data is never loaded with NODE_ENV=production: its API keys are public. ' +
        'Seed a development or test installation instead.',
    );
  }
}

/** Writes the demo rows; a second run (any `now`) finds them all present and adds nothing. */
export async function seedDemoData(prisma: PrismaClient, now = new Date()): Promise<void> {
  refuseDemoDataInProduction();
  const rows = buildDemoRows(now);
  // Parents before children, in one transaction: a failed run leaves nothing half-written.
  await prisma.$transaction([
    prisma.user.createMany({ data: rows.users, skipDuplicates: true }),
    prisma.apiKey.createMany({ data: rows.apiKeys, skipDuplicates: true }),
    prisma.organization.createMany({ data: rows.organizations, skipDuplicates: true }),
    prisma.channelType.createMany({ data: rows.channelTypes, skipDuplicates: true }),
    prisma.channel.createMany({ data: rows.channels, skipDuplicates: true }),
    prisma.affiliateBrand.createMany({ data: rows.affiliateBrands, skipDuplicates: true }),
    prisma.brandChannelEnrollment.createMany({ data: rows.enrollments, skipDuplicates: true }),
    prisma.campaign.createMany({ data: rows.campaigns, skipDuplicates: true }),
    prisma.personalCouponCode.createMany({ data: rows.personalCouponCodes, skipDuplicates: true }),
    prisma.product.createMany({ data: rows.products, skipDuplicates: true }),
    prisma.productVariant.createMany({ data: rows.productVariants, skipDuplicates: true }),
    prisma.shortUrl.createMany({ data: rows.shortUrls, skipDuplicates: true }),
    prisma.order.createMany({ data: rows.orders, skipDuplicates: true }),
    prisma.orderItem.createMany({ data: rows.orderItems, skipDuplicates: true }),
    ...demoCorrections(prisma, rows.orders, rows.corrections),
    ...demoLockDates(prisma, rows.orders),
  ]);
  await seedDemoPayouts(prisma, rows.payouts);
  await seedDemoLedger(prisma, now);
}

/**
 * The demo's orders lock as if each was recorded when it was placed: its brand's lock period after
 * it, so the history locked over the past months and the newest orders lock over the coming days.
 * (Recorded today, every past order would lock at once: the database keeps an order recorded late
 * open until then, and the lock date it sets no writer moves; the seed alone steps past that rule.)
 */
function demoLockDates(prisma: PrismaClient, orders: Prisma.OrderCreateManyInput[]) {
  const ids = Prisma.join(orders.map((order) => Prisma.sql`${order.id!}::uuid`));
  return [
    prisma.$executeRaw`ALTER TABLE "Order" DISABLE TRIGGER "Order_20_lifecycle_update"`,
    prisma.$executeRaw`
      UPDATE "Order" o SET "locksAt" = o."orderedAt" + make_interval(days => b."orderLockDays")
      FROM "Organization" b
      WHERE b."id" = o."organizationId" AND o."id" IN (${ids}) AND o."lockedAt" IS NULL
        AND o."locksAt" <> o."orderedAt" + make_interval(days => b."orderLockDays")`,
    prisma.$executeRaw`ALTER TABLE "Order" ENABLE TRIGGER "Order_20_lifecycle_update"`,
    prisma.$executeRaw`
      UPDATE "OrderEvent" e SET "locksAt" = o."locksAt" FROM "Order" o
      WHERE o."id" = e."orderId" AND o."id" IN (${ids}) AND e."locksAt" <> o."locksAt"`,
  ];
}
