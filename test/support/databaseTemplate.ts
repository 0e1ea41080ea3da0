// Jest's global setup: on the embedded default, one migrated database for the whole run. Each test
// file's in-memory database starts from its dump (PGLITE_TEMPLATE) instead of running initdb and
// every migration, which cost about 4 s of CPU per file. A dump is named by the migrations it
// holds, so a changed migration makes a new one; PostgreSQL runs give each file a schema instead.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default async function databaseTemplate(): Promise<void> {
  if (process.env.DATABASE_URL) return;
  // The modules below read their settings on import: the tests' own.
  process.env.NODE_ENV = 'test';
  process.env.PGLITE_DATA_DIR = 'memory://';
  process.env.DASHBOARD_JWT_SECRET ??= 'test-dashboard-secret-0123456789abcdef';
  const { migrate, readMigrations } = await import('../../src/platform/migrations');
  const { sqlConnectionOf } = await import('../../src/platform/db');
  const { openPGlite } = await import('../../src/platform/pglite');
  const migrations = await readMigrations();
  const pgliteVersion = JSON.parse(
    readFileSync(
      path.join(__dirname, '../../node_modules/@electric-sql/pglite/package.json'),
      'utf8',
    ),
  ).version;
  const name = createHash('sha256')
    .update([pgliteVersion, ...migrations.map((migration) => migration.checksum)].join())
    .digest('hex')
    .slice(0, 16);
  const file = path.join(tmpdir(), `affiliate-api-tests-${name}.tar`);
  if (!existsSync(file)) {
    const pglite = openPGlite();
    await migrate(sqlConnectionOf(pglite));
    const dump = await pglite.dumpDataDir('none');
    await pglite.close();
    // Written aside and renamed: a run beside this one never reads half a dump.
    const written = `${file}.${process.pid}`;
    writeFileSync(written, Buffer.from(await dump.arrayBuffer()));
    renameSync(written, file);
  }
  process.env.PGLITE_TEMPLATE = file;
}
