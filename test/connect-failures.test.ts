// A connection that fails at once (no route to the receiver's address, an address family the host
// cannot reach: ENETUNREACH, EACCES, EAFNOSUPPORT, EINVAL) is an attempt with an error, recorded
// like any other, through the dispatcher's webhook and postback lanes and through the test sends;
// it never ends the process. Such a failure is made here without sending anything: the name
// resolves to the loopback address with the other family's tag, which the kernel refuses in the
// connect call itself.
import dns from 'node:dns/promises';
import { signDashboardToken } from '../src/auth/dashboardToken';
import { config } from '../src/platform/config';
import { prisma } from '../src/platform/db';
import { postbackLane } from '../src/modules/postbacks/lane';
import { startDeliveryDispatcher, type Dispatcher } from '../src/outbox/dispatcher';
import { eventAnswersOf } from '../src/modules/webhooks/eventAnswers';
import { webhookLane } from '../src/modules/webhooks/webhookLane';
import type { ResolvedAddress } from '../src/outbox/urls';
import { app, graphql, useTestDatabase } from './support/app';
import { createBrand, createOrder, createUser } from './support/factories';
import { until } from './support/wait';

useTestDatabase();
// The names below resolve to a loopback address, which only development allows.
Object.assign(config, { webhookAllowPrivateUrls: true });

const UNCONNECTABLE = 'unconnectable.test';
/** Loopback tagged as IPv6: connect() refuses it at once, before any packet. */
const FAILS_AT_CONNECT: ResolvedAddress = { address: '127.0.0.1', family: 6 };

// Every lookup of the name, the save-time check's and the test sends' included.
const realLookup = dns.lookup;
jest
  .spyOn(dns, 'lookup')
  .mockImplementation(((hostname: string, options: object) =>
    hostname === UNCONNECTABLE
      ? Promise.resolve([FAILS_AT_CONNECT])
      : realLookup(hostname, options as never)) as typeof dns.lookup);

const settings = {
  pollIntervalMs: 100,
  leaseS: 30,
  retryDelaysS: [3_600],
  disableAfterS: 86_400,
  allowPrivateUrls: true,
};
let dispatchers: Dispatcher[];
beforeAll(() => {
  dispatchers = [
    startDeliveryDispatcher(webhookLane(eventAnswersOf(app.runRoute)), settings),
    startDeliveryDispatcher(postbackLane, settings),
  ];
});
afterAll(() => Promise.all(dispatchers.map((dispatcher) => dispatcher.stop())));

async function affiliateDashboard() {
  const user = await createUser('AFFILIATE');
  return { user, token: await signDashboardToken(user.id) };
}

async function mutate(token: string, document: string, variables: Record<string, unknown>) {
  const { body } = await graphql(document, variables, { token });
  expect(body.errors).toBeUndefined();
  return body.data;
}

const attemptsOf = (where: { endpointId: string } | { postbackId: string }) =>
  prisma.webhookAttempt.findMany({ where: { delivery: where } });

async function recordedAttempt(where: { endpointId: string } | { postbackId: string }) {
  await until(async () => (await attemptsOf(where)).length > 0, 'the attempt');
  const [attempt] = await attemptsOf(where);
  return attempt;
}

const FAILED_AT_CONNECT = { statusCode: null, error: 'request failed: EINVAL' };

test('a webhook whose connection fails at once: the delivery and the test send are attempts with the error', async () => {
  const { user, token } = await affiliateDashboard();
  const { createWebhookEndpoint } = await mutate(
    token,
    `mutation ($input: CreateWebhookEndpointInput!) {
      createWebhookEndpoint(input: $input) { endpoint { id } } }`,
    { input: { url: `https://${UNCONNECTABLE}/hooks`, events: ['order.created'] } },
  );
  const endpointId = createWebhookEndpoint.endpoint.id;
  await createOrder(user.id, (await createBrand()).id);
  expect(await recordedAttempt({ endpointId })).toMatchObject(FAILED_AT_CONNECT);

  await mutate(token, 'mutation ($id: ID!) { sendTestWebhook(endpointId: $id) { id } }', {
    id: endpointId,
  });
  await until(async () => (await attemptsOf({ endpointId })).length === 2, 'the test attempt');
  for (const attempt of await attemptsOf({ endpointId })) {
    expect(attempt).toMatchObject(FAILED_AT_CONNECT);
  }
});

test('a postback whose connection fails at once: the delivery is an attempt with the error, the test send answers it', async () => {
  const { user, token } = await affiliateDashboard();
  const { createPostback } = await mutate(
    token,
    'mutation ($input: CreatePostbackInput!) { createPostback(input: $input) { id } }',
    {
      input: {
        name: 'v6',
        events: ['order.created'],
        urlTemplate: `https://${UNCONNECTABLE}/p?c={sub1}`,
      },
    },
  );
  const postbackId = createPostback.id;
  await createOrder(user.id, (await createBrand()).id);
  expect(await recordedAttempt({ postbackId })).toMatchObject(FAILED_AT_CONNECT);

  const { sendTestPostback } = await mutate(
    token,
    'mutation ($id: ID!) { sendTestPostback(id: $id) { statusCode error delivered } }',
    { id: postbackId },
  );
  expect(sendTestPostback).toEqual({ ...FAILED_AT_CONNECT, delivered: false });
});
