// The migration applier's bookkeeping: which committed migrations are still to apply, and the
// refusal of a history that was edited or left half-applied.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  MIGRATIONS_DIR,
  MigrationError,
  migrationChecksum,
  pendingMigrations,
  readMigrations,
  type Migration,
} from '../../src/platform/migrations';

type AppliedRow = Parameters<typeof pendingMigrations>[1][number];

function migration(name: string, sql = `-- ${name}\nSELECT 1;\n`): Migration {
  return { name, sql, checksum: migrationChecksum(sql) };
}

function applied(of: Migration, overrides: Partial<AppliedRow> = {}): AppliedRow {
  return {
    migration_name: of.name,
    checksum: of.checksum,
    finished_at: new Date('2026-01-01T00:00:00Z'),
    rolled_back_at: null,
    ...overrides,
  };
}

const first = migration('20260101000000_init');
const second = migration('20260201000000_add_orders');
const third = migration('20260301000000_add_links');
const all = [first, second, third];

function names(migrations: Migration[]): string[] {
  return migrations.map((each) => each.name);
}

function refusal(run: () => unknown): MigrationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(MigrationError);
    return error as MigrationError;
  }
  throw new Error('accepted');
}

describe('pendingMigrations', () => {
  test('a fresh database: every migration, in order', () => {
    expect(names(pendingMigrations(all, []))).toEqual([first.name, second.name, third.name]);
  });

  test('returns only the migrations not applied yet, in order', () => {
    expect(names(pendingMigrations(all, [applied(first)]))).toEqual([second.name, third.name]);
  });

  test('returns the whole migration objects, SQL included', () => {
    expect(pendingMigrations(all, [applied(first), applied(second)])).toEqual([third]);
  });

  test('an up-to-date database: nothing to apply', () => {
    expect(pendingMigrations(all, [applied(third), applied(first), applied(second)])).toEqual([]);
  });

  test('a rolled-back migration is applied again', () => {
    const rows = [
      applied(first),
      applied(second, { rolled_back_at: new Date('2026-02-02T00:00:00Z') }),
    ];
    expect(names(pendingMigrations(all, rows))).toEqual([second.name, third.name]);
  });

  test('a rolled-back row does not count against an edited migration', () => {
    const rows = [
      applied(first, {
        checksum: 'f'.repeat(64),
        rolled_back_at: new Date('2026-01-02T00:00:00Z'),
      }),
    ];
    expect(names(pendingMigrations(all, rows))).toEqual([first.name, second.name, third.name]);
  });

  test('a rolled-back failed attempt does not block a later successful one', () => {
    const rows = [
      applied(first, { finished_at: null, rolled_back_at: new Date('2026-01-02T00:00:00Z') }),
      applied(first),
    ];
    expect(names(pendingMigrations(all, rows))).toEqual([second.name, third.name]);
  });

  test('a half-applied migration (finished_at null) is refused', () => {
    const error = refusal(() =>
      pendingMigrations(all, [applied(first), applied(second, { finished_at: null })]),
    );
    expect(error.message).toBe(`migration ${second.name} failed earlier; resolve it first`);
  });

  test('a migration edited after it was applied is refused', () => {
    const error = refusal(() =>
      pendingMigrations(all, [applied(first, { checksum: migrationChecksum('-- before') })]),
    );
    expect(error.message).toBe(`migration ${first.name} was edited after it was applied`);
  });
});

describe('migrationChecksum', () => {
  test('is the SHA-256 hex of the SQL, as Prisma records it', () => {
    expect(migrationChecksum('')).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  test('hashes the SQL as UTF-8', () => {
    const sql = "COMMENT ON TABLE t IS 'café';\n";
    expect(migrationChecksum(sql)).toBe(
      createHash('sha256').update(Buffer.from(sql, 'utf8')).digest('hex'),
    );
  });

  test('changes with any edit, whitespace included', () => {
    expect(migrationChecksum('SELECT 1;')).not.toBe(migrationChecksum('SELECT 1; '));
  });
});

describe('readMigrations', () => {
  test('reads every committed migration folder, sorted by name', async () => {
    const folders = (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const migrations = await readMigrations();
    expect(folders.length).toBeGreaterThan(0);
    expect(names(migrations)).toEqual(folders);
    expect(names(migrations)).toContain('20261121195750_init');
  });

  test('each committed migration carries its SQL and its 64-hex checksum', async () => {
    for (const each of await readMigrations()) {
      const sql = await readFile(path.join(MIGRATIONS_DIR, each.name, 'migration.sql'), 'utf8');
      expect(each.sql).toBe(sql);
      expect(each.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(each.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
    }
  });

  describe('in a folder of its own', () => {
    let dir: string;

    beforeEach(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
      for (const [name, sql] of [
        ['20260301000000_c', 'SELECT 3;'],
        ['20260101000000_a', 'SELECT 1;'],
        ['20260201000000_b', 'SELECT 2;'],
      ] as const) {
        await mkdir(path.join(dir, name));
        await writeFile(path.join(dir, name, 'migration.sql'), sql);
      }
      await writeFile(path.join(dir, 'migration_lock.toml'), 'provider = "postgresql"\n');
    });

    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    test('sorts folders by name and skips plain files', async () => {
      expect(await readMigrations(dir)).toEqual([
        migration('20260101000000_a', 'SELECT 1;'),
        migration('20260201000000_b', 'SELECT 2;'),
        migration('20260301000000_c', 'SELECT 3;'),
      ]);
    });
  });
});
