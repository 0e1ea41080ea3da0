// The migration applier: Prisma-compatible bookkeeping, idempotent, one applier at a time.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { config } from '../src/platform/config';
import { withSqlConnection } from '../src/platform/db';
import { applyMigrations, readMigrations } from '../src/platform/migrations';
import { useEmptyDatabase } from './support/app';

// No migration before the tests: the first test is the first applier on an empty database.
useEmptyDatabase();

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
const root = path.join(__dirname, '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

onPglite(
  "Prisma's schema engine (the check behind `prisma migrate status`) agrees with the applier on an embedded database",
  () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pglite-'));
    const { DATABASE_URL: _unused, ...inherited } = process.env;
    const env = { ...inherited, PGLITE_DATA_DIR: dataDir };
    try {
      execFileSync(tsx, ['scripts/migrate.ts'], { cwd: root, env, stdio: 'pipe' });
      const status = execFileSync(tsx, ['scripts/migration-status.ts'], {
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

/**
 * Runs `npm run migration:new -- <name>` in a copy of prisma/ (the committed history, and the
 * schema as `schema` gives it); answers the exit status, the output and the migrations written.
 * The diff replays the history on a throw-away PGlite: the configured database is never touched.
 */
function newMigration(name: string, schema: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'migration-new-'));
  try {
    cpSync(path.join(root, 'prisma', 'migrations'), path.join(dir, 'prisma', 'migrations'), {
      recursive: true,
    });
    writeFileSync(path.join(dir, 'prisma', 'schema.prisma'), schema);
    const run = spawnSync(tsx, [path.join(root, 'scripts', 'new-migration.ts'), name], {
      cwd: dir,
      encoding: 'utf8',
    });
    const committed = new Set(readdirSync(path.join(root, 'prisma', 'migrations')));
    const written = readdirSync(path.join(dir, 'prisma', 'migrations'))
      .filter((entry) => !committed.has(entry))
      .map((folder) => ({
        folder,
        sql: readFileSync(path.join(dir, 'prisma', 'migrations', folder, 'migration.sql'), 'utf8'),
      }));
    return { status: run.status, output: run.stdout + run.stderr, written };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const committedSchema = readFileSync(path.join(root, 'prisma', 'schema.prisma'), 'utf8');

onPglite(
  'the committed migrations produce exactly prisma/schema.prisma (no drift): migration:new refuses to write an empty migration',
  () => {
    const { status, output, written } = newMigration('nothing', committedSchema);
    expect(output).toContain('prisma/schema.prisma matches the migration history');
    expect(status).toBe(1);
    expect(written).toEqual([]);
  },
  120_000,
);

onPglite(
  'migration:new writes what a schema change adds to the history',
  () => {
    const anchor = '  clickCount     Int      @default(0)\n';
    expect(committedSchema).toContain(anchor);
    const changed = committedSchema
      .replace(anchor, `${anchor}  note           String?\n`)
      .replace(
        '  @@unique([affiliateId, dedupeKey])\n',
        '  @@unique([affiliateId, dedupeKey])\n  @@index([note])\n',
      );
    const { status, output, written } = newMigration('short_url_note', changed);
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('Wrote ') });
    expect(written).toEqual([
      {
        folder: expect.stringMatching(/^\d{14}_short_url_note$/),
        sql: [
          '-- AlterTable',
          'ALTER TABLE "ShortUrl" ADD COLUMN     "note" TEXT;',
          '',
          '-- CreateIndex',
          'CREATE INDEX "ShortUrl_note_idx" ON "ShortUrl"("note");',
          '',
        ].join('\n'),
      },
    ]);
  },
  120_000,
);
