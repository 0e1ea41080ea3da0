// The limit: GET /affiliate/campaigns and GET /affiliate/orders on bare node:http + pg with
// hand-written SQL, three statements a request (the key with its owner, the count, the page with
// its relations as JSON), the same bodies as the service. What this machine can do for these
// routes with no framework and no ORM. Bundled as the service is built (bench/support/build.ts) and
// run as its own process on the same Node, with PORT, DATABASE_URL, DATABASE_SCHEMA and
// SHORT_LINK_BASE_URL.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import {
  affiliateOf,
  FINAL_THROUGH_SQL,
  campaignJson,
  campaignShortUrl,
  CAMPAIGNS_PATH,
  keyParts,
  metaPage,
  ORDERS_PATH,
  orderJson,
  ordersPage,
  pageOf,
  type CampaignRow,
  type Link,
  type NewLink,
  type OrderRow,
  type Page,
  type ReferencePath,
  type StoredKey,
} from './answers';

// Prisma's DateTime columns are `timestamp(3)` (without time zone) holding UTC.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (value) => new Date(`${value}Z`));

const schema = process.env.DATABASE_SCHEMA ?? 'public';
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  options: `-c search_path="${schema}",public`,
  max: 10,
});

const KEY_SQL = `
  SELECT k."secretHash", k.type, k.scopes, k."revokedAt", k."expiresAt",
         u.id AS "ownerId", u.role AS "ownerRole", u."deletedAt" AS "ownerDeletedAt"
    FROM "ApiKey" k JOIN "User" u ON u.id = k."ownerId"
   WHERE k.prefix = $1`;

const BRAND_JSON = `json_build_object('id', o.id, 'name', o.name, 'logoUrl', o."logoUrl")`;

const CAMPAIGN_COUNT_SQL = `SELECT count(*)::int AS total FROM "Campaign" WHERE "brandVisible"`;

const CAMPAIGN_PAGE_SQL = `
  SELECT c.id, c.name, c.description, c.type, c."offerType", c.url, c."organizationId",
         ${BRAND_JSON} AS organization, c.categories, c."startAt", c."endAt", c."isHighlight",
         c."createdAt", c.code, c."commissionType", c."commissionValue",
         coalesce((SELECT json_agg(json_build_object('code', p.code)) FROM "PersonalCouponCode" p
                    WHERE p."campaignId" = c.id AND p."affiliateId" = $1), '[]') AS "personalCoupons",
         (SELECT json_build_object('urlCode', s."urlCode", 'active', s.active) FROM "ShortUrl" s
           WHERE s."affiliateId" = $1 AND s."dedupeKey" = 'campaign:' || c.id
             AND s."linkType" IN ('Offer', 'Coupon')) AS link
    FROM "Campaign" c JOIN "Organization" o ON o.id = c."organizationId"
   WHERE c."brandVisible"
   ORDER BY c."createdAt" DESC, c.id DESC
   LIMIT $2 OFFSET $3`;

// The insert's row, or the one already there (the statement's snapshot cannot see its own insert).
const CREATE_LINK_SQL = `
  WITH made AS (
    INSERT INTO "ShortUrl" (id, "urlCode", "affiliateId", "organizationId", "campaignId",
                            "linkType", "originalUrl", "dedupeKey")
    VALUES (gen_random_uuid(), $1, $2, $3, $4, $5::"LinkType", $6, $7)
    ON CONFLICT DO NOTHING
    RETURNING "urlCode", active)
  SELECT "urlCode", active FROM made
  UNION ALL
  SELECT "urlCode", active FROM "ShortUrl" WHERE "affiliateId" = $2 AND "dedupeKey" = $7`;

const ORDER_COUNT_SQL = `SELECT count(*)::int AS total FROM "Order" WHERE "affiliateId" = $1`;

const ORDER_PAGE_SQL = `
  SELECT r.id, r."orderNumber", r."organizationId", ${BRAND_JSON} AS organization, r.status,
         r.currency, r."transactionValueMinor", r."commissionRateBps", r."earningsMinor",
         coalesce((SELECT json_agg(json_build_object(
                     'productId', i."productId", 'sku', i.sku, 'name', i.name,
                     'quantity', i.quantity, 'unitPriceMinor', i."unitPriceMinor",
                     'totalMinor', i."totalMinor", 'commissionRateBps', i."commissionRateBps",
                     'commissionValueMinor', i."commissionValueMinor") ORDER BY i.position, i.id)
                     FROM "OrderItem" i WHERE i."orderId" = r.id), '[]') AS items,
         r."shortUrlCode", r."channelId", r.sub1, r.sub2, r.sub3, r.sub4, r.sub5,
         r."orderedAt", r."updatedAt", r."statusReason", r."statusNote",
         r."originalTransactionValueMinor", r."originalEarningsMinor", r."locksAt", r."lockedAt",
         r."heldReason", r."heldNote",
         coalesce((SELECT json_agg(json_build_object('payout', json_build_object(
                     'id', p.id, 'status', p.status, 'paidAt', p."paidAt" AT TIME ZONE 'UTC')))
                     FROM "PayoutItem" i JOIN "Payout" p ON p.id = i."payoutId"
                    WHERE i."heldOrderId" = r.id), '[]') AS "payoutItems",
         r."couponCode", r."campaignId", r.attribution
    FROM "Order" r JOIN "Organization" o ON o.id = r."organizationId"
   WHERE r."affiliateId" = $1
   ORDER BY r."orderedAt" DESC, r.id DESC
   LIMIT $2 OFFSET $3`;

type KeyRow = Omit<StoredKey, 'owner'> & {
  ownerId: string;
  ownerRole: string;
  ownerDeletedAt: Date | null;
};

async function storedKey(prefix: string): Promise<StoredKey | null> {
  const row = (await pool.query<KeyRow>(KEY_SQL, [prefix])).rows[0];
  if (!row) return null;
  const { ownerId: id, ownerRole: role, ownerDeletedAt: deletedAt, ...key } = row;
  return { ...key, owner: { id, role, deletedAt } };
}

async function createLink(link: NewLink): Promise<Link> {
  const { urlCode, affiliateId, organizationId, campaignId, linkType, originalUrl, dedupeKey } =
    link;
  const values = [
    urlCode,
    affiliateId,
    organizationId,
    campaignId,
    linkType,
    originalUrl,
    dedupeKey,
  ];
  return (await pool.query<Link>(CREATE_LINK_SQL, values)).rows[0]!;
}

async function campaigns(affiliateId: string, page: Page) {
  const [count, rows] = await Promise.all([
    pool.query<{ total: number }>(CAMPAIGN_COUNT_SQL),
    pool.query<CampaignRow & { link: Link | null }>(CAMPAIGN_PAGE_SQL, [
      affiliateId,
      page.limit,
      page.skip,
    ]),
  ]);
  const now = new Date();
  const data = await Promise.all(
    rows.rows.map(async (row) => {
      const shortUrl = await campaignShortUrl(row, row.link ?? undefined, affiliateId, createLink);
      return campaignJson(row, shortUrl, now);
    }),
  );
  return metaPage(data, count.rows[0]!.total, page);
}

async function orders(affiliateId: string, page: Page) {
  const [count, rows, final] = await Promise.all([
    pool.query<{ total: number }>(ORDER_COUNT_SQL, [affiliateId]),
    pool.query<OrderRow>(ORDER_PAGE_SQL, [affiliateId, page.limit, page.skip]),
    pool.query<{ finalThrough: Date }>(FINAL_THROUGH_SQL, [affiliateId]),
  ]);
  const total = count.rows[0]!.total;
  return ordersPage(rows.rows.map(orderJson), total, page, final.rows[0]!.finalThrough);
}

const LISTS: Record<ReferencePath, (affiliateId: string, page: Page) => Promise<object>> = {
  [CAMPAIGNS_PATH]: campaigns,
  [ORDERS_PATH]: orders,
};

function send(response: ServerResponse, status: number, body: object): void {
  const json = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  response.end(json);
}

const server = createServer((request, response) => {
  const [pathname = '', search] = (request.url ?? '').split('?', 2);
  const list = request.method === 'GET' ? LISTS[pathname as ReferencePath] : undefined;
  if (!list) return send(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found' } });
  const path = pathname as ReferencePath;
  const query = new URLSearchParams(search);
  const presented = keyParts(request.headers['x-api-key']);
  (async () => {
    const stored = presented && (await storedKey(presented.prefix));
    const affiliateId = presented && affiliateOf(stored, presented.secretHash, path);
    if (!affiliateId) {
      return send(response, 401, { error: { code: 'UNAUTHORIZED', message: 'Invalid API key' } });
    }
    const page = pageOf(path, query.get('page') ?? undefined, query.get('limit') ?? undefined);
    if (!page) {
      return send(response, 400, {
        error: { code: 'BAD_REQUEST', message: 'Invalid page or limit' },
      });
    }
    send(response, 200, await list(affiliateId, page));
  })().catch((error: unknown) => {
    console.error(error);
    send(response, 500, { error: { code: 'INTERNAL', message: 'Internal error' } });
  });
});

if (require.main === module) {
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    console.log(`listening ${(server.address() as AddressInfo).port}`);
  });
  process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
}
