// npm run migration:status: what Prisma's schema engine finds comparing the embedded database's
// `_prisma_migrations` with prisma/migrations (the check behind `prisma migrate status`, whose
// Prisma 7 CLI needs the native engine). Embedded PGlite only (PGLITE_DATA_DIR); exits 1 unless
// every migration is applied, unedited and finished.
import path from 'node:path';
import { config } from '../src/platform/config';
import { openPGlite } from '../src/platform/pglite';
import { migrationStatus } from './schema-engine';

async function main(): Promise<boolean> {
  if (config.databaseUrl) {
    console.error('migration:status reads the embedded database: unset DATABASE_URL');
    return false;
  }
  const pglite = openPGlite(config.pgliteDataDir);
  try {
    const status = await migrationStatus({
      pglite,
      migrationsDir: path.join(__dirname, '..', 'prisma', 'migrations'),
    });
    const problems = [
      ...(status.hasMigrationsTable ? [] : ['no _prisma_migrations table']),
      ...(status.history
        ? [`${status.history.diagnostic}: ${JSON.stringify(status.history)}`]
        : []),
      ...status.failedMigrationNames.map((name) => `failed: ${name}`),
      ...status.editedMigrationNames.map((name) => `edited after it was applied: ${name}`),
    ];
    console.log(problems.length ? problems.join('\n') : 'Database schema is up to date');
    return problems.length === 0;
  } finally {
    await pglite.close();
  }
}

main().then(
  (upToDate) => process.exit(upToDate ? 0 : 1),
  (error: unknown) => {
    console.error(`migration:status failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
