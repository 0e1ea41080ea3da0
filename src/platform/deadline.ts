// Deadlines: the request deadline and the probes' checks. At a request's deadline the answer is a
// 504 and the request's AbortSignal fires: GraphQL execution starts no further resolvers and the
// SQL statements not yet sent are never sent. A statement already running in the database is not
// interrupted by this (Prisma has no per-query cancellation); it finishes and its result is
// dropped.
//
// The work's signal also fires when the client goes away. It is one plain AbortController (the
// request record's) wired to the client's signal by a listener removed at the end, not
// `AbortSignal.any`: on Node 20 a composite signal that is never aborted stays reachable for as
// long as anyone listens on it, and GraphQL execution leaves its listener behind.

export type Deadline<T> = { kind: 'done'; value: T } | { kind: 'timed-out' };

/** How long a readiness or metrics check may wait for the database or Redis. */
export const CHECK_TIMEOUT_MS = 2_000;

/**
 * The deadline alone, for work nothing can stop (a redirect's click is in a batch): no signal and
 * no abort controller, so it costs a timer.
 */
export async function raceDeadline<T>(ms: number, running: Promise<T>): Promise<Deadline<T>> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<Deadline<T>>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timed-out' }), ms);
  });
  // A failure of abandoned work after the deadline is handled (ignored) by the race.
  const done = running.then((value): Deadline<T> => ({ kind: 'done', value }));
  try {
    return await Promise.race([done, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** `work`'s value, or a rejection when it has not settled within `ms` (a check that must answer). */
export async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  const outcome = await raceDeadline(ms, work);
  if (outcome.kind === 'timed-out') throw new Error(`no answer within ${ms} ms`);
  return outcome.value;
}

/**
 * The deadline for work that can stop: `stop` is called at the deadline, or as soon as the client
 * goes away, with the reason.
 */
export async function withDeadline<T>(
  ms: number,
  clientSignal: AbortSignal,
  stop: (reason: unknown) => void,
  work: () => Promise<T>,
): Promise<Deadline<T>> {
  const clientGone = () => stop(clientSignal.reason);
  if (clientSignal.aborted) clientGone();
  else clientSignal.addEventListener('abort', clientGone, { once: true });
  try {
    const outcome = await raceDeadline(ms, work());
    if (outcome.kind === 'timed-out') stop(new Error('request timed out'));
    return outcome;
  } finally {
    clientSignal.removeEventListener('abort', clientGone);
  }
}
