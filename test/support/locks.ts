// Locks held by a transaction of the test's own, on a connection of its own (PostgreSQL), while
// the app's statements meet them: to make requests wait at a known point, then let them go.
import { withSqlConnection, type SqlConnection } from '../../src/platform/db';
import { until } from './wait';

export interface HeldLock {
  /** The server process of the holding connection, which statements waiting for the lock name. */
  pid: number;
  /** Runs `beforeCommit` in the holding transaction (its locks still held), then commits. */
  release(beforeCommit?: (connection: SqlConnection) => Promise<unknown>): Promise<void>;
}

/** Begins a transaction, runs `lock` in it, and holds the transaction open until `release()`. */
export async function holdLock(lock: string, params: unknown[] = []): Promise<HeldLock> {
  let release!: (beforeCommit?: (connection: SqlConnection) => Promise<unknown>) => void;
  const released = new Promise<((connection: SqlConnection) => Promise<unknown>) | undefined>(
    (resolve) => (release = resolve),
  );
  let locked!: (pid: number) => void;
  const isLocked = new Promise<number>((resolve) => (locked = resolve));
  const holding = withSqlConnection(async (connection) => {
    await connection.exec('BEGIN');
    await connection.query(lock, params);
    const [{ pid }] = (await connection.query<{ pid: number }>(
      'SELECT pg_backend_pid() AS pid',
    )) as [{ pid: number }];
    locked(pid);
    const beforeCommit = await released;
    await beforeCommit?.(connection);
    await connection.exec('COMMIT');
  });
  const pid = await isLocked;
  return {
    pid,
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
  await until(
    async () => (await waiting()) >= count,
    `${count} statements waiting for a lock`,
    timeoutMs,
  );
}

/**
 * Waits until `count` statements wait for `lock` itself, whatever their text (a raw query names
 * no schema, so untilWaitingForLocks cannot tell it from another file's).
 */
export async function untilWaitingFor(
  lock: HeldLock,
  count: number,
  timeoutMs = 20_000,
): Promise<void> {
  const waiting = async () => {
    const [row] = await withSqlConnection((connection) =>
      connection.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
        [lock.pid],
      ),
    );
    return row!.count;
  };
  await until(
    async () => (await waiting()) >= count,
    `${count} statements waiting for the lock`,
    timeoutMs,
  );
}
