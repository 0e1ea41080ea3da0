// The tests' one way to wait: for a condition, never for a time.

/**
 * Polls `condition` until it holds (every 25 ms). The bound only turns a hang into a failure that
 * names `what`; a busy machine makes the wait longer, never the test wrong.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
