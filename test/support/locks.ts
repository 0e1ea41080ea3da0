// Locks held by a transaction of the test's own, on a connection of its own (PostgreSQL), while
// the app's statements meet them: to make requests wait at a known point, then let them go.
import { withSqlConnection, type SqlConnection } from '../../src/platform/db';

export interface HeldLock {
  /** Runs `beforeCommit` in the holding transaction (its locks still held), then commits. */
  release(beforeCommit?: (connection: SqlConnection) => Promise<unknown>): Promise<void>;
}

/** Begins a transaction, runs `lock` in it, and holds the transaction open until `release()`. */
export async function holdLock(lock: string, params: unknown[] = []): Promise<HeldLock> {
  let release!: (beforeCommit?: (connection: SqlConnection) => Promise<unknown>) => void;
  const released = new Promise<((connection: SqlConnection) => Promise<unknown>) | undefined>(
    (resolve) => (release = resolve),
  );
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holding = withSqlConnection(async (connection) => {
    await connection.exec('BEGIN');
    await connection.query(lock, params);
    locked();
    const beforeCommit = await released;
    await beforeCommit?.(connection);
    await connection.exec('COMMIT');
  });
  await isLocked;
  return {
    async release(beforeCommit) {
      release(beforeCommit);
      await holding;
    },
  };
}

/** Waits until `count` statements of this test file's schema wait for a lock. */
export async function untilWaitingForLocks(count: number, timeoutMs = 20_000): Promise<void> {
  const waiting = async () => {
    const [row] = await withSqlConnection((connection) =>
      connection.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM pg_stat_activity
         WHERE wait_event_type = 'Lock' AND query LIKE '%' || current_schema() || '%'`,
      ),
    );
    return row!.count;
  };
  const deadline = Date.now() + timeoutMs;
  while ((await waiting()) < count) {
    if (Date.now() > deadline) throw new Error(`${count} statements never waited for a lock`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
