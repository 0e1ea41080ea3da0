import v8 from 'node:v8';
import vm from 'node:vm';
import { raceDeadline, within, withDeadline } from '../../src/platform/deadline';

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

async function fullGc(): Promise<void> {
  for (let round = 0; round < 3; round++) {
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The deadline as the edge uses it: the work listens to a controller that the deadline stops. */
function deadlineFor<T>(
  ms: number,
  client: AbortSignal,
  work: (signal: AbortSignal) => Promise<T>,
) {
  const controller = new AbortController();
  return withDeadline(
    ms,
    client,
    (reason) => controller.abort(reason),
    () => work(controller.signal),
  );
}

describe('the request deadline', () => {
  it('answers with the work when it finishes in time', async () => {
    const client = new AbortController();
    await expect(deadlineFor(1_000, client.signal, async () => 'answer')).resolves.toEqual({
      kind: 'done',
      value: 'answer',
    });
  });

  it('times out and aborts the work at the deadline', async () => {
    let workSignal: AbortSignal | undefined;
    const outcome = await deadlineFor(20, new AbortController().signal, (signal) => {
      workSignal = signal;
      return new Promise(() => undefined);
    });
    expect(outcome).toEqual({ kind: 'timed-out' });
    expect(workSignal?.aborted).toBe(true);
  });

  it('aborts the work when the client goes away', async () => {
    const client = new AbortController();
    let workSignal: AbortSignal | undefined;
    const pending = deadlineFor(1_000, client.signal, async (signal) => {
      workSignal = signal;
      await new Promise((resolve) => signal.addEventListener('abort', resolve));
      return 'abandoned';
    });
    client.abort();
    await pending;
    expect(workSignal?.aborted).toBe(true);
  });

  it('aborts the work at once when the client has already gone', async () => {
    const client = new AbortController();
    client.abort();
    await deadlineFor(1_000, client.signal, async (signal) => {
      expect(signal.aborted).toBe(true);
    });
  });

  // GraphQL execution leaves an abort listener on the request's signal; a connection's signal
  // lives on with keep-alive. Neither may keep an answered request's state alive.
  it('keeps nothing of an answered request reachable from the client signal', async () => {
    const client = new AbortController();
    const requestStates: WeakRef<object>[] = [];
    for (let request = 0; request < 20; request++) {
      const state = { rows: new Array(1_000).fill(request) };
      requestStates.push(new WeakRef(state));
      await deadlineFor(1_000, client.signal, async (signal) => {
        signal.addEventListener('abort', () => state.rows.length);
        return state.rows.length;
      });
    }
    await fullGc();
    expect(requestStates.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
    expect(client.signal.aborted).toBe(false);
  });
});

describe('the deadline of work nothing can stop (the redirect)', () => {
  it('answers with the work when it finishes in time', async () => {
    await expect(raceDeadline(1_000, Promise.resolve('302'))).resolves.toEqual({
      kind: 'done',
      value: '302',
    });
  });

  it('passes on a failure within the deadline', async () => {
    await expect(raceDeadline(1_000, Promise.reject(new Error('database down')))).rejects.toThrow(
      'database down',
    );
  });

  it('times out when the work outlasts the deadline', async () => {
    await expect(raceDeadline(20, new Promise(() => undefined))).resolves.toEqual({
      kind: 'timed-out',
    });
  });
});

describe('a check that must answer in time (readiness, metrics)', () => {
  it('answers with the work when it finishes in time', async () => {
    await expect(within(1_000, Promise.resolve('ok'))).resolves.toBe('ok');
  });

  it('rejects when the work outlasts its time', async () => {
    await expect(within(20, new Promise(() => undefined))).rejects.toThrow(
      'no answer within 20 ms',
    );
  });
});
