// What the peer and the limit reference servers answer for GET /affiliate/campaigns and
// GET /affiliate/orders: the page rules, the key check and the JSON, written apart from the
// service (nothing from src/) as a team writing these two routes by hand would. The harness
// compares every reference body with the service's byte for byte before it measures, so a rule
// that drifts from the service's shows up as a refused reference, never as a wrong measurement.
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

export const CAMPAIGNS_PATH = '/affiliate/campaigns';
export const ORDERS_PATH = '/affiliate/orders';

/** The routes both references serve, with their page rules (contract, Limits). */
export const PAGE_RULES = {
  [CAMPAIGNS_PATH]: { defaultLimit: 10, maxLimit: 20 },
  [ORDERS_PATH]: { defaultLimit: 10, maxLimit: 100 },
} as const;

const SCOPES = { [CAMPAIGNS_PATH]: 'campaigns:read', [ORDERS_PATH]: 'orders:read' } as const;

export type ReferencePath = keyof typeof PAGE_RULES;

export interface Page {
  page: number;
  limit: number;
  skip: number;
}

const POSITIVE_INT = /^[1-9]\d{0,8}$/;

/** `page` and `limit` of a query (limit clamped to the route's maximum); null: answer 400. */
export function pageOf(path: ReferencePath, page: unknown, limit: unknown): Page | null {
  const rule = PAGE_RULES[path];
  const read = (raw: unknown, fallback: number) =>
    raw === undefined ? fallback : typeof raw === 'string' && POSITIVE_INT.test(raw) ? +raw : null;
  const pageNumber = read(page, 1);
  const requested = read(limit, rule.defaultLimit);
  if (pageNumber === null || requested === null) return null;
  const pageLimit = Math.min(requested, rule.maxLimit);
  return { page: pageNumber, limit: pageLimit, skip: (pageNumber - 1) * pageLimit };
}

/** A presented v2 key, split as the service stores it: the prefix, the SHA-256 of the secret. */
export function keyParts(raw: unknown): { prefix: string; secretHash: string } | null {
  const parts =
    typeof raw === 'string' && /^svc_(?:live|test)_([a-z0-9]{8})_([A-Za-z0-9]{32})$/.exec(raw);
  if (!parts) return null;
  return { prefix: parts[1]!, secretHash: createHash('sha256').update(parts[2]!).digest('hex') };
}

export interface StoredKey {
  secretHash: string;
  type: string;
  scopes: string[];
  revokedAt: Date | null;
  expiresAt: Date | null;
  owner: { id: string; role: string; deletedAt: Date | null };
}

/** The affiliate a stored key lets read `path`, or null (answer 401). */
export function affiliateOf(
  stored: StoredKey | null,
  presentedHash: string,
  path: ReferencePath,
): string | null {
  if (!stored) return null;
  const matches = timingSafeEqual(Buffer.from(stored.secretHash), Buffer.from(presentedHash));
  const usable = !stored.revokedAt && (!stored.expiresAt || stored.expiresAt > new Date());
  const { owner } = stored;
  const isAffiliate = stored.type === 'affiliate' && owner.role === 'AFFILIATE' && !owner.deletedAt;
  return matches && usable && isAffiliate && stored.scopes.includes(SCOPES[path]) ? owner.id : null;
}

interface Brand {
  id: string;
  name: string;
  logoUrl: string | null;
}

export interface CampaignRow {
  id: string;
  name: string;
  description: string | null;
  type: string;
  offerType: string | null;
  url: string;
  organizationId: string;
  organization: Brand;
  categories: string[];
  startAt: Date;
  endAt: Date;
  isHighlight: boolean;
  createdAt: Date;
  code: string | null;
  commissionType: string;
  commissionValue: number;
  /** The affiliate's own code of a PersonalCoupon (at most one). */
  personalCoupons: { code: string }[];
}

export interface Link {
  urlCode: string;
  active: boolean;
}

export interface NewLink {
  affiliateId: string;
  organizationId: string;
  campaignId: string;
  linkType: 'Offer';
  originalUrl: string;
  dedupeKey: string;
  urlCode: string;
}

export const campaignDedupeKey = (campaignId: string) => `campaign:${campaignId}`;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function newUrlCode(): string {
  return Array.from({ length: 8 }, () => BASE62[randomInt(62)]).join('');
}

/** The link a Url offer gets on first need; null when its url is no web address. */
function newLink(campaign: CampaignRow, affiliateId: string): NewLink | null {
  let target: URL;
  try {
    target = new URL(campaign.url);
  } catch {
    return null;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return null;
  target.searchParams.set('aff', affiliateId);
  return {
    affiliateId,
    organizationId: campaign.organizationId,
    campaignId: campaign.id,
    linkType: 'Offer',
    originalUrl: target.toString(),
    dedupeKey: campaignDedupeKey(campaign.id),
    urlCode: newUrlCode(),
  };
}

const SHORT_LINK_BASE_URL = process.env.SHORT_LINK_BASE_URL ?? '';

/**
 * The campaign's short URL: the affiliate's link if it has one (null if deactivated), else for a
 * Url offer one made now by `create` (insert unless present, then read back).
 */
export async function campaignShortUrl(
  campaign: CampaignRow,
  existing: Link | undefined,
  affiliateId: string,
  create: (link: NewLink) => Promise<Link>,
): Promise<string | null> {
  let link = existing;
  if (!link && campaign.type === 'Offer' && campaign.offerType === 'Url') {
    const wanted = newLink(campaign, affiliateId);
    link = wanted ? await create(wanted) : undefined;
  }
  return link?.active ? `${SHORT_LINK_BASE_URL}/${link.urlCode}` : null;
}

function statusAt(campaign: CampaignRow, now: Date): string {
  if (now < campaign.startAt) return 'scheduled';
  if (now > campaign.endAt) return 'expired';
  return 'onTime';
}

function codeOf(campaign: CampaignRow): string | null {
  if (campaign.type === 'GenericCoupon') return campaign.code;
  if (campaign.type === 'PersonalCoupon') return campaign.personalCoupons[0]?.code ?? null;
  return null;
}

const brandJson = ({ id, name, logoUrl }: Brand) => ({ id, name, logoUrl });

/** One item of GET /affiliate/campaigns. */
export function campaignJson(campaign: CampaignRow, shortUrl: string | null, now: Date) {
  return {
    id: campaign.id,
    name: campaign.name,
    description: campaign.description,
    type: campaign.type,
    offerType: campaign.offerType,
    url: campaign.url,
    organizationId: campaign.organizationId,
    organization: brandJson(campaign.organization),
    categories: campaign.categories,
    period: { startAt: campaign.startAt.toISOString(), endAt: campaign.endAt.toISOString() },
    status: statusAt(campaign, now),
    isHighlight: campaign.isHighlight,
    createdAt: campaign.createdAt.toISOString(),
    code: codeOf(campaign),
    commission: { type: campaign.commissionType, value: campaign.commissionValue / 100 },
    shortUrl,
  };
}

export interface OrderItemRow {
  productId: string | null;
  sku: string;
  name: string;
  quantity: number;
  unitPriceMinor: number;
  totalMinor: number;
  commissionRateBps: number;
  commissionValueMinor: number;
}

export interface OrderRow {
  id: string;
  orderNumber: string;
  organizationId: string;
  organization: Brand;
  status: string;
  currency: string;
  transactionValueMinor: number;
  commissionRateBps: number;
  earningsMinor: number;
  /** In position order. */
  items: OrderItemRow[];
  shortUrlCode: string | null;
  channelId: string | null;
  sub1: string | null;
  sub2: string | null;
  sub3: string | null;
  sub4: string | null;
  sub5: string | null;
  orderedAt: Date;
  updatedAt: Date;
  statusReason: string | null;
  statusNote: string | null;
  originalTransactionValueMinor: number;
  originalEarningsMinor: number;
  locksAt: Date;
  lockedAt: Date | null;
  heldReason: string | null;
  heldNote: string | null;
  /** The payout item that holds the order (at most one), with its payout. */
  payoutItems: { payout: { id: string; status: string; paidAt: Date | string | null } }[];
  couponCode: string | null;
  campaignId: string | null;
  attribution: string | null;
}

const exponents = new Map<string, number>();

/** Minor units in the currency's major units: its decimals as ICU's currency data has them. */
function fromMinor(minor: number, currency: string): number {
  let exponent = exponents.get(currency);
  if (exponent === undefined) {
    exponent = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits!;
    exponents.set(currency, exponent);
  }
  return minor / 10 ** exponent;
}

/** One item of GET /affiliate/orders: money in the currency's major units, rates in percent. */
export function orderJson(order: OrderRow) {
  const now = new Date();
  const lockedAt = order.lockedAt ?? (order.locksAt <= now ? order.locksAt : null);
  const money = (minor: number) => fromMinor(minor, order.currency);
  const payout = order.payoutItems[0]?.payout ?? null;
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    organizationId: order.organizationId,
    organization: brandJson(order.organization),
    status: order.status,
    currency: order.currency,
    transactionValue: money(order.transactionValueMinor),
    commissionRate: order.commissionRateBps / 100,
    earnings: money(order.earningsMinor),
    items: order.items.map((item) => ({
      productId: item.productId,
      sku: item.sku,
      name: item.name,
      quantity: item.quantity,
      unitPrice: money(item.unitPriceMinor),
      total: money(item.totalMinor),
      commissionRate: item.commissionRateBps / 100,
      commissionValue: money(item.commissionValueMinor),
    })),
    shortUrlCode: order.shortUrlCode,
    channelId: order.channelId,
    sub1: order.sub1,
    sub2: order.sub2,
    sub3: order.sub3,
    sub4: order.sub4,
    sub5: order.sub5,
    orderedAt: order.orderedAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
    statusReason: order.statusReason,
    statusNote: order.statusNote,
    originalSaleAmount: money(order.originalTransactionValueMinor),
    originalEarnings: money(order.originalEarningsMinor),
    adjusted:
      order.transactionValueMinor !== order.originalTransactionValueMinor ||
      order.earningsMinor !== order.originalEarningsMinor,
    locksAt: order.locksAt.toISOString(),
    lockedAt: lockedAt?.toISOString() ?? null,
    isFinal: lockedAt !== null && order.status !== 'APPROVED',
    heldReason: order.heldReason,
    heldNote: order.heldNote,
    payoutId: payout?.id ?? null,
    payoutStatus: payout?.status ?? null,
    paidAt: payout?.paidAt ? new Date(payout.paidAt).toISOString() : null,
    couponCode: order.couponCode,
    campaignId: order.campaignId,
    attribution: order.attribution,
  };
}

/**
 * The affiliate's `finalThrough` beside the orders page ($1 the affiliate): the earliest lock date
 * of an order that may still change, or the clock less 15 minutes.
 */
export const FINAL_THROUGH_SQL = `
  SELECT least(
    (SELECT "locksAt" FROM "Order" WHERE "affiliateId" = $1::uuid AND "lockedAt" IS NULL
     ORDER BY "lockedAt", "locksAt" LIMIT 1),
    (SELECT "locksAt" FROM "Order" WHERE "affiliateId" = $1::uuid AND "status" = 'APPROVED'
     ORDER BY "status", "locksAt" LIMIT 1),
    (now() AT TIME ZONE 'UTC') - interval '15 minutes') AS "finalThrough"`;

/** The orders page: the `meta` envelope and `finalThrough` beside it. */
export function ordersPage<Item>(data: Item[], total: number, page: Page, finalThrough: Date) {
  return { ...metaPage(data, total, page), finalThrough: finalThrough.toISOString() };
}

/** The `meta` envelope of both lists. */
export function metaPage<Item>(data: Item[], total: number, { page, limit }: Page) {
  return { data, meta: { total, page, limit, totalPages: Math.ceil(total / limit) } };
}
