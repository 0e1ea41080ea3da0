// Deliveries are shared fairly between affiliates: one affiliate whose trackers never answer holds
// at most OWNER_ATTEMPTS_IN_FLIGHT attempts across the replicas' dispatchers (at most
// TARGET_ATTEMPTS_IN_FLIGHT per tracker), so another affiliate's conversion is sent while the
// first one's attempts still hang, not after them.
import { signDashboardToken } from '../../src/auth/dashboardToken';
import { config } from '../../src/platform/config';
import { prisma } from '../../src/platform/db';
import { postbackLane } from '../../src/modules/postbacks/lane';
import {
  OWNER_ATTEMPTS_IN_FLIGHT,
  startDeliveryDispatcher,
  TARGET_ATTEMPTS_IN_FLIGHT,
  type Dispatcher,
} from '../../src/outbox/dispatcher';
import { graphql, useTestDatabase } from '../support/app';
import { createBrand, createOrder, createUser } from '../support/factories';
import { ANSWER_OK, startTracker, type Tracker } from '../support/postbackReceiver';
import { until } from '../support/wait';

useTestDatabase();
// The tracker listens on 127.0.0.1, as in development.
Object.assign(config, { webhookAllowPrivateUrls: true });

let tracker: Tracker;
let replicas: Dispatcher[];
beforeAll(async () => {
  tracker = await startTracker();
  // Ana's trackers never answer; an attempt gives up after 10 s (half the lease, at most 10 s).
  tracker.answer = (postback) => (postback.path.startsWith('/ana') ? 'hold' : ANSWER_OK(postback));
  const settings = {
    pollIntervalMs: 200,
    leaseS: 30,
    retryDelaysS: [3_600],
    disableAfterS: 86_400,
    allowPrivateUrls: true,
  };
  // Two replicas' dispatchers of the postback lane.
  replicas = [
    startDeliveryDispatcher(postbackLane, settings),
    startDeliveryDispatcher(postbackLane, settings),
  ];
});
afterAll(async () => {
  await tracker.close();
  await Promise.all(replicas.map((dispatcher) => dispatcher.stop()));
});

async function affiliateWithPostbacks(...paths: string[]) {
  const user = await createUser('AFFILIATE');
  const token = await signDashboardToken(user.id);
  for (const path of paths) {
    const { body } = await graphql(
      'mutation ($input: CreatePostbackInput!) { createPostback(input: $input) { id } }',
      {
        input: {
          name: path,
          events: ['order.created'],
          urlTemplate: `${tracker.url}/${path}?order={order_number}`,
        },
      },
      { token },
    );
    expect(body.errors).toBeUndefined();
  }
  return { user, brand: await createBrand() };
}

const requestsTo = (prefix: string) =>
  tracker.received.filter((postback) => postback.path.startsWith(`/${prefix}`));

test("one affiliate's trackers that never answer hold a bounded share; another's conversion is sent meanwhile", async () => {
  const ana = await affiliateWithPostbacks('ana-keitaro', 'ana-voluum');
  for (let n = 0; n < 30; n += 1) await createOrder(ana.user.id, ana.brand.id);
  await until(
    () => requestsTo('ana').length === OWNER_ATTEMPTS_IN_FLIGHT,
    "Ana's attempts to fill her share",
  );

  const ben = await affiliateWithPostbacks('ben');
  const order = await createOrder(ben.user.id, ben.brand.id);
  await until(() => requestsTo('ben').length === 1, "Ben's postback");
  expect(requestsTo('ben')[0]!.query.get('order')).toBe(order.orderNumber);

  // Ben's was sent while every attempt of Ana's still hangs: none has ended, none more started.
  const anaAttempts = await prisma.webhookAttempt.count({
    where: { delivery: { postback: { ownerId: ana.user.id } } },
  });
  expect(anaAttempts).toBe(0);
  expect(requestsTo('ana')).toHaveLength(OWNER_ATTEMPTS_IN_FLIGHT);
  for (const path of ['ana-keitaro', 'ana-voluum']) {
    expect(requestsTo(path).length).toBeLessThanOrEqual(TARGET_ATTEMPTS_IN_FLIGHT);
  }
});
