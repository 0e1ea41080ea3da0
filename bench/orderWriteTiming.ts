// What postbacks add to the back office's order writes: the fan-out trigger on "WebhookEvent"
// (migration postbacks) runs in every statement that records an order or changes its status.
// Each round inserts --orders orders in one statement and approves them in another, as the back
// office writes them in SQL, in a schema of its own: with the trigger disabled (the outbox as it
// is without postbacks), enabled for an affiliate without postbacks, enabled for one with
// --postbacks of them (half scoped to the order's brand), and, for scale, disabled for one with as
// many webhook endpoints (the same number of deliveries). Cases alternate; medians of --runs.
// The machine's load moves whole runs; the trigger's own time (PostgreSQL's function statistics)
// is the steadier number.
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/orderWriteTiming.ts
//
// A benchmark, not a test.
import { freshSchema, median, quietService, timingOptions } from './support/routeTiming';

const options = timingOptions({ orders: '5000', postbacks: '5', runs: '7' });
const ORDERS = options.number('orders');
const POSTBACKS = options.number('postbacks');
const RUNS = options.runs;
const SCHEMA = 'bench_order_writes';

process.env.DATABASE_SCHEMA = SCHEMA;
quietService({ scaleData: false });

async function main(): Promise<void> {
  await freshSchema();
  const { prisma, closeDatabase } = await import('../src/platform/db');

  const user = (name: string) =>
    prisma.user.create({ data: { email: `${name}@bench.test`, name, role: 'AFFILIATE' } });
  const brand = await prisma.organization.create({
    data: { name: 'Bench brand', slug: 'bench-brand' },
  });
  const plain = await user('without-postbacks');
  const tracked = await user('with-postbacks');
  const hooked = await user('with-endpoints');
  await prisma.webhookEndpoint.createMany({
    data: Array.from({ length: POSTBACKS }, (_, n) => ({
      ownerId: hooked.id,
      url: `https://192.0.2.10/hooks/${n}`,
      events: ['order.created', 'order.status_changed'],
      secret: `whsec_bench${n}`,
    })),
  });
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
  /**
   * Milliseconds to insert ORDERS orders of `affiliateId` and approve them (then cleared away),
   * and the fan-out trigger's own time in them, as PostgreSQL counts its function (the statements
   * run in one transaction, where `track_functions` is on and the counts are the transaction's).
   */
  async function writeOrders(affiliateId: string): Promise<{ total: number; trigger: number }> {
    const started = performance.now();
    const trigger = await prisma.$transaction(
      async (tx) => {
        await tx.$executeRaw`SET LOCAL track_functions = 'pl'`;
        await tx.$executeRaw`
          INSERT INTO "Order" ("id", "orderNumber", "affiliateId", "organizationId", "status",
            "currency", "transactionValueMinor", "commissionRateBps", "earningsMinor", "orderedAt", "sub1")
          SELECT gen_random_uuid(), 'B-' || n, ${affiliateId}::uuid, ${brand.id}::uuid, 'PENDING',
            'EUR', 1000, 500, 50, now(), 'click-' || n
          FROM generate_series(1, ${ORDERS}) AS n`;
        await tx.$executeRaw`
          UPDATE "Order" SET "status" = 'APPROVED' WHERE "affiliateId" = ${affiliateId}::uuid`;
        const [own] = await tx.$queryRaw<{ ms: number | null }[]>`
          SELECT sum("total_time")::float8 AS "ms" FROM pg_stat_xact_user_functions
          WHERE "schemaname" = ${SCHEMA} AND "funcname" = 'record_postback_deliveries'`;
        return own?.ms ?? 0;
      },
      { timeout: 600_000 },
    );
    const total = performance.now() - started;
    await prisma.$executeRaw`DELETE FROM "WebhookEvent"`;
    await prisma.$executeRaw`DELETE FROM "Order" WHERE "affiliateId" = ${affiliateId}::uuid`;
    return { total, trigger };
  }

  const cases = [
    { name: 'trigger disabled (outbox only)', on: false, affiliateId: plain.id },
    { name: 'trigger, affiliate without postbacks', on: true, affiliateId: plain.id },
    { name: `trigger, affiliate with ${POSTBACKS} postbacks`, on: true, affiliateId: tracked.id },
    { name: `trigger disabled, ${POSTBACKS} webhook endpoints`, on: false, affiliateId: hooked.id },
  ];
  const times = cases.map(() => [] as number[]);
  const triggerTimes = cases.map(() => [] as number[]);
  try {
    // A warm-up round of each, then RUNS rounds, cases alternating.
    for (let round = -1; round < RUNS; round += 1) {
      for (const [index, { on, affiliateId }] of cases.entries()) {
        await trigger(on);
        const { total, trigger: own } = await writeOrders(affiliateId);
        if (round >= 0) times[index]!.push(total);
        if (round >= 0) triggerTimes[index]!.push(own);
      }
    }
    const base = median(times[0]!);
    console.log(`${ORDERS} orders inserted, then approved (2 statements), medians of ${RUNS}:`);
    for (const [index, { name }] of cases.entries()) {
      const ms = median(times[index]!);
      const perEvent = (total: number) => ((total * 1000) / (2 * ORDERS)).toFixed(1);
      console.log(
        `  ${name}: ${ms.toFixed(0)} ms, ${perEvent(ms)} µs per order event (${(ms / base).toFixed(2)}x), of which the trigger ${perEvent(median(triggerTimes[index]!))} µs`,
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
