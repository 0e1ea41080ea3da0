// The performance report at scale (npm run seed:scale data): how long the big account's reports
// take, through the whole route (createApp, its key, REST) and as the report's statement alone,
// with the plan of a statement over the target. Medians over --runs runs after --warmup.
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres DATABASE_SCHEMA=bench_scale \
//     npx tsx bench/reportTiming.ts
//
// Target: every one-month report (by day, brand, campaign, link, coupon and sub-ID, in UTC and in
// a time zone, by each order date) and a year by day under 50 ms at the median. A benchmark, not a
// test.
import type { OrderDateName } from '../src/modules/orders/dates';
import type { ReportGroup } from '../src/modules/reports/performanceRows';
import { medianTime, quietService, timingOptions } from './support/routeTiming';

const options = timingOptions();
const TARGET_MS = 50;
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
  type Case = {
    groupBy: ReportGroup;
    days: number;
    limit: number;
    timezone?: string;
    dateType?: OrderDateName;
  };
  const month = (groupBy: ReportGroup, more: Partial<Case> = {}): Case => ({
    groupBy,
    days: 30,
    limit: 31,
    ...more,
  });
  const cases: Case[] = [
    { groupBy: 'day', days: 365, limit: 366 },
    ...(['day', 'brand', 'campaign', 'link', 'coupon', 'sub1'] as const).flatMap((groupBy) => [
      month(groupBy),
      month(groupBy, { timezone: 'Europe/Berlin' }),
    ]),
    { groupBy: 'sub2', days: 365, limit: 31 },
    month('day', { dateType: 'updated' }),
    month('day', { dateType: 'locked' }),
    month('brand', { dateType: 'locked' }),
    month('sub1', { dateType: 'locked' }),
  ];
  const nameOf = ({ groupBy, days, timezone, dateType }: Case) =>
    `${days > 31 ? 'a year' : 'a month'} by ${groupBy}` +
    (timezone ? ` in ${timezone}` : '') +
    (dateType ? `, dateType=${dateType}` : '');
  try {
    for (const entry of cases) {
      const { groupBy, days, limit, timezone = 'UTC', dateType = 'ordered' } = entry;
      const name = nameOf(entry);
      const startAt = new Date(now.getTime() - days * DAY_MS);
      const query =
        `groupBy=${groupBy}&startAt=${startAt.toISOString()}&endAt=${now.toISOString()}` +
        `&limit=${limit}&timezone=${timezone}&dateType=${dateType}`;
      const url = `http://bench.test/affiliate/reports/performance?${query}`;
      let body: { data: unknown[]; meta: { total: number } } | undefined;
      const route = await medianTime(async () => {
        const response = await app.fetch(url, { headers: { 'x-api-key': DEMO.keys.affiliate } });
        body = (await response.json()) as typeof body;
        if (response.status !== 200)
          throw new Error(`${name}: ${response.status} ${JSON.stringify(body)}`);
      }, options);
      const statement = reportStatement(
        {
          affiliateId: SCALE.users.bigAffiliate,
          groupBy,
          dateType,
          period: reportPeriod(startAt, now, now),
          timezone,
        },
        { page: 1, limit, skip: 0 },
      );
      const sql = await medianTime(
        () =>
          prisma.$transaction([
            prisma.$queryRaw`SELECT ${REPORT_SETTINGS}`,
            prisma.$queryRaw(statement),
          ]),
        options,
      );
      const verdict = route < TARGET_MS ? 'under' : 'OVER';
      console.log(
        `${name}: route median ${route.toFixed(1)} ms (${verdict} ${TARGET_MS} ms), ` +
          `statement median ${sql.toFixed(1)} ms; ${body!.meta.total} rows, ${body!.data.length} on the page`,
      );
      if (verdict === 'under') continue;
      const [, plan] = await prisma.$transaction([
        prisma.$queryRaw`SELECT ${REPORT_SETTINGS}`,
        prisma.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
          `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`,
          ...statement.values,
        ),
      ]);
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
