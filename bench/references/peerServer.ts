// The peer: GET /affiliate/campaigns and GET /affiliate/orders as a typical Node team writes them,
// Fastify 5 + the service's own generated Prisma client on the same adapter as src/platform/db.ts. Each
// request looks its key up (Prisma, key with its owner), then counts and reads the page with
// includes. Bundled as the service is built (bench/support/build.ts) and run as its own process on
// the same Node, with PORT, DATABASE_URL, DATABASE_SCHEMA and SHORT_LINK_BASE_URL; it prints
// `listening <port>`.
import { PrismaPg } from '@prisma/adapter-pg';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import pg from 'pg';
import { PrismaClient } from '../../src/generated/prisma/client';
import {
  affiliateOf,
  campaignDedupeKey,
  campaignJson,
  campaignShortUrl,
  CAMPAIGNS_PATH,
  keyParts,
  metaPage,
  ORDERS_PATH,
  orderJson,
  pageOf,
  type NewLink,
  type Page,
  type ReferencePath,
} from './answers';

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

type Query = { page?: string; limit?: string };

/** The key's affiliate and the page asked for; null once an error was sent. */
async function admit(
  path: ReferencePath,
  request: FastifyRequest<{ Querystring: Query }>,
  reply: FastifyReply,
): Promise<{ affiliateId: string; page: Page } | null> {
  const presented = keyParts(request.headers['x-api-key']);
  const stored =
    presented &&
    (await prisma.apiKey.findUnique({
      where: { prefix: presented.prefix },
      include: { owner: true },
    }));
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
  const [total, rows] = await Promise.all([
    prisma.order.count({ where }),
    prisma.order.findMany({
      where,
      orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
      skip: page.skip,
      take: page.limit,
      include: {
        organization: { select: { id: true, name: true, logoUrl: true } },
        items: { orderBy: [{ position: 'asc' }, { id: 'asc' }] },
      },
    }),
  ]);
  return metaPage(rows.map(orderJson), total, page);
}

async function main(): Promise<void> {
  const app = Fastify({ logger: false });
  app.get(CAMPAIGNS_PATH, campaigns);
  app.get(ORDERS_PATH, orders);
  const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  console.log(`listening ${new URL(address).port}`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

if (require.main === module) void main();
