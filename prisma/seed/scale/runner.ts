// Runs the steps' missing batches on a few connections at once, each batch as soon as the steps
// it runs after are complete, and reports every batch and every finished step with its rows/s.
import type { SqlConnection } from '../../../src/platform/db';
import { batchesOf, isWritten, writeBatch, type Batch, type Progress, type Step } from './batches';

export type WithConnection = <T>(work: (connection: SqlConnection) => Promise<T>) => Promise<T>;

export interface RunOptions {
  withConnection: WithConnection;
  concurrency: number;
  log: (line: string) => void;
}

export interface StepReport {
  name: string;
  batches: number;
  /** Batches a previous run had written. */
  skipped: number;
  rows: Record<string, number>;
  /** Time spent in this step's statements (several steps may run at once). */
  seconds: number;
}

/** A promise the workers wait on until some batch finishes (or fails). */
function signal() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** The batches still to write, handed out in step order once their steps-before are complete. */
class BatchQueue {
  private readonly pending: Batch[];
  private readonly unfinished = new Map<string, number>();
  private changed = signal();

  constructor(steps: Step[], progress: Progress) {
    // Each step runs after earlier steps only, so no step can wait on itself.
    steps.forEach((step, index) => {
      const earlier = steps.slice(0, index).map((other) => other.name);
      const unknown = step.after.filter((name) => !earlier.includes(name));
      if (unknown.length) throw new Error(`scale seed: ${step.name} runs after ${unknown}`);
    });
    this.pending = steps.flatMap(batchesOf).filter((batch) => !isWritten(batch, progress));
    for (const step of steps) {
      this.unfinished.set(step.name, this.pending.filter((b) => b.step === step).length);
    }
  }

  get isEmpty(): boolean {
    return this.pending.length === 0;
  }

  /** The next batch to write, once one is ready; undefined when none is left or the run failed. */
  async take(hasFailed: () => boolean): Promise<Batch | undefined> {
    while (!hasFailed() && this.pending.length > 0) {
      const index = this.pending.findIndex((batch) =>
        batch.step.after.every((name) => this.unfinished.get(name) === 0),
      );
      if (index !== -1) return this.pending.splice(index, 1)[0];
      await this.changed.promise;
    }
    return undefined;
  }

  /** Answers how many batches of the step are left. */
  settle(batch: Batch, written: boolean): number {
    const left = this.unfinished.get(batch.step.name)! - (written ? 1 : 0);
    this.unfinished.set(batch.step.name, left);
    const wake = this.changed;
    this.changed = signal();
    wake.resolve();
    return left;
  }
}

const total = (rows: Record<string, number>) =>
  Object.values(rows).reduce((sum, count) => sum + count, 0);

function describe(rows: Record<string, number>, seconds: number): string {
  const tables = Object.entries(rows).map(([table, n]) => `${n.toLocaleString('en')} ${table}`);
  const rate = seconds > 0 ? Math.round(total(rows) / seconds).toLocaleString('en') : '-';
  return `${tables.join(', ') || 'nothing'} in ${seconds.toFixed(1)} s (${rate} rows/s)`;
}

function newReport(step: Step, progress: Progress): StepReport {
  const batches = batchesOf(step);
  const skipped = batches.filter((batch) => isWritten(batch, progress)).length;
  return { name: step.name, batches: batches.length, skipped, rows: {}, seconds: 0 };
}

function addToReport(report: StepReport, rows: Record<string, number>, seconds: number): void {
  for (const [table, count] of Object.entries(rows)) {
    report.rows[table] = (report.rows[table] ?? 0) + count;
  }
  report.seconds += seconds;
}

export async function runSteps(
  steps: Step[],
  progress: Progress,
  options: RunOptions,
): Promise<StepReport[]> {
  const started = performance.now();
  const reports = new Map(steps.map((step) => [step.name, newReport(step, progress)]));
  const queue = new BatchQueue(steps, progress);
  if (queue.isEmpty) {
    const batches = [...reports.values()].reduce((sum, report) => sum + report.batches, 0);
    options.log(`nothing to write: all ${batches} batches were written by an earlier run`);
  }
  let failure: unknown;

  const written = (batch: Batch, rows: Record<string, number>, seconds: number) => {
    const report = reports.get(batch.step.name)!;
    addToReport(report, rows, seconds);
    const left = queue.settle(batch, true);
    const elapsed = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
    options.log(
      `${elapsed} s  ${batch.step.name} ${batch.index + 1}/${batch.count}: +${describe(rows, seconds)}`,
    );
    if (left > 0) return;
    const earlier = report.skipped ? `; ${report.skipped} batch(es) written earlier` : '';
    options.log(
      `         ${batch.step.name} done: ${describe(report.rows, report.seconds)}${earlier}`,
    );
  };

  const work = async (connection: SqlConnection) => {
    for (;;) {
      const batch = await queue.take(() => failure !== undefined);
      if (!batch) return;
      const batchStarted = performance.now();
      try {
        const rows = await writeBatch(connection, batch, progress.anchor);
        written(batch, rows, (performance.now() - batchStarted) / 1000);
      } catch (error) {
        failure ??= error;
        queue.settle(batch, false);
        throw error;
      }
    }
  };
  const results = await Promise.allSettled(
    Array.from({ length: options.concurrency }, () => options.withConnection(work)),
  );
  if (failure !== undefined) throw failure;
  const rejected = results.find((result) => result.status === 'rejected');
  if (rejected) throw rejected.reason;
  return [...reports.values()];
}
