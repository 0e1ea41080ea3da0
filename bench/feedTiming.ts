// The order-event feed at depth: GET /affiliate/order-events through the whole route (createApp, a
// key, REST), its first page and a page --depth pages of 1,000 in, with `finalThrough`. In a schema
// of its own, one affiliate gets --orders orders recorded in SQL and approved (two events each),
// and a second affiliate as many, so the feed's index holds more than one affiliate. Medians of
// --runs after --warmup.
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/feedTiming.ts
//
// Target: both pages well under 50 ms at the median. A benchmark, not a test.
import { freshSchema, median, quietService, timingOptions } from './support/routeTiming';

const options = timingOptions({ orders: '260000', depth: '500' });
const ORDERS = options.number('orders');
const DEPTH = options.number('depth');
const { runs: RUNS, warmup: WARMUP } = options;
const SCHEMA = 'bench_order_feed';
const PAGE = 1_000;

process.env.DATABASE_SCHEMA = SCHEMA;
quietService({ scaleData: false });

async function main(): Promise<void> {
  await freshSchema();
  const { prisma, closeDatabase } = await import('../src/platform/db');
  const { generateApiKey, sha256Hex } = await import('../src/auth/keyFormat');
  const { SCOPES_BY_KEY_TYPE } = await import('../src/auth/scopes');
  const { createApp } = await import('../src/app');
  try {
    const brand = await prisma.organization.create({
      data: { name: 'Bench brand', slug: 'bench-brand' },
    });
    const affiliates = [];
    for (const name of ['feed-reader', 'neighbour']) {
      const user = await prisma.user.create({
        data: { email: `${name}@bench.test`, name, role: 'AFFILIATE' },
      });
      affiliates.push(user);
      const started = performance.now();
      await prisma.$executeRaw`
        INSERT INTO "Order" ("id", "orderNumber", "affiliateId", "organizationId", "status",
          "currency", "transactionValueMinor", "commissionRateBps", "earningsMinor", "orderedAt")
        SELECT gen_random_uuid(), ${name} || '-' || n, ${user.id}::uuid, ${brand.id}::uuid,
          'PENDING', 'EUR', 10000, 500, 500, now() - make_interval(mins => n)
        FROM generate_series(1, ${ORDERS}) AS n`;
      await prisma.$executeRaw`
        UPDATE "Order" SET "status" = 'APPROVED' WHERE "affiliateId" = ${user.id}::uuid`;
      console.log(
        `${name}: ${ORDERS * 2} events written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    await prisma.$executeRaw`ANALYZE`;
    const { prefix, secret, apiKey } = generateApiKey('test');
    await prisma.apiKey.create({
      data: {
        name: 'bench',
        type: 'affiliate',
        version: 'v2',
        env: 'test',
        prefix,
        secretHash: sha256Hex(secret),
        scopes: [...SCOPES_BY_KEY_TYPE.affiliate],
        ownerId: affiliates[0]!.id,
      },
    });
    const app = createApp({ redis: null, responseCacheTtlSeconds: 0 });
    const cases = [
      { name: 'the first page', after: '' },
      { name: `a page ${DEPTH} pages in`, after: String(DEPTH * PAGE) },
    ];
    for (const { name, after } of cases) {
      const url = `http://bench.test/affiliate/order-events?limit=${PAGE}&after=${after}`;
      const times: number[] = [];
      let body: { data: unknown[]; next: string; finalThrough: string } | undefined;
      for (let run = 0; run < WARMUP + RUNS; run += 1) {
        const started = performance.now();
        const response = await app.fetch(url, { headers: { 'x-api-key': apiKey } });
        body = (await response.json()) as typeof body;
        if (response.status !== 200) throw new Error(`${name}: ${JSON.stringify(body)}`);
        if (run >= WARMUP) times.push(performance.now() - started);
      }
      console.log(
        `${name} (after=${after || 'none'}): route median ${median(times).toFixed(1)} ms, ` +
          `max ${Math.max(...times).toFixed(1)} ms; ${body!.data.length} events, next ${body!.next}`,
      );
    }
  } finally {
    await closeDatabase();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
