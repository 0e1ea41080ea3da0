// Applies the committed Prisma migrations to PGlite and PostgreSQL alike. Prisma's own applier
// cannot drive a PostgreSQL server through the WASM schema engine (prisma/orm#27403), so this one
// keeps Prisma's `_prisma_migrations` bookkeeping (same checksums) and `prisma migrate status` agrees.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { config } from './config';
import { withSqlConnection, type SqlConnection } from './db';

/** The nearest `prisma/migrations` above `from`: the source tree's (src/platform) or the bundle's (dist). */
function migrationsDirAbove(from: string): string {
  for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'prisma', 'migrations');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`No prisma/migrations folder above ${from}`);
}

export const MIGRATIONS_DIR = migrationsDirAbove(__dirname);

// Any constant shared by every replica: two replicas starting at once apply migrations one at a time.
const MIGRATION_LOCK_ID = 72_707_369;

const BOOKKEEPING_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

interface AppliedMigration {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export class MigrationError extends Error {}

export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql).digest('hex');
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: migrationChecksum(sql) };
    }),
  );
}

/** The migrations still to apply, in order; refuses a history that was edited or left half-applied. */
export function pendingMigrations(all: Migration[], applied: AppliedMigration[]): Migration[] {
  const byName = new Map(
    applied.filter((row) => row.rolled_back_at === null).map((row) => [row.migration_name, row]),
  );
  return all.filter((migration) => {
    const row = byName.get(migration.name);
    if (!row) return true;
    if (row.finished_at === null) {
      throw new MigrationError(`migration ${migration.name} failed earlier; resolve it first`);
    }
    if (row.checksum !== migration.checksum) {
      throw new MigrationError(`migration ${migration.name} was edited after it was applied`);
    }
    return false;
  });
}

async function applyOne(connection: SqlConnection, migration: Migration): Promise<void> {
  await connection.exec('BEGIN');
  try {
    // Migrations may take longer than a request may: lift the pool's statement timeout here.
    await connection.exec('SET LOCAL statement_timeout = 0');
    await connection.exec(migration.sql);
    await connection.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), now(), 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await connection.exec('COMMIT');
  } catch (error) {
    await connection.exec('ROLLBACK');
    throw new MigrationError(`migration ${migration.name} failed: ${(error as Error).message}`);
  }
}

/** Applies pending migrations over `connection` under an advisory lock; returns the names applied. */
export async function migrate(connection: SqlConnection): Promise<string[]> {
  const migrations = await readMigrations();
  // Raw queries cannot return a void column, hence ::text.
  await connection.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_ID})::text`);
  try {
    await connection.exec(`CREATE SCHEMA IF NOT EXISTS "${config.databaseSchema}"`);
    await connection.exec(BOOKKEEPING_TABLE);
    const applied = await connection.query<AppliedMigration>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"',
    );
    const pending = pendingMigrations(migrations, applied);
    for (const migration of pending) await applyOne(connection, migration);
    return pending.map((migration) => migration.name);
  } finally {
    await connection.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_ID})::text`);
  }
}

/** Applies pending migrations to the configured database; returns the names applied. */
export function applyMigrations(): Promise<string[]> {
  return withSqlConnection((connection) => migrate(connection));
}
