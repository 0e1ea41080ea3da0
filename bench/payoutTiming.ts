// Balances, the ledger and payouts at scale (npm run seed:scale data): how long the big account's
// balance, its ledger entries (all, and one order's clawbacks), its payouts and the first page of
// its largest payout's items (orders and entries) take through the whole route (createApp, its
// key, REST). Medians over --runs runs after --warmup.
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres DATABASE_SCHEMA=bench_scale \
//     npx tsx bench/payoutTiming.ts
//
// Target: each well under 50 ms at the median. A benchmark, not a test.
import { medianTime, quietService, timingOptions } from './support/routeTiming';

const options = timingOptions();
const TARGET_MS = 50;
quietService({ scaleData: true });

async function main(): Promise<void> {
  const { createApp } = await import('../src/app');
  const { DEMO } = await import('../prisma/seed/demo');
  const { prisma, closeDatabase } = await import('../src/platform/db');
  const app = createApp({ redis: null, responseCacheTtlSeconds: 0 });
  try {
    const largest = await prisma.payout.findFirst({
      where: { affiliateId: DEMO.users.affiliate },
      orderBy: { itemCount: 'desc' },
      select: { id: true, itemCount: true },
    });
    const clawback = await prisma.earning.findFirst({
      where: { affiliateId: DEMO.users.affiliate, kind: 'CLAWBACK' },
      select: { orderId: true },
    });
    if (!largest || !clawback) {
      throw new Error('the big account has no payouts or entries: run npm run seed:scale');
    }
    const cases = [
      { name: 'the balance', path: '/affiliate/balance' },
      { name: 'the ledger entries, first page', path: '/affiliate/earnings' },
      { name: 'the CPC entries, first page', path: '/affiliate/earnings?kind=CPC' },
      {
        name: "an order's clawbacks",
        path: `/affiliate/earnings?orderId=${clawback.orderId}`,
      },
      { name: 'the payouts, first page', path: '/affiliate/payouts' },
      {
        name: `the largest payout's items (${largest.itemCount}), first page`,
        path: `/affiliate/payouts/${largest.id}/items`,
      },
      {
        name: `the largest payout's items, first page as CSV`,
        path: `/affiliate/payouts/${largest.id}/items`,
        accept: 'text/csv',
      },
    ];
    for (const { name, path, accept } of cases) {
      const ms = await medianTime(async () => {
        const response = await app.fetch(`http://bench.test${path}`, {
          headers: { 'x-api-key': DEMO.keys.affiliate, ...(accept && { accept }) },
        });
        const text = await response.text();
        if (response.status !== 200) throw new Error(`${name}: ${response.status} ${text}`);
      }, options);
      console.log(
        `${name}: ${ms.toFixed(1)} ms median${ms < TARGET_MS ? '' : ` (above ${TARGET_MS} ms)`}`,
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
