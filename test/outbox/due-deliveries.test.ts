// The database's announcements of due deliveries (src/outbox/wakeUp.ts) wake the dispatchers an
// app started, from the app's start until it closes; two apps in one process hear them apart.
import { createIsolatedApp, useTestDatabase } from '../support/app';
import { announceDueDeliveries, DueDeliveries } from '../../src/outbox/wakeUp';
import { prisma } from '../../src/platform/db';
import { until } from '../support/wait';

useTestDatabase();

/** Announces until `heard` holds: a LISTEN opened a moment ago may miss the first. */
const announceUntil = (heard: () => boolean, what: string) =>
  until(async () => {
    await announceDueDeliveries(prisma);
    return heard();
  }, what);

afterEach(() => jest.restoreAllMocks());

test('an app wakes each dispatcher it started when deliveries are announced due', async () => {
  const onDue = DueDeliveries.prototype.onDue;
  const woken = new Map<number, number>();
  jest.spyOn(DueDeliveries.prototype, 'onDue').mockImplementation(function (
    this: DueDeliveries,
    wake: () => void,
  ) {
    const index = woken.size;
    woken.set(index, 0);
    return onDue.call(this, () => {
      woken.set(index, woken.get(index)! + 1);
      wake();
    });
  });
  const app = createIsolatedApp();
  const workers = app.startWorkers();
  try {
    // One for the webhook lane's dispatcher, one for the postback lane's.
    expect(woken.size).toBe(2);
    await announceUntil(() => [...woken.values()].every((count) => count > 0), 'both woken');
  } finally {
    await app.close();
    await Promise.all(workers.map((worker) => worker.stop()));
  }
});

test("each app's hearing is its own: one stopped is woken no more, another still is", async () => {
  const [first, second] = [new DueDeliveries(), new DueDeliveries()];
  const stopFirst = first.listen();
  const stopSecond = second.listen();
  let [firstWoken, secondWoken] = [0, 0];
  first.onDue(() => firstWoken++);
  second.onDue(() => secondWoken++);
  try {
    await announceUntil(() => firstWoken > 0 && secondWoken > 0, 'both woken');
    stopFirst();
    const [firstBefore, secondBefore] = [firstWoken, secondWoken];
    await announceUntil(() => secondWoken > secondBefore, 'the second woken again');
    expect(firstWoken).toBe(firstBefore);
  } finally {
    stopFirst();
    stopSecond();
  }
});
