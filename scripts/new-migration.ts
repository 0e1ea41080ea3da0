// npm run migration:new -- <name>: writes prisma/migrations/<timestamp>_<name>/migration.sql with
// what prisma/schema.prisma adds to the committed history. Prisma computes the SQL, replaying the
// history on an in-memory PGlite shadow database (prisma.config.ts); `prisma migrate dev` itself
// stops at its data-loss check with the WASM engine, so this runs `prisma migrate diff` instead.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run migration:new -- <name in snake_case>');
  process.exit(2);
}

const sql = execFileSync(
  'npx',
  [
    'prisma',
    'migrate',
    'diff',
    '--from-migrations',
    'prisma/migrations',
    '--to-schema-datamodel',
    'prisma/schema.prisma',
    '--script',
  ],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
if (sql.includes('This is an empty migration')) {
  console.log('prisma/schema.prisma matches the migration history: nothing to write.');
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const folder = path.join('prisma', 'migrations', `${stamp}_${name}`);
mkdirSync(folder, { recursive: true });
writeFileSync(path.join(folder, 'migration.sql'), sql);
console.log(`Wrote ${folder}/migration.sql; run \`npx prisma generate\` and commit it.`);
