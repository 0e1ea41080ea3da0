// What the in-process timing benches share (reports, payouts, the order feed): their runs and
// warm-up options, the quiet and unlimited service they time, and the median they report.
import { parseArgs } from 'node:util';
import { positiveNumber } from './cli';

/** `--runs` and `--warmup` (15 and 3), and any further string options of the bench. */
export function timingOptions<Extra extends string>(extra: Record<Extra, string> = {} as never) {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '15' },
      warmup: { type: 'string', default: '3' },
      ...Object.fromEntries(
        Object.entries(extra).map(([name, value]) => [name, { type: 'string', default: value }]),
      ),
    },
  });
  const given = values as Record<string, string>;
  const number = (name: 'runs' | 'warmup' | Extra) => positiveNumber(name, given[name]!);
  return { runs: number('runs'), warmup: number('warmup'), number };
}

/**
 * Before the app is imported: no log lines, and a quota no run reaches; with `scaleData`, refuses
 * to run without the schema `npm run seed:scale` filled.
 */
export function quietService({ scaleData }: { scaleData: boolean }): void {
  process.env.LOG_LEVEL = 'silent';
  process.env.RATE_LIMIT_MAX ??= '100000';
  if (!process.env.DATABASE_URL || (scaleData && !process.env.DATABASE_SCHEMA)) {
    console.error(
      scaleData
        ? 'Set DATABASE_URL and DATABASE_SCHEMA to the scale data (npm run seed:scale).'
        : 'Set DATABASE_URL to a PostgreSQL server (a schema of its own is made there).',
    );
    process.exit(2);
  }
}

export const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** The median time of `work` in ms, over `runs` runs after `warmup` unmeasured ones. */
export async function medianTime(
  work: () => Promise<unknown>,
  { runs, warmup }: { runs: number; warmup: number },
): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < warmup + runs; run += 1) {
    const started = performance.now();
    await work();
    if (run >= warmup) times.push(performance.now() - started);
  }
  return median(times);
}

/** Drops the bench's own schema (DATABASE_SCHEMA) and migrates it anew: every run starts empty. */
export async function freshSchema(): Promise<void> {
  const pg = (await import('pg')).default;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS "${process.env.DATABASE_SCHEMA}" CASCADE`);
  await admin.end();
  const { applyMigrations } = await import('../../src/platform/migrations');
  await applyMigrations();
}
