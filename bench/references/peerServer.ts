// The peer: GET /affiliate/campaigns and GET /affiliate/orders as a typical Node team writes them,
// Fastify 5 + the service's own generated Prisma client on the same adapter as src/platform/db.ts,
// doing what the contract asks of every server: each request is counted against the quota of its
// key and address in Redis (one script, one round trip, the rate-limit headers), its key is looked
// up (Prisma, key with its owner) and remembered for 60 s, the page is counted and read with
// includes, and an access line is written (pino, as the service's). The includes are loaded by
// joins (Prisma's relationJoins, as the service loads its relations), or with PEER_RELATION_LOAD=query
// by Prisma's default, a query per relation. Bundled as the service is built (bench/support/build.ts)
// and run as its own process on the same Node, with PORT, DATABASE_URL, DATABASE_SCHEMA, REDIS_URL,
// RATE_LIMIT_MAX and SHORT_LINK_BASE_URL; it prints `listening <port>`.
import { PrismaPg } from '@prisma/adapter-pg';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import Redis from 'ioredis';
import pg from 'pg';
import pino from 'pino';
import { PrismaClient } from '../../src/generated/prisma/client';
import {
  affiliateOf,
  FINAL_THROUGH_SQL,
  campaignDedupeKey,
  campaignJson,
  campaignShortUrl,
  CAMPAIGNS_PATH,
  keyParts,
  metaPage,
  ORDERS_PATH,
  orderJson,
  ordersPage,
  pageOf,
  type NewLink,
  type Page,
  type ReferencePath,
} from './answers';

const relationLoadStrategy = process.env.PEER_RELATION_LOAD === 'query' ? 'query' : 'join';

function prismaClient(): PrismaClient {
  const schema = process.env.DATABASE_SCHEMA ?? 'public';
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    options: `-c search_path="${schema}",public`,
    max: 10,
  });
  return new PrismaClient({ adapter: new PrismaPg(pool, { schema }) });
}

const prisma = prismaClient();
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const accessLog = pino({ level: 'info' });

const QUOTA_MAX = Number(process.env.RATE_LIMIT_MAX ?? 60);
const QUOTA_WINDOW_MS = 60_000;
const KEY_REMEMBERED_MS = 60_000;

// A fixed window that starts at its first hit: {count, ms left}.
redis.defineCommand('quotaHit', {
  numberOfKeys: 1,
  lua: `
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}`,
});
type QuotaRedis = Redis & { quotaHit(key: string, windowMs: number): Promise<[number, number]> };

/** Counts the request; false once a 429 was sent. */
async function withinQuota(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const key = request.headers['x-api-key'];
  const caller = typeof key === 'string' ? key.slice(0, 16) : 'anonymous';
  const [count, msLeft] = await (redis as QuotaRedis).quotaHit(
    `quota:${caller}:${request.ip}`,
    QUOTA_WINDOW_MS,
  );
  void reply.headers({
    'X-RateLimit-Limit': QUOTA_MAX,
    'X-RateLimit-Remaining': Math.max(0, QUOTA_MAX - count),
    'X-RateLimit-Reset': Math.ceil(msLeft / 1000),
  });
  if (count <= QUOTA_MAX) return true;
  await reply
    .code(429)
    .send({ error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded' } });
  return false;
}

type StoredKey = Parameters<typeof affiliateOf>[0];
const rememberedKeys = new Map<string, { stored: StoredKey; until: number }>();

async function storedKey(prefix: string): Promise<StoredKey> {
  const remembered = rememberedKeys.get(prefix);
  if (remembered && remembered.until > Date.now()) return remembered.stored;
  const stored = await prisma.apiKey.findUnique({ where: { prefix }, include: { owner: true } });
  rememberedKeys.set(prefix, { stored, until: Date.now() + KEY_REMEMBERED_MS });
  return stored;
}

type Query = { page?: string; limit?: string };

/** The key's affiliate and the page asked for; null once an error was sent. */
async function admit(
  path: ReferencePath,
  request: FastifyRequest<{ Querystring: Query }>,
  reply: FastifyReply,
): Promise<{ affiliateId: string; page: Page } | null> {
  if (!(await withinQuota(request, reply))) return null;
  const presented = keyParts(request.headers['x-api-key']);
  const stored = presented && (await storedKey(presented.prefix));
  const affiliateId = presented && affiliateOf(stored ?? null, presented.secretHash, path);
  if (!affiliateId) {
    await reply.code(401).send({ error: { code: 'UNAUTHORIZED', message: 'Invalid API key' } });
    return null;
  }
  const page = pageOf(path, request.query.page, request.query.limit);
  if (!page) {
    await reply
      .code(400)
      .send({ error: { code: 'BAD_REQUEST', message: 'Invalid page or limit' } });
    return null;
  }
  return { affiliateId, page };
}

async function createLink(link: NewLink) {
  await prisma.shortUrl.createMany({ data: [link], skipDuplicates: true });
  return prisma.shortUrl.findUniqueOrThrow({
    where: { affiliateId_dedupeKey: { affiliateId: link.affiliateId, dedupeKey: link.dedupeKey } },
    select: { urlCode: true, active: true },
  });
}

async function campaigns(request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply) {
  const admitted = await admit(CAMPAIGNS_PATH, request, reply);
  if (!admitted) return reply;
  const { affiliateId, page } = admitted;
  const where = { brandVisible: true };
  const [total, rows] = await Promise.all([
    prisma.campaign.count({ where }),
    prisma.campaign.findMany({
      relationLoadStrategy,
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: page.skip,
      take: page.limit,
      include: {
        organization: { select: { id: true, name: true, logoUrl: true } },
        personalCoupons: { where: { affiliateId }, select: { code: true } },
        shortUrls: {
          where: { affiliateId, linkType: { in: ['Offer', 'Coupon'] } },
          select: { urlCode: true, dedupeKey: true, active: true },
        },
      },
    }),
  ]);
  const now = new Date();
  const data = await Promise.all(
    rows.map(async (row) => {
      const existing = row.shortUrls.find((link) => link.dedupeKey === campaignDedupeKey(row.id));
      const shortUrl = await campaignShortUrl(row, existing, affiliateId, createLink);
      return campaignJson(row, shortUrl, now);
    }),
  );
  return metaPage(data, total, page);
}

async function orders(request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply) {
  const admitted = await admit(ORDERS_PATH, request, reply);
  if (!admitted) return reply;
  const { affiliateId, page } = admitted;
  const where = { affiliateId };
  const [total, rows, [final]] = await Promise.all([
    prisma.order.count({ where }),
    prisma.order.findMany({
      relationLoadStrategy,
      where,
      orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
      skip: page.skip,
      take: page.limit,
      include: {
        organization: { select: { id: true, name: true, logoUrl: true } },
        items: { orderBy: [{ position: 'asc' }, { id: 'asc' }] },
        payoutItems: {
          where: { heldOrderId: { not: null } },
          select: { payout: { select: { id: true, status: true, paidAt: true } } },
          take: 1,
        },
      },
    }),
    prisma.$queryRawUnsafe<{ finalThrough: Date }[]>(FINAL_THROUGH_SQL, affiliateId),
  ]);
  return ordersPage(rows.map(orderJson), total, page, final!.finalThrough);
}

async function main(): Promise<void> {
  const app = Fastify({ logger: false });
  app.addHook('onResponse', async (request, reply) => {
    accessLog.info(
      {
        requestId: request.id,
        method: request.method,
        path: request.url.split('?')[0],
        route: request.routeOptions.url,
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        clientIp: request.ip,
        userAgent: request.headers['user-agent']?.slice(0, 256) ?? null,
      },
      'request',
    );
  });
  app.get(CAMPAIGNS_PATH, campaigns);
  app.get(ORDERS_PATH, orders);
  const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  console.log(`listening ${new URL(address).port}`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

if (require.main === module) void main();
