// The migration applier: Prisma-compatible bookkeeping, idempotent, one applier at a time.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { config } from '../src/config';
import { withSqlConnection } from '../src/db';
import { applyMigrations, readMigrations } from '../src/migrations';
import { useTestDatabase } from './support/app';

// No beforeAll migration here: the first test is the first applier on an empty database.
useTestDatabase({ migrate: false });

test('two appliers starting at once apply each migration exactly once', async () => {
  const all = (await readMigrations()).map((migration) => migration.name);
  const [first, second] = await Promise.all([applyMigrations(), applyMigrations()]);
  expect([...first, ...second].sort()).toEqual(all);
});

test('bookkeeping matches Prisma: one finished row per migration, checksum = sha256 of the SQL', async () => {
  const rows = await withSqlConnection((connection) =>
    connection.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name',
    ),
  );
  const migrations = await readMigrations();
  expect(rows.map(({ migration_name, checksum }) => ({ migration_name, checksum }))).toEqual(
    migrations.map(({ name, checksum }) => ({ migration_name: name, checksum })),
  );
  expect(rows.every((row) => row.finished_at !== null)).toBe(true);
});

test('a second run applies nothing', async () => {
  expect(await applyMigrations()).toEqual([]);
});

const onPglite = config.databaseUrl ? test.skip : test;

onPglite(
  '`prisma migrate status` agrees with the applier on an embedded database',
  () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pglite-'));
    const { DATABASE_URL: _unused, ...inherited } = process.env;
    const env = { ...inherited, PGLITE_DATA_DIR: dataDir };
    const root = path.join(__dirname, '..');
    try {
      execFileSync('npx', ['tsx', 'scripts/migrate.ts'], { cwd: root, env, stdio: 'pipe' });
      const status = execFileSync('npx', ['prisma', 'migrate', 'status'], {
        cwd: root,
        env,
        stdio: 'pipe',
      });
      expect(status.toString()).toContain('Database schema is up to date');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
  60_000,
);

onPglite(
  'the committed migrations produce exactly prisma/schema.prisma (no drift)',
  () => {
    const root = path.join(__dirname, '..');
    // --exit-code: 0 when the migration history and the schema agree, 2 when they differ.
    execFileSync(
      'npx',
      [
        'prisma',
        'migrate',
        'diff',
        '--from-migrations',
        'prisma/migrations',
        '--to-schema-datamodel',
        'prisma/schema.prisma',
        '--exit-code',
      ],
      { cwd: root, stdio: 'pipe' },
    );
  },
  60_000,
);
