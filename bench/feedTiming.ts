// The order-event feed at scale (npm run seed:scale data): GET /affiliate/order-events of the big
// account (about 2.2 million events) through the whole route (createApp, the demo key, REST), its
// first page and a page --depth pages of 500 in, with `finalThrough`; beside each, what its two
// statements take alone (the page's events, the watermark). Medians of --runs after --warmup.
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres DATABASE_SCHEMA=bench_scale \
//     npx tsx bench/feedTiming.ts
//
// Target: both pages well under 50 ms at the median. A benchmark, not a test.
import { medianTime, quietService, timingOptions } from './support/routeTiming';

const options = timingOptions({ depth: '500' });
const DEPTH = options.number('depth');
const PAGE = 500;

quietService({ scaleData: true });

async function main(): Promise<void> {
  const { prisma, closeDatabase } = await import('../src/platform/db');
  const { DEMO } = await import('../prisma/seed/demo');
  const { SCALE } = await import('../prisma/seed/scale');
  const { finalThroughOf } = await import('../src/modules/orders/lifecycle');
  const { createApp } = await import('../src/app');
  const affiliateId = SCALE.users.bigAffiliate;
  const app = createApp({ redis: null, responseCacheTtlSeconds: 0 });
  try {
    const events = await prisma.orderEvent.count({ where: { affiliateId } });
    if (events < (DEPTH + 1) * PAGE) {
      throw new Error(`the big account has ${events} order events: run npm run seed:scale`);
    }
    const first = await prisma.orderEvent.findFirst({
      where: { affiliateId },
      orderBy: { number: 'asc' },
      select: { number: true },
    });
    const cases = [
      { name: 'the first page', after: '' },
      {
        name: `a page ${DEPTH} pages in`,
        after: String(first!.number - 1n + BigInt(DEPTH * PAGE)),
      },
    ];
    for (const { name, after } of cases) {
      const url = `http://bench.test/affiliate/order-events?limit=${PAGE}&after=${after}`;
      let body: { data: unknown[]; next: string; finalThrough: string } | undefined;
      const route = await medianTime(async () => {
        const response = await app.fetch(url, { headers: { 'x-api-key': DEMO.keys.affiliate } });
        body = (await response.json()) as typeof body;
        if (response.status !== 200) throw new Error(`${name}: ${JSON.stringify(body)}`);
      }, options);
      const page = await medianTime(
        () =>
          prisma.orderEvent.findMany({
            where: { affiliateId, number: { gt: BigInt(after || 0) } },
            orderBy: { number: 'asc' },
            take: PAGE + 1,
          }),
        options,
      );
      const watermark = await medianTime(() => finalThroughOf(affiliateId), options);
      console.log(
        `${name} (after=${after || 'none'}): route median ${route.toFixed(1)} ms ` +
          `(the events' statement ${page.toFixed(1)} ms, finalThrough ${watermark.toFixed(1)} ms); ` +
          `${body!.data.length} events, next ${body!.next}, finalThrough ${body!.finalThrough}`,
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
