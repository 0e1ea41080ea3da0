// Clicks of the redirect, written in batches: a click that arrives while earlier ones are being
// written joins the next write, so a busy replica writes one statement per batch instead of one
// per click (the row lock of a popular link, the round trip and the statement's own cost are paid
// once per batch). A click is answered only after the write holding it is done, so no
// acknowledged click is ever lost; an idle replica writes each click at once, without waiting.
// What a click is and how a batch is written: ./clicks.ts.
import { clickBatchLag, clickBatchSize } from '../../platform/metrics';

/** Records each link's clicks; returns where each active link leads (inactive or unknown: absent). */
export type WriteClicks<Click> = (
  clicksByCode: ReadonlyMap<string, readonly Click[]>,
) => Promise<Map<string, string>>;

interface Pending<Click> {
  /** When the first of these clicks arrived (performance.now()). */
  since: number;
  clicks: Click[];
  waiters: { resolve(target: string | null): void; reject(error: unknown): void }[];
}

export interface ClickBatchSettings {
  /** Batches being written at once (each holds a pooled connection). */
  maxWritesInFlight: number;
  /** Links per statement; more wait for the next batch. */
  maxLinksPerBatch: number;
}

/** `count(urlCode, click)`: records one click; resolves to the link's target, null when none is active. */
export function clickBatches<Click>(
  write: WriteClicks<Click>,
  { maxWritesInFlight, maxLinksPerBatch }: ClickBatchSettings,
): (urlCode: string, click: Click) => Promise<string | null> {
  const pending = new Map<string, Pending<Click>>();
  let writesInFlight = 0;

  function takeBatch(): Map<string, Pending<Click>> {
    const batch = new Map<string, Pending<Click>>();
    for (const [code, clicks] of pending) {
      if (batch.size === maxLinksPerBatch) break;
      batch.set(code, clicks);
      pending.delete(code);
    }
    return batch;
  }

  function writeWhileAllowed(): void {
    while (pending.size > 0 && writesInFlight < maxWritesInFlight) {
      const batch = takeBatch();
      writesInFlight += 1;
      const clicksByCode = new Map([...batch].map(([code, { clicks }]) => [code, clicks]));
      write(clicksByCode)
        .then(
          (targets) => {
            observeBatch(batch);
            for (const [code, { waiters }] of batch) {
              for (const waiter of waiters) waiter.resolve(targets.get(code) ?? null);
            }
          },
          (error: unknown) => {
            for (const { waiters } of batch.values()) {
              for (const waiter of waiters) waiter.reject(error);
            }
          },
        )
        .finally(() => {
          writesInFlight -= 1;
          writeWhileAllowed();
        });
    }
  }

  return (urlCode, click) =>
    new Promise((resolve, reject) => {
      const entry = pending.get(urlCode) ?? { since: performance.now(), clicks: [], waiters: [] };
      entry.clicks.push(click);
      entry.waiters.push({ resolve, reject });
      pending.set(urlCode, entry);
      writeWhileAllowed();
    });
}

function observeBatch<Click>(batch: ReadonlyMap<string, Pending<Click>>): void {
  let clicks = 0;
  let since = Infinity;
  for (const pending of batch.values()) {
    clicks += pending.clicks.length;
    since = Math.min(since, pending.since);
  }
  clickBatchSize.observe(clicks);
  clickBatchLag.observe((performance.now() - since) / 1000);
}
