// npm run seed:scale: fills a PostgreSQL schema with the network at scale (prisma/seed/scale):
// pending migrations, the demo data, the scale data, then VACUUM (ANALYZE) of the schema and the
// row counts.
// Safe to run again: each part skips what is there, and an interrupted run resumes where it stopped.
import { availableParallelism } from 'node:os';
import { config } from '../src/platform/config';

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  console.log(`${label}: ${seconds(started)}`);
  return result;
}

async function main(): Promise<void> {
  const started = performance.now();
  // Imported only now: with no DATABASE_URL, src/platform/db.ts would open the embedded database.
  const { closeDatabase, prisma, withSqlConnection } = await import('../src/platform/db');
  const { applyMigrations } = await import('../src/platform/migrations');
  const { refuseDemoDataInProduction, seedDemoData } = await import('../prisma/seed/demo');
  const { SCALE_TABLES, seedScaleData } = await import('../prisma/seed/scale');
  try {
    refuseDemoDataInProduction();
    console.log(`seed:scale into schema "${config.databaseSchema}"`);
    const applied = await timed('migrations', () => applyMigrations());
    if (applied.length) console.log(`  applied ${applied.join(', ')}`);
    await timed('demo data', () => seedDemoData(prisma));
    await timed('scale data', () =>
      seedScaleData({
        withConnection: withSqlConnection,
        concurrency: availableParallelism(),
        log: (line) => console.log(line),
      }),
    );
    const tables = SCALE_TABLES.map((table) => `"${table}"`);
    const counts = await withSqlConnection(async (connection) => {
      // Both outlast the service's statement timeout on this pool's connections.
      await connection.exec('SET statement_timeout = 0');
      // VACUUM too: it sets the visibility map (index-only scans), and it would otherwise be
      // autovacuum's work in the middle of the first benchmark. Every table of the schema, those
      // the triggers filled too (each affiliate's coupons, the rollups): where autovacuum is off
      // or behind, a table never analyzed is planned as if it were nearly empty.
      const everyTable = await connection.query<{ name: string }>(
        'SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = current_schema()',
      );
      await timed('VACUUM (ANALYZE)', () =>
        connection.exec(`VACUUM (ANALYZE) ${everyTable.map(({ name }) => name).join(', ')}`),
      );
      const columns = tables.map((table) => `(SELECT count(*) FROM ${table})::int AS ${table}`);
      const [row] = await connection.query<Record<string, number>>(`SELECT ${columns.join(', ')}`);
      await connection.exec('RESET statement_timeout');
      return row ?? {};
    });
    for (const [table, count] of Object.entries(counts)) {
      console.log(`${table.padEnd(24)}${count.toLocaleString('en').padStart(12)}`);
    }
    console.log(`seed:scale done in ${seconds(started)}`);
  } finally {
    await closeDatabase();
  }
}

if (!config.databaseUrl) {
  console.error(
    'seed:scale writes millions of rows and needs PostgreSQL: set DATABASE_URL=postgresql://... ' +
      '(and DATABASE_SCHEMA to choose the schema, default public).',
  );
  process.exitCode = 1;
} else {
  main().catch((error: unknown) => {
    console.error('seed:scale failed:', error);
    process.exitCode = 1;
  });
}
