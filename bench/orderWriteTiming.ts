// What postbacks add to the back office's order writes: the fan-out trigger on "WebhookEvent"
// (migration postbacks) runs in every statement that records an order or changes its status.
// Each round inserts --orders orders in one statement and approves them in another, as the back
// office writes them in SQL, in a schema of its own: with the trigger disabled (the outbox as it
// is without postbacks), enabled for an affiliate without postbacks, and enabled for one with
// --postbacks of them (half scoped to the order's brand). Cases alternate; medians of --runs.
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/orderWriteTiming.ts
//
// A benchmark, not a test.
import { parseArgs } from 'node:util';
import { positiveNumber } from './support/cli';

const { values: args } = parseArgs({
  options: {
    orders: { type: 'string', default: '5000' },
    postbacks: { type: 'string', default: '5' },
    runs: { type: 'string', default: '7' },
  },
});
const ORDERS = positiveNumber('orders', args.orders);
const POSTBACKS = positiveNumber('postbacks', args.postbacks);
const RUNS = positiveNumber('runs', args.runs);
const SCHEMA = 'bench_order_writes';

process.env.LOG_LEVEL = 'silent';
process.env.DATABASE_SCHEMA = SCHEMA;
if (!process.env.DATABASE_URL) {
  console.error('Set DATABASE_URL to a PostgreSQL server (a schema of its own is made there).');
  process.exit(2);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function main(): Promise<void> {
  const pg = (await import('pg')).default;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
  await admin.end();
  const { applyMigrations } = await import('../src/platform/migrations');
  const { prisma, closeDatabase } = await import('../src/platform/db');
  await applyMigrations();

  const user = (name: string) =>
    prisma.user.create({ data: { email: `${name}@bench.test`, name, role: 'AFFILIATE' } });
  const brand = await prisma.organization.create({
    data: { name: 'Bench brand', slug: 'bench-brand' },
  });
  const plain = await user('without-postbacks');
  const tracked = await user('with-postbacks');
  await prisma.postback.createMany({
    data: Array.from({ length: POSTBACKS }, (_, n) => ({
      ownerId: tracked.id,
      name: `bench ${n}`,
      events: ['order.created', 'order.status_changed'],
      method: 'GET' as const,
      // A documentation address: nothing is ever sent (no dispatcher runs here).
      urlTemplate: 'https://192.0.2.10/postback?subid={sub1}&status={status}',
      statusMap: {},
      ...(n % 2 === 1 && { brandId: brand.id }),
    })),
  });

  const trigger = (on: boolean) =>
    prisma.$executeRawUnsafe(
      `ALTER TABLE "WebhookEvent" ${on ? 'ENABLE' : 'DISABLE'} TRIGGER "WebhookEvent_postback_deliveries"`,
    );
  /** Milliseconds to insert ORDERS orders of `affiliateId` and approve them, then cleared away. */
  async function writeOrders(affiliateId: string): Promise<number> {
    const started = performance.now();
    await prisma.$executeRaw`
      INSERT INTO "Order" ("id", "orderNumber", "affiliateId", "organizationId", "status",
        "currency", "transactionValueMinor", "commissionRateBps", "earningsMinor", "orderedAt", "sub1")
      SELECT gen_random_uuid(), 'B-' || n, ${affiliateId}::uuid, ${brand.id}::uuid, 'PENDING',
        'EUR', 1000, 500, 50, now(), 'click-' || n
      FROM generate_series(1, ${ORDERS}) AS n`;
    await prisma.$executeRaw`
      UPDATE "Order" SET "status" = 'APPROVED' WHERE "affiliateId" = ${affiliateId}::uuid`;
    const elapsed = performance.now() - started;
    await prisma.$executeRaw`DELETE FROM "WebhookEvent"`;
    await prisma.$executeRaw`DELETE FROM "Order" WHERE "affiliateId" = ${affiliateId}::uuid`;
    return elapsed;
  }

  const cases = [
    { name: 'trigger disabled (outbox only)', on: false, affiliateId: plain.id },
    { name: 'trigger, affiliate without postbacks', on: true, affiliateId: plain.id },
    { name: `trigger, affiliate with ${POSTBACKS} postbacks`, on: true, affiliateId: tracked.id },
  ];
  const times = cases.map(() => [] as number[]);
  try {
    // A warm-up round of each, then RUNS rounds, cases alternating.
    for (let round = -1; round < RUNS; round += 1) {
      for (const [index, { on, affiliateId }] of cases.entries()) {
        await trigger(on);
        const elapsed = await writeOrders(affiliateId);
        if (round >= 0) times[index]!.push(elapsed);
      }
    }
    const base = median(times[0]!);
    console.log(`${ORDERS} orders inserted, then approved (2 statements), medians of ${RUNS}:`);
    for (const [index, { name }] of cases.entries()) {
      const ms = median(times[index]!);
      console.log(
        `  ${name}: ${ms.toFixed(0)} ms, ${((ms * 1000) / (2 * ORDERS)).toFixed(1)} µs per order event, ${(ms / base).toFixed(2)}x`,
      );
    }
  } finally {
    await trigger(true);
    await closeDatabase();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
