// The request deadline. At the deadline the answer is a 504 and the request's AbortSignal fires:
// GraphQL execution (yoga's execution cancellation) starts no further resolvers and the SQL
// statements not yet sent are never sent. A statement already running in the database is not
// interrupted by this (Prisma has no per-query cancellation); it finishes and its result is dropped.
//
// The work's signal also fires when the client goes away. It is one plain AbortController wired
// to the client's signal by a listener removed at the end, not `AbortSignal.any`: on Node 20 a
// composite signal that is never aborted stays reachable for as long as anyone listens on it, and
// GraphQL execution leaves its listener behind, so every request's execution state was kept.
// Work that cannot be cancelled passes no client signal: listening on one costs two abort
// controllers per request, a measurable share of the redirect's CPU.

export type Deadline<T> = { kind: 'done'; value: T } | { kind: 'timed-out' };

export async function withDeadline<T>(
  ms: number,
  clientSignal: AbortSignal | null,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<Deadline<T>> {
  const controller = new AbortController();
  const clientGone = () => controller.abort(clientSignal?.reason);
  if (clientSignal?.aborted) clientGone();
  else clientSignal?.addEventListener('abort', clientGone, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<Deadline<T>>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timed-out' }), ms);
  });
  const running = work(controller.signal).then((value): Deadline<T> => ({ kind: 'done', value }));
  try {
    const outcome = await Promise.race([running, expired]);
    if (outcome.kind === 'timed-out') {
      controller.abort(new Error('request timed out'));
      // The abandoned work may still fail later; nobody is waiting for it.
      running.catch(() => undefined);
    }
    return outcome;
  } finally {
    clearTimeout(timer);
    clientSignal?.removeEventListener('abort', clientGone);
  }
}
