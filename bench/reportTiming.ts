// The performance report at scale (npm run seed:scale data): how long the big account's reports
// take, through the whole route (createApp, its key, REST) and as the report's statement alone,
// with the statement's plan. Medians over --runs runs after --warmup.
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres DATABASE_SCHEMA=bench_scale \
//     npx tsx bench/reportTiming.ts
//
// Target: a year by day, a month by link and a month by sub1 under 100 ms at the median. A
// benchmark, not a test.
import { median, quietService, timingOptions } from './support/routeTiming';

const { runs: RUNS, warmup: WARMUP } = timingOptions();
const TARGET_MS = 100;
const DAY_MS = 86_400_000;
// Every run of every report in one quota window.
quietService({ scaleData: true });

async function main(): Promise<void> {
  const { createApp } = await import('../src/app');
  const { DEMO } = await import('../prisma/seed/demo');
  const { SCALE } = await import('../prisma/seed/scale');
  const { prisma, closeDatabase } = await import('../src/platform/db');
  const { REPORT_SETTINGS, reportStatement } =
    await import('../src/modules/reports/performanceRows');
  const { reportPeriod } = await import('../src/modules/reports/range');
  const app = createApp({ redis: null, responseCacheTtlSeconds: 0 });
  const now = new Date();
  const cases = [
    { name: 'a year by day', groupBy: 'day' as const, days: 365, limit: 366 },
    { name: 'a month by link', groupBy: 'link' as const, days: 30, limit: 31 },
    { name: 'a month by brand', groupBy: 'brand' as const, days: 30, limit: 31 },
    { name: 'a month by campaign', groupBy: 'campaign' as const, days: 30, limit: 31 },
    { name: 'a month by sub1', groupBy: 'sub1' as const, days: 30, limit: 31 },
    { name: 'a year by sub2', groupBy: 'sub2' as const, days: 365, limit: 31 },
  ];
  try {
    for (const { name, groupBy, days, limit } of cases) {
      const startAt = new Date(now.getTime() - days * DAY_MS);
      const query = `groupBy=${groupBy}&startAt=${startAt.toISOString()}&endAt=${now.toISOString()}&limit=${limit}`;
      const url = `http://bench.test/affiliate/reports/performance?${query}`;
      const route: number[] = [];
      let body: { data: unknown[]; meta: { total: number } } | undefined;
      for (let run = 0; run < WARMUP + RUNS; run += 1) {
        const started = performance.now();
        const response = await app.fetch(url, { headers: { 'x-api-key': DEMO.keys.affiliate } });
        body = (await response.json()) as typeof body;
        if (response.status !== 200)
          throw new Error(`${name}: ${response.status} ${JSON.stringify(body)}`);
        if (run >= WARMUP) route.push(performance.now() - started);
      }
      const statement = reportStatement(
        {
          affiliateId: SCALE.users.bigAffiliate,
          groupBy,
          period: reportPeriod(startAt, now, now),
          timezone: 'UTC',
        },
        { page: 1, limit, skip: 0 },
      );
      const sql: number[] = [];
      for (let run = 0; run < WARMUP + RUNS; run += 1) {
        const started = performance.now();
        await prisma.$transaction([
          prisma.$queryRaw`SELECT ${REPORT_SETTINGS}`,
          prisma.$queryRaw(statement),
        ]);
        if (run >= WARMUP) sql.push(performance.now() - started);
      }
      const [, plan] = await prisma.$transaction([
        prisma.$queryRaw`SELECT ${REPORT_SETTINGS}`,
        prisma.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
          `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`,
          ...statement.values,
        ),
      ]);
      const verdict = median(route) < TARGET_MS ? 'under' : 'OVER';
      console.log(
        `\n## ${name}: route median ${median(route).toFixed(1)} ms (${verdict} ${TARGET_MS} ms), ` +
          `statement median ${median(sql).toFixed(1)} ms; ${body!.meta.total} rows, ${body!.data.length} on the page`,
      );
      console.log(plan.map((row) => row['QUERY PLAN']).join('\n'));
    }
  } finally {
    await closeDatabase();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
