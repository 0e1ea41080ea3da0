// npm run rules:print: migrates a fresh in-memory database and writes its triggers and functions to
// prisma/rules.sql, so a change to the money rules shows in review as the rule itself;
// test/database-rules.test.ts fails when the committed file is stale.
import { writeFileSync } from 'node:fs';

async function main(): Promise<void> {
  // Never the configured database: the dump is of the committed migrations alone.
  delete process.env.DATABASE_URL;
  process.env.PGLITE_DATA_DIR = 'memory://';
  const { closeDatabase, withSqlConnection } = await import('../src/platform/db');
  const { applyMigrations } = await import('../src/platform/migrations');
  const { databaseRules, RULES_FILE } = await import('../src/platform/databaseRules');
  await applyMigrations();
  writeFileSync(RULES_FILE, await withSqlConnection(databaseRules));
  await closeDatabase();
  console.log(`Wrote ${RULES_FILE}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
