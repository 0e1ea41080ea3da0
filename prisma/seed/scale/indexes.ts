// Secondary indexes make a bulk load several times slower once they outgrow shared_buffers: every
// row lands on random leaf pages of each index. Building an index afterwards sorts once instead.
// So the seed drops the secondary indexes of the tables it fills in bulk, keeping their
// definitions in a table, and rebuilds them when the data is in. A run interrupted in between
// leaves the definitions behind, and the next run rebuilds them when it finishes. Primary keys
// stay: foreign keys and the seed's `ON CONFLICT ("id")` rely on them.
import type { SqlConnection } from '../../../src/platform/db';

const SUSPENDED = '"_seed_scale_suspended_index"';

const CREATE_SUSPENDED_TABLE = `CREATE TABLE IF NOT EXISTS ${SUSPENDED} (
  "name" TEXT PRIMARY KEY,
  "table" TEXT NOT NULL,
  "definition" TEXT NOT NULL
)`;

/** Indexes of these tables (current schema) that neither are a primary key nor back a constraint. */
const SECONDARY_INDEXES = `
  SELECT index_class.relname AS "name", table_class.relname AS "table",
    pg_get_indexdef(index.indexrelid) AS "definition"
  FROM pg_index AS index
  JOIN pg_class AS index_class ON index_class.oid = index.indexrelid
  JOIN pg_class AS table_class ON table_class.oid = index.indrelid
  WHERE table_class.relnamespace = current_schema()::regnamespace
    AND table_class.relname = ANY($1)
    AND NOT index.indisprimary
    AND NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conindid = index.indexrelid)`;

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Drops the secondary indexes of `tables`, remembering them; answers how many were dropped. */
export async function suspendIndexes(connection: SqlConnection, tables: string[]): Promise<number> {
  await connection.exec(CREATE_SUSPENDED_TABLE);
  await connection.exec('BEGIN');
  try {
    const indexes = await connection.query<{ name: string; table: string; definition: string }>(
      SECONDARY_INDEXES,
      [tables],
    );
    for (const index of indexes) {
      await connection.query(
        `INSERT INTO ${SUSPENDED} ("name", "table", "definition") VALUES ($1, $2, $3)`,
        [index.name, index.table, index.definition],
      );
      await connection.exec(`DROP INDEX ${quoted(index.name)}`);
    }
    await connection.exec('COMMIT');
    return indexes.length;
  } catch (error) {
    await connection.exec('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Rebuilds every suspended index, each in a transaction with forgetting it. */
export async function restoreIndexes(
  connection: SqlConnection,
  log: (line: string) => void,
): Promise<void> {
  await connection.exec(CREATE_SUSPENDED_TABLE);
  const indexes = await connection.query<{ name: string; table: string; definition: string }>(
    `SELECT "name", "table", "definition" FROM ${SUSPENDED} ORDER BY "table", "name"`,
  );
  for (const index of indexes) {
    const started = performance.now();
    await connection.exec('BEGIN');
    try {
      // Sorting in memory, and an index build outlives the service's statement timeout.
      await connection.exec(
        "SET LOCAL maintenance_work_mem = '512MB'; SET LOCAL statement_timeout = 0",
      );
      await connection.exec(index.definition);
      await connection.query(`DELETE FROM ${SUSPENDED} WHERE "name" = $1`, [index.name]);
      await connection.exec('COMMIT');
    } catch (error) {
      await connection.exec('ROLLBACK').catch(() => undefined);
      throw error;
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    log(`         index ${index.name} rebuilt in ${seconds} s`);
  }
}
