// npm run migration:new -- <name>: writes prisma/migrations/<timestamp>_<name>/migration.sql with
// what prisma/schema.prisma adds to the committed history. Prisma's WebAssembly schema engine
// computes the SQL: it replays the history on a throw-away PGlite and diffs it with the schema
// (scripts/schema-engine.ts). Paths are relative to the working directory.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { migrationDiff } from './schema-engine';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run migration:new -- <name in snake_case>');
  process.exit(2);
}

const migrationsDir = path.join('prisma', 'migrations');

async function main(): Promise<void> {
  const sql = await migrationDiff({
    migrationsDir,
    schemaPath: path.join('prisma', 'schema.prisma'),
  });
  if (sql === undefined) {
    console.error(
      'prisma/schema.prisma matches the migration history: no migration written. Change the schema first.',
    );
    process.exit(1);
  }
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const folder = path.join(migrationsDir, `${stamp}_${name}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'migration.sql'), sql);
  console.log(`Wrote ${folder}/migration.sql; run \`npm run generate\` and commit it.`);
}

main().catch((error: unknown) => {
  console.error(`migration:new failed: ${(error as Error).message}`);
  process.exit(1);
});
