// Steps, their batches and the progress table. Each batch is one transaction that also records
// itself in the progress table, so a batch is written exactly once: a second run skips every
// recorded batch, and a run resumed after an interruption writes only the missing ones. The table
// also keeps the anchor day of the first run, so resumed batches date their rows from that day.
import type { SqlConnection } from '../../../src/platform/db';
import type { Sql } from './sql';

export interface Step {
  /** Names the step in progress lines and in the progress table. */
  name: string;
  /** The tables it fills. */
  tables: string[];
  /** The step inserts ordinals 0 .. units - 1, batchSize of them per statement. */
  units: number;
  batchSize: number;
  /** Steps whose rows this one references: all their batches run first. */
  after: string[];
  /** Inserts the ordinals [$1, $2) and answers one row: the rows inserted, per table. */
  sql: Sql;
  /**
   * Triggers off while a batch writes (back on before it commits), by table: all of the table's
   * own (`'USER'`) or the ones named. For rows consistent by construction that the triggers would
   * refuse, count twice or write one row at a time.
   */
  triggersOff?: Record<string, 'USER' | string[]>;
}

export interface Batch {
  step: Step;
  index: number;
  /** Batches in the step. */
  count: number;
  first: number;
  end: number;
}

export function batchesOf(step: Step): Batch[] {
  const count = Math.ceil(step.units / step.batchSize);
  return Array.from({ length: count }, (_, index) => ({
    step,
    index,
    count,
    first: index * step.batchSize,
    end: Math.min(step.units, (index + 1) * step.batchSize),
  }));
}

const PROGRESS_TABLE = '"_seed_scale_progress"';

const CREATE_PROGRESS_TABLE = `CREATE TABLE IF NOT EXISTS ${PROGRESS_TABLE} (
  "step" TEXT NOT NULL,
  "batch" INTEGER NOT NULL,
  "rows" INTEGER NOT NULL,
  "anchor" DATE NOT NULL,
  "finishedAt" TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY ("step", "batch")
)`;

export interface Progress {
  /** The first run's anchor day (UTC midnight), or today's on a first run. */
  anchor: Date;
  /** `step:batch` of every batch already written. */
  done: Set<string>;
}

const batchKey = (step: string, batch: number) => `${step}:${batch}`;

export function isWritten(batch: Batch, progress: Progress): boolean {
  return progress.done.has(batchKey(batch.step.name, batch.index));
}

/** Whether a step still has batches to write. */
export function isPending(step: Step, progress: Progress): boolean {
  return batchesOf(step).some((batch) => !isWritten(batch, progress));
}

function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

export async function readProgress(connection: SqlConnection, today: Date): Promise<Progress> {
  await connection.exec(CREATE_PROGRESS_TABLE);
  const rows = await connection.query<{ step: string; batch: number; anchor: string }>(
    `SELECT "step", "batch", "anchor"::text AS "anchor" FROM ${PROGRESS_TABLE}`,
  );
  const recorded = rows[0]?.anchor;
  const anchor = recorded ? new Date(`${recorded}T00:00:00Z`) : startOfUtcDay(today);
  return { anchor, done: new Set(rows.map((row) => batchKey(row.step, row.batch))) };
}

function triggerSwitches(off: NonNullable<Step['triggersOff']>) {
  return Object.entries(off).flatMap(([table, triggers]) =>
    triggers === 'USER'
      ? [{ table, trigger: 'USER' }]
      : triggers.map((name) => ({ table, trigger: `"${name}"` })),
  );
}

/** Inserts one batch and records it, in one transaction; answers the rows per table. */
export async function writeBatch(
  connection: SqlConnection,
  batch: Batch,
  anchor: Date,
): Promise<Record<string, number>> {
  await connection.exec('BEGIN');
  try {
    // A batch outlives the service's statement timeout. JIT would spend longer compiling the
    // generated expressions than running them (37 s of 42 s for 50,000 short URLs). Without a
    // synchronous commit a crash may lose the last batches, but only whole, with their progress.
    await connection.exec(
      'SET LOCAL statement_timeout = 0; SET LOCAL jit = off; SET LOCAL synchronous_commit = off',
    );
    const triggersOff = triggerSwitches(batch.step.triggersOff ?? {});
    for (const { table, trigger } of triggersOff)
      await connection.exec(`ALTER TABLE "${table}" DISABLE TRIGGER ${trigger}`);
    const [rows = {}] = await connection.query<Record<string, number>>(batch.step.sql, [
      batch.first,
      batch.end,
    ]);
    for (const { table, trigger } of triggersOff)
      await connection.exec(`ALTER TABLE "${table}" ENABLE TRIGGER ${trigger}`);
    const total = Object.values(rows).reduce((sum, count) => sum + count, 0);
    await connection.query(
      `INSERT INTO ${PROGRESS_TABLE} ("step", "batch", "rows", "anchor") VALUES ($1, $2, $3, $4)`,
      [batch.step.name, batch.index, total, anchor.toISOString().slice(0, 10)],
    );
    await connection.exec('COMMIT');
    return rows;
  } catch (error) {
    await connection.exec('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
