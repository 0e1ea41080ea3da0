// When a failed delivery is tried again: the configured waits (Standard Webhooks' schedule by
// default), each jittered by up to a fifth either way so retries of many deliveries spread out.
// Pure.

/** The share of a wait by which jitter may move it, either way. */
export const RETRY_JITTER = 0.2;

/**
 * The wait in milliseconds before the next attempt, after `attemptsMade` failed attempts; null
 * when the schedule is exhausted (the delivery has failed). `random` is in [0, 1).
 */
export function retryDelayMs(
  attemptsMade: number,
  scheduleS: readonly number[],
  random: number = Math.random(),
): number | null {
  const base = scheduleS[attemptsMade - 1];
  if (base === undefined) return null;
  const jitter = 1 + RETRY_JITTER * (2 * random - 1);
  return Math.round(base * 1000 * jitter);
}

/** A delivery made due at `now` with a fresh schedule (a redelivery), whatever its state. */
export function freshSchedule(now: Date) {
  return { state: 'PENDING' as const, attemptCount: 0, nextAttemptAt: now, lockedUntil: null };
}
