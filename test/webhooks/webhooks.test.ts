// Order webhooks: endpoints managed by the dashboard over GraphQL, and order events written by the
// database triggers, delivered by the dispatcher to a real receiver that verifies every signature
// with the `standardwebhooks` library; on PostgreSQL also across replicas (a dispatcher killed
// mid-delivery, many changes shared by two dispatchers).
import { signDashboardToken } from '../../src/auth/dashboardToken';
import { config } from '../../src/platform/config';
import { prisma } from '../../src/platform/db';
import { eventAnswersOf } from '../../src/modules/webhooks/eventAnswers';
import type { Dispatcher } from '../../src/outbox/dispatcher';
import { startWebhookDispatcher } from '../../src/modules/webhooks/webhookLane';
import { pruneWebhookHistory } from '../../src/outbox/history';
import { resolveHost } from '../../src/outbox/urls';
import { ORDER_EVENT_TYPES } from '../../src/modules/orders/eventTypes';
import { WEBHOOK_EVENT_TYPES } from '../../src/modules/webhooks/eventTypes';
import { lockDueOrders } from '../../src/modules/orders/lifecycle';
import { app, call, graphql, send, useTestDatabase } from '../support/app';
import { MAX_ANSWER_BYTES } from '../../src/graphql/answerSize';
import {
  createApiKey,
  createBrand,
  createOrder,
  createUser,
  rolledBackOrderChanges,
} from '../support/factories';
import { metricNow, scrape, valueOf } from '../support/metrics';
import { fetchOpenApiDocument, schemaValidators } from '../support/openapi';
import { startReplica, type Replica } from '../support/replica';
import { allowPrivateUrls } from '../support/loopbackServer';
import { until } from '../support/wait';
import { startReceiver, type Receiver } from '../support/webhookReceiver';

useTestDatabase();
allowPrivateUrls(true);

const ENDPOINT_FIELDS =
  'id url events description enabled createdAt failingSince disabledAt disabledReason';
const CREATE = `mutation ($input: CreateWebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) { secret endpoint { ${ENDPOINT_FIELDS} } } }`;
const LIST = `{ listWebhookEndpoints { ${ENDPOINT_FIELDS} } }`;
const UPDATE = `mutation ($id: ID!, $input: UpdateWebhookEndpointInput!) {
  updateWebhookEndpoint(id: $id, input: $input) { ${ENDPOINT_FIELDS} } }`;
const DELETE = 'mutation ($id: ID!) { deleteWebhookEndpoint(id: $id) }';
const ROTATE = `mutation ($id: ID!) {
  rotateWebhookSecret(id: $id) { secret endpoint { id previousSecretExpiresAt } } }`;
const ATTEMPT_FIELDS = 'attemptedAt statusCode durationMs error';
const DELIVERY_FIELDS = `id webhookId endpointId eventType orderId state attemptCount nextAttemptAt
  deliveredAt createdAt attempts { ${ATTEMPT_FIELDS} }`;
const DELIVERIES = `query ($id: ID!) { webhookDeliveries(endpointId: $id) { ${DELIVERY_FIELDS} } }`;
const DELIVERY = `query ($id: ID!) { webhookDelivery(id: $id) {
  delivery { ${DELIVERY_FIELDS} } attempts { attempt { ${ATTEMPT_FIELDS} } responseBody } } }`;
const REDELIVER = `mutation ($id: ID!) { redeliverWebhook(deliveryId: $id) { ${DELIVERY_FIELDS} } }`;
const SEND_TEST = `mutation ($id: ID!) { sendTestWebhook(endpointId: $id) { ${DELIVERY_FIELDS} } }`;
const AUDIT = `query ($id: ID!) { webhookEndpointEvents(endpointId: $id) { kind actorUserId } }`;
const ORDER_EVENTS = ['order.created', 'order.status_changed'];

async function affiliateDashboard() {
  const user = await createUser('AFFILIATE');
  return { user, token: await signDashboardToken(user.id) };
}

async function createEndpoint(
  token: string,
  input: Record<string, unknown>,
): Promise<{ secret: string; endpoint: Record<string, unknown> & { id: string } }> {
  const { body } = await graphql(CREATE, { input }, { token });
  expect(body.errors).toBeUndefined();
  return body.data.createWebhookEndpoint;
}

async function auditKinds(token: string, endpointId: string): Promise<string[]> {
  const { body } = await graphql(AUDIT, { id: endpointId }, { token });
  return body.data.webhookEndpointEvents.map((event: { kind: string }) => event.kind);
}

describe('managing endpoints (dashboard, x-api-token)', () => {
  test('createWebhookEndpoint answers the whsec_ secret once; the list never shows it', async () => {
    const { user, token } = await affiliateDashboard();
    const { secret, endpoint } = await createEndpoint(token, {
      url: 'https://127.0.0.1/hooks',
      events: ['order.status_changed'],
      description: '  Shop sync  ',
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(endpoint).toEqual({
      id: expect.any(String),
      url: 'https://127.0.0.1/hooks',
      events: ['order.status_changed'],
      description: 'Shop sync',
      enabled: true,
      createdAt: expect.any(String),
      failingSince: null,
      disabledAt: null,
      disabledReason: null,
    });
    const listed = await graphql(LIST, {}, { token });
    expect(listed.body.data.listWebhookEndpoints).toEqual([endpoint]);
    expect(JSON.stringify(listed.body)).not.toContain(secret.slice(6));
    const trail = await graphql(AUDIT, { id: endpoint.id }, { token });
    expect(trail.body.data.webhookEndpointEvents).toEqual([
      { kind: 'CREATED', actorUserId: user.id },
    ]);
  });

  test('each user sees only their own endpoints; another user’s is NOT_FOUND', async () => {
    const owner = await affiliateDashboard();
    const other = await affiliateDashboard();
    const { endpoint } = await createEndpoint(owner.token, {
      url: 'https://127.0.0.1/a',
      events: ORDER_EVENTS,
    });
    expect(
      (await graphql(LIST, {}, { token: other.token })).body.data.listWebhookEndpoints,
    ).toEqual([]);
    for (const query of [DELETE, ROTATE, DELIVERIES, SEND_TEST]) {
      const { body } = await graphql(query, { id: endpoint.id }, { token: other.token });
      expect(body.errors[0].extensions.code).toBe('NOT_FOUND');
    }
  });

  test('a partner user is refused with FORBIDDEN, no token with UNAUTHORIZED', async () => {
    const partner = await createUser('PARTNER');
    const token = await signDashboardToken(partner.id);
    const refused = await graphql(LIST, {}, { token });
    expect(refused.body.errors[0]).toMatchObject({
      message: 'Order webhooks are for affiliate accounts',
      extensions: { code: 'FORBIDDEN' },
    });
    expect((await graphql(LIST)).body.errors[0].extensions.code).toBe('UNAUTHORIZED');
  });

  test.each([
    [
      { url: 'https://127.0.0.1/h', events: ['order.deleted'] },
      `Unknown event type order.deleted; the events are ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    ],
    [{ url: 'https://127.0.0.1/h', events: [] }, 'events must name at least one'],
    [{ url: 'not a url', events: ORDER_EVENTS }, 'url must be an absolute URL'],
    [{ url: 'ftp://127.0.0.1/h', events: ORDER_EVENTS }, 'url must be http or https'],
    [{ url: 'https://user:pw@127.0.0.1/h', events: ORDER_EVENTS }, 'must not carry credentials'],
    [
      { url: 'http://169.254.169.254/latest/meta-data', events: ORDER_EVENTS },
      'url is not allowed: the host 169.254.169.254 resolves to a metadata address',
    ],
    [
      { url: 'http://[fe80::1]/h', events: ORDER_EVENTS },
      'url is not allowed: the host [fe80::1] resolves to a link-local address',
    ],
    [
      { url: 'http://[::ffff:169.254.169.254]/h', events: ORDER_EVENTS },
      'resolves to a metadata address',
    ],
  ])('refuses %j with BAD_REQUEST, even where private URLs are allowed', async (input, message) => {
    const { token } = await affiliateDashboard();
    const { body } = await graphql(CREATE, { input }, { token });
    expect(body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(body.errors[0].message).toContain(message);
  });

  test('without WEBHOOK_ALLOW_PRIVATE_URLS, http, loopback or private addresses and ports other than 443 and 80 are refused', async () => {
    const { token } = await affiliateDashboard();
    allowPrivateUrls(false);
    try {
      const cases = [
        ['http://192.0.2.10/h', 'url must be https'],
        [
          'http://127.0.0.1:4001/webhooks',
          'url must be https (in development, WEBHOOK_ALLOW_PRIVATE_URLS=1 allows http and local addresses)',
        ],
        ['https://127.0.0.1/h', 'resolves to a loopback address'],
        ['https://10.1.2.3/h', 'resolves to a private address'],
        ['https://[::1]/h', 'resolves to a loopback address'],
        ['https://localhost/h', 'resolves to a loopback address'],
        [
          'https://192.0.2.10:8443/h',
          'url must use port 443 or 80 (others only where WEBHOOK_ALLOW_PRIVATE_URLS is set, in development)',
        ],
      ];
      for (const [url, message] of cases) {
        const { body } = await graphql(CREATE, { input: { url, events: ORDER_EVENTS } }, { token });
        expect(body.errors?.[0]).toMatchObject({
          message: expect.stringContaining(message!),
          extensions: { code: 'BAD_REQUEST' },
        });
      }
    } finally {
      allowPrivateUrls(true);
    }
  });

  test.each([
    ['https://[::127.0.0.1]/h', 'loopback'],
    ['https://[::ffff:0:169.254.169.254]/h', 'metadata'],
    ['https://[64:ff9b:1::a9fe:a9fe]/h', 'reserved'],
    ['https://[2002:a00:1::1]/h', 'private'],
    ['https://[fec0::1]/h', 'private'],
    ['https://168.63.129.16/h', 'metadata'],
  ])('without WEBHOOK_ALLOW_PRIVATE_URLS, %s is refused (%s)', async (url, kind) => {
    const { token } = await affiliateDashboard();
    allowPrivateUrls(false);
    try {
      const { body } = await graphql(CREATE, { input: { url, events: ORDER_EVENTS } }, { token });
      expect(body.errors?.[0]).toMatchObject({
        message: expect.stringContaining(`resolves to a ${kind} address`),
        extensions: { code: 'BAD_REQUEST' },
      });
    } finally {
      allowPrivateUrls(true);
    }
  });

  test('at most 20 endpoints per user, also under concurrency: 6 at once with 19 present leave 20', async () => {
    const { user, token } = await affiliateDashboard();
    await prisma.webhookEndpoint.createMany({
      data: Array.from({ length: 19 }, (_, n) => ({
        ownerId: user.id,
        url: `https://127.0.0.1/present-${n}`,
        events: ORDER_EVENTS,
        secret: `whsec_present${n}`,
      })),
    });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        graphql(
          CREATE,
          { input: { url: `https://127.0.0.1/new-${n}`, events: ORDER_EVENTS } },
          { token },
        ),
      ),
    );
    const created = answers.filter(({ body }) => body.data?.createWebhookEndpoint);
    const refused = answers.filter(({ body }) =>
      body.errors?.some(
        (error: { message: string; extensions: { code: string } }) =>
          error.message === 'At most 20 webhook endpoints per user: delete one first' &&
          error.extensions.code === 'BAD_REQUEST',
      ),
    );
    expect([created.length, refused.length]).toEqual([1, 5]);
    const live = { ownerId: user.id, deletedAt: null };
    expect(await prisma.webhookEndpoint.count({ where: live })).toBe(20);
    // A deleted endpoint makes room.
    await graphql(
      DELETE,
      { id: created[0]!.body.data.createWebhookEndpoint.endpoint.id },
      { token },
    );
    await createEndpoint(token, { url: 'https://127.0.0.1/again', events: ORDER_EVENTS });
    expect(await prisma.webhookEndpoint.count({ where: live })).toBe(20);
  });

  test('sendTestWebhook runs at most 10 times a minute per user', async () => {
    const { token } = await affiliateDashboard();
    const { endpoint } = await createEndpoint(token, {
      url: 'https://127.0.0.1/limited',
      events: ORDER_EVENTS,
    });
    for (let n = 0; n < 10; n += 1) {
      const { body } = await graphql(SEND_TEST, { id: endpoint.id }, { token });
      expect(body.errors).toBeUndefined();
    }
    const { body } = await graphql(SEND_TEST, { id: endpoint.id }, { token });
    expect(body.errors[0].extensions.code).toBe('TOO_MANY_REQUESTS');
    // Nothing is sent there: the endpoint is deleted before the dispatcher starts.
    await graphql(DELETE, { id: endpoint.id }, { token });
  });

  test('deleting an endpoint drops its undelivered deliveries, which nothing would send', async () => {
    const { user, token } = await affiliateDashboard();
    const { endpoint } = await createEndpoint(token, {
      url: 'https://127.0.0.1/gone',
      events: ORDER_EVENTS,
    });
    await createOrder(user.id, (await createBrand()).id);
    const undelivered = () =>
      prisma.webhookDelivery.count({ where: { endpointId: endpoint.id, state: 'PENDING' } });
    expect(await undelivered()).toBe(1);
    expect((await graphql(DELETE, { id: endpoint.id }, { token })).body.errors).toBeUndefined();
    expect(await undelivered()).toBe(0);
  });

  test('update, rotate and delete change the endpoint and write their audit events', async () => {
    const { user, token } = await affiliateDashboard();
    const { secret, endpoint } = await createEndpoint(token, {
      url: 'https://127.0.0.1/a',
      events: ORDER_EVENTS,
    });
    const updated = await graphql(
      UPDATE,
      {
        id: endpoint.id,
        input: { url: 'https://127.0.0.1/b', events: ['order.created'], enabled: false },
      },
      { token },
    );
    expect(updated.body.data.updateWebhookEndpoint).toMatchObject({
      url: 'https://127.0.0.1/b',
      events: ['order.created'],
      enabled: false,
      disabledAt: expect.any(String),
      disabledReason: null,
    });
    const rotated = await graphql(ROTATE, { id: endpoint.id }, { token });
    const { secret: newSecret, endpoint: after } = rotated.body.data.rotateWebhookSecret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    const graceHours = (Date.parse(after.previousSecretExpiresAt) - Date.now()) / 3_600_000;
    expect(graceHours).toBeGreaterThan(23.9);
    expect(graceHours).toBeLessThanOrEqual(24);
    expect((await graphql(DELETE, { id: endpoint.id }, { token })).body.data).toEqual({
      deleteWebhookEndpoint: endpoint.id,
    });
    expect((await graphql(LIST, {}, { token })).body.data.listWebhookEndpoints).toEqual([]);
    const events = await prisma.webhookEndpointEvent.findMany({
      where: { endpointId: endpoint.id },
      orderBy: { createdAt: 'asc' },
    });
    expect(events.map(({ kind, actorUserId }) => [kind, actorUserId])).toEqual([
      ['CREATED', user.id],
      ['UPDATED', user.id],
      ['SECRET_ROTATED', user.id],
      ['DELETED', user.id],
    ]);
  });
});

describe('Idempotency-Key on createWebhookEndpoint', () => {
  const input = { url: 'https://127.0.0.1/idempotent', events: ORDER_EVENTS };
  const createWith = (token: string, idempotencyKey: string, body = input) =>
    graphql(CREATE, { input: body }, { token, idempotencyKey });
  const endpointsOf = (ownerId: string) => prisma.webhookEndpoint.count({ where: { ownerId } });

  test('the same request again: the same endpoint and secret, nothing created', async () => {
    const { user, token } = await affiliateDashboard();
    const first = await createWith(token, 'endpoint-1');
    const again = await createWith(token, 'endpoint-1');
    expect(first.body.data.createWebhookEndpoint.secret).toMatch(/^whsec_/);
    expect(again.body).toEqual(first.body);
    expect(await endpointsOf(user.id)).toBe(1);
    expect(await auditKinds(token, first.body.data.createWebhookEndpoint.endpoint.id)).toEqual([
      'CREATED',
    ]);
    // Remembered sealed: the stored answer never holds the secret in clear.
    const records = await prisma.idempotencyRecord.findMany({
      where: { scope: `dashboard-user:${user.id}` },
    });
    expect(records).toHaveLength(1);
    expect(JSON.stringify(records)).not.toContain(
      first.body.data.createWebhookEndpoint.secret.slice(6),
    );
  });

  test('the same Idempotency-Key for another request is a CONFLICT, and creates nothing', async () => {
    const { user, token } = await affiliateDashboard();
    await createWith(token, 'endpoint-2');
    const other = await createWith(token, 'endpoint-2', { ...input, url: 'https://127.0.0.1/b' });
    expect(other.body.data).toBeNull();
    expect(other.body.errors[0]).toMatchObject({
      message: 'Idempotency-Key endpoint-2 was already used for a different request',
      extensions: { code: 'CONFLICT' },
    });
    // One key names one answer, whichever secret-issuing mutation used it first.
    const key = await graphql(
      'mutation { createApiKey(input: { name: "k" }) { apiKey } }',
      {},
      { token, idempotencyKey: 'endpoint-2' },
    );
    expect(key.body.errors[0].extensions.code).toBe('CONFLICT');
    expect(await endpointsOf(user.id)).toBe(1);
  });

  test("another user's same Idempotency-Key is their own", async () => {
    const alice = await affiliateDashboard();
    const bob = await affiliateDashboard();
    const a = (await createWith(alice.token, 'shared')).body.data.createWebhookEndpoint;
    const b = (await createWith(bob.token, 'shared')).body.data.createWebhookEndpoint;
    expect(b.secret).not.toBe(a.secret);
    expect(b.endpoint.id).not.toBe(a.endpoint.id);
    expect([await endpointsOf(alice.user.id), await endpointsOf(bob.user.id)]).toEqual([1, 1]);
  });

  test('with the header a request creates one endpoint only: two are BAD_REQUEST', async () => {
    const { user, token } = await affiliateDashboard();
    const twice = `mutation ($input: CreateWebhookEndpointInput!) {
      a: createWebhookEndpoint(input: $input) { secret }
      b: createWebhookEndpoint(input: $input) { secret } }`;
    const { body } = await graphql(twice, { input }, { token, idempotencyKey: 'two-1' });
    expect(body.errors[0]).toMatchObject({
      message: expect.stringContaining('a request may issue one secret only'),
      extensions: { code: 'BAD_REQUEST' },
    });
    expect(await endpointsOf(user.id)).toBe(0);
  });

  test('a refused request is not remembered: the Idempotency-Key stays free', async () => {
    const { token } = await affiliateDashboard();
    const refused = await createWith(token, 'free-1', { ...input, events: ['order.deleted'] });
    expect(refused.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    const accepted = await createWith(token, 'free-1');
    expect(accepted.body.data.createWebhookEndpoint.secret).toMatch(/^whsec_/);
  });
});

describe('delivery to a real receiver', () => {
  let dispatcher: Dispatcher;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    dispatcher = startWebhookDispatcher(eventAnswersOf(app.runRoute), {
      pollIntervalMs: 200,
      leaseS: 30,
      retryDelaysS: [1, 1],
      disableAfterS: 2,
      allowPrivateUrls: true,
      // Names of this test's own: one rebound to the metadata address since its endpoint was
      // made, one that only this resolver knows (so a delivery to it proves the pinned address).
      resolve: async (hostname) => {
        if (hostname === 'rebound.test') return [{ address: '169.254.169.254', family: 4 }];
        if (hostname === 'pinned.test') return [{ address: '127.0.0.1', family: 4 }];
        return resolveHost(hostname);
      },
    });
  });

  afterAll(async () => {
    await dispatcher.stop();
    await receiver.close();
  });

  /** An affiliate with an endpoint at the receiver (which verifies with its secret) and a brand. */
  async function subscribedAffiliate(events = ORDER_EVENTS, path = `/${Math.random()}`) {
    const { user, token } = await affiliateDashboard();
    const { secret, endpoint } = await createEndpoint(token, { url: receiver.url + path, events });
    receiver.secrets.push(secret);
    const brand = await createBrand();
    return { user, token, secret, endpoint, brand };
  }

  const receivedFor = (orderId: string) =>
    receiver.received.filter((webhook) => webhook.body.data.order?.id === orderId);

  test('an order inserted and its status changed in SQL arrive signed, in order, with the order as GET /affiliate/orders/{orderId} answers it', async () => {
    const { user, brand } = await subscribedAffiliate();
    const order = await createOrder(user.id, brand.id, {}, [{ name: 'Lamp' }]);
    await prisma.$executeRaw`UPDATE "Order" SET "status" = 'APPROVED' WHERE "id" = ${order.id}::uuid`;
    await prisma.$executeRaw`UPDATE "Order" SET "status" = 'PAID' WHERE "id" = ${order.id}::uuid`;
    await until(() => receivedFor(order.id).length === 3, 'three events');

    const [created, approved, paid] = receivedFor(order.id);
    expect([created, approved, paid].map((webhook) => webhook!.body.type)).toEqual([
      'order.created',
      'order.status_changed',
      'order.status_changed',
    ]);
    expect(approved!.body.data.previousStatus).toBe('PENDING');
    expect(paid!.body.data.previousStatus).toBe('APPROVED');
    expect(created!.body.data).not.toHaveProperty('previousStatus');
    expect(new Set([created, approved, paid].map((webhook) => webhook!.id)).size).toBe(3);
    for (const webhook of [created, approved, paid]) {
      expect(Math.abs(webhook!.timestamp - Date.now() / 1000)).toBeLessThan(60);
      expect(Date.parse(webhook!.body.timestamp)).not.toBeNaN();
    }
    // The order as the route answers it now (status PAID): the last event carries the same.
    const { apiKey } = await createApiKey('affiliate', { ownerId: user.id });
    const answer = await call(`/affiliate/orders/${order.id}`, { key: apiKey });
    expect(paid!.body.data.order).toEqual(answer.body.data);
    // And as the OpenAPI document's `webhooks` section describes them.
    const validator = schemaValidators(await fetchOpenApiDocument());
    const bodies = [
      ['OrderCreatedWebhook', created!.body],
      ['OrderStatusChangedWebhook', approved!.body],
      ['OrderStatusChangedWebhook', paid!.body],
    ] as const;
    for (const [schemaName, body] of bodies) {
      const validate = validator(schemaName);
      expect([schemaName, validate(body), validate.errors ?? null]).toEqual([
        schemaName,
        true,
        null,
      ]);
    }
  });

  test('the lifecycle written in SQL: order.adjusted, order.locked and order.paid arrive with the reason, the amounts before and the deltas, as the document describes them', async () => {
    const { user } = await subscribedAffiliate([...ORDER_EVENT_TYPES]);
    // Orders of this brand lock as soon as they are recorded: adjusted in the same transaction.
    const brand = await createBrand({ orderLockDays: 0 });
    const [order] = await prisma.$transaction([
      prisma.order.create({
        data: {
          orderNumber: 'LIFECYCLE-1',
          affiliateId: user.id,
          organizationId: brand.id,
          status: 'APPROVED',
          currency: 'EUR',
          transactionValueMinor: 10000,
          commissionRateBps: 500,
          earningsMinor: 500,
          orderedAt: new Date(),
        },
      }),
      prisma.$executeRaw`UPDATE "Order" SET "transactionValueMinor" = 8000, "earningsMinor" = 400,
        "statusReason" = 'RETURNED', "statusNote" = 'a lamp came back'
        WHERE "orderNumber" = 'LIFECYCLE-1' AND "organizationId" = ${brand.id}::uuid`,
    ]);
    await until(async () => {
      const [row] = await prisma.$queryRaw<{ past: boolean }[]>`
        SELECT "locksAt" < (now() AT TIME ZONE 'UTC')::timestamp(3) AS "past" FROM "Order" WHERE "id" = ${order.id}::uuid`;
      return row!.past;
    }, 'the lock date to pass');
    await lockDueOrders();
    await prisma.$executeRaw`UPDATE "Order" SET "status" = 'PAID' WHERE "id" = ${order.id}::uuid`;
    await until(() => receivedFor(order.id).length === 5, 'five events');

    const bodies = receivedFor(order.id).map((webhook) => webhook.body);
    expect(bodies.map((body) => body.type)).toEqual([
      'order.created',
      'order.adjusted',
      'order.locked',
      'order.status_changed',
      'order.paid',
    ]);
    const [, adjusted, locked, , paid] = bodies;
    expect(adjusted!.data).toEqual({
      order: expect.objectContaining({ id: order.id }),
      reason: 'RETURNED',
      note: 'a lamp came back',
      previousSaleAmount: 100,
      previousEarnings: 5,
      saleAmountDelta: -20,
      earningsDelta: -1,
    });
    expect(locked!.data).toEqual({ order: expect.objectContaining({ id: order.id }) });
    expect(paid!.data).toEqual({
      order: expect.objectContaining({ id: order.id }),
      previousStatus: 'APPROVED',
    });
    const validator = schemaValidators(await fetchOpenApiDocument());
    for (const [schemaName, body] of [
      ['OrderAdjustedWebhook', adjusted],
      ['OrderLockedWebhook', locked],
      ['OrderPaidWebhook', paid],
    ] as const) {
      const validate = validator(schemaName);
      expect([schemaName, validate(body), validate.errors ?? null]).toEqual([
        schemaName,
        true,
        null,
      ]);
    }
  });

  test('an event the endpoint did not subscribe to is not sent', async () => {
    const { user, brand } = await subscribedAffiliate(['order.status_changed']);
    const order = await createOrder(user.id, brand.id);
    await prisma.order.update({
      where: { id: order.id },
      data: { status: 'REJECTED', statusReason: 'FRAUD' },
    });
    await until(() => receivedFor(order.id).length === 1, 'the status change');
    expect(receivedFor(order.id)[0]!.body).toMatchObject({
      type: 'order.status_changed',
      data: { previousStatus: 'PENDING', order: { id: order.id, status: 'REJECTED' } },
    });
    // An adjustment is recorded (order.adjusted) but not sent to it either.
    await prisma.order.update({
      where: { id: order.id },
      data: { earningsMinor: 1, statusReason: 'AMOUNT_CORRECTED' },
    });
    expect(await prisma.webhookEvent.count({ where: { orderId: order.id } })).toBe(3);
    expect(await prisma.webhookDelivery.count({ where: { orderId: order.id } })).toBe(1);
  });

  test('a rolled-back change sends nothing', async () => {
    const { user, brand, endpoint } = await subscribedAffiliate();
    const kept = await createOrder(user.id, brand.id);
    await rolledBackOrderChanges(kept, 'ROLLED-BACK');
    await prisma.order.update({
      where: { id: kept.id },
      data: { status: 'REJECTED', statusReason: 'CANCELLED' },
    });
    await until(() => receivedFor(kept.id).length === 2, 'the committed events');
    expect(receivedFor(kept.id).map((webhook) => webhook.body.data.previousStatus)).toEqual([
      undefined,
      'PENDING',
    ]);
    expect(await prisma.webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(2);
    expect(receiver.received.some((webhook) => webhook.raw.includes('ROLLED-BACK'))).toBe(false);
  });

  test('the receiver down for a while: delivered later, each order’s events still in order', async () => {
    const { user, brand, endpoint, token } = await subscribedAffiliate(ORDER_EVENTS, '/down');
    let isDown = true;
    const answer = receiver.answer;
    const order = await createOrder(user.id, brand.id);
    receiver.answer = (webhook) =>
      isDown && webhook.body.data.order?.id === order.id ? 503 : answer(webhook);
    await until(
      () => receiver.attempts.some((w) => w.body.data.order?.id === order.id),
      'a first attempt',
    );
    await prisma.order.update({ where: { id: order.id }, data: { status: 'APPROVED' } });
    // The status change waits behind the undelivered creation.
    await until(
      () => receiver.attempts.filter((w) => w.body.data.order?.id === order.id).length >= 2,
      'a retry',
    );
    expect(
      receiver.attempts.filter((w) => w.body.data.order?.id === order.id).map((w) => w.body.type),
    ).toEqual(['order.created', 'order.created']);
    isDown = false;
    await until(() => receivedFor(order.id).length === 2, 'both events');
    expect(receivedFor(order.id).map((webhook) => webhook.body.type)).toEqual([
      'order.created',
      'order.status_changed',
    ]);
    // Every attempt of the creation carried the same webhook-id.
    const creationIds = receiver.attempts
      .filter((w) => w.body.data.order?.id === order.id && w.body.type === 'order.created')
      .map((w) => w.id);
    expect(new Set(creationIds).size).toBe(1);
    receiver.answer = answer;

    // The dispatcher records an answer after the receiver has sent it.
    await until(
      async () =>
        (await prisma.webhookDelivery.count({
          where: { orderId: order.id, state: 'DELIVERED' },
        })) === 2,
      'both recorded as delivered',
    );
    const { body } = await graphql(DELIVERIES, { id: endpoint.id }, { token });
    const [changed, created] = body.data.webhookDeliveries;
    expect(created).toMatchObject({
      webhookId: creationIds[0],
      eventType: 'order.created',
      orderId: order.id,
      state: 'DELIVERED',
      nextAttemptAt: null,
      deliveredAt: expect.any(String),
    });
    expect(created.attempts.length).toBeGreaterThanOrEqual(2);
    // Newest first: the delivery, after the first attempt's 503.
    expect(created.attempts[0]).toMatchObject({ statusCode: 204, error: null });
    expect(created.attempts.at(-1)).toEqual({
      attemptedAt: expect.any(String),
      statusCode: 503,
      durationMs: expect.any(Number),
      error: 'answered HTTP 503',
    });
    // The endpoint's answers are on the delivery's own view.
    const detail = (await graphql(DELIVERY, { id: created.id }, { token })).body.data
      .webhookDelivery;
    expect(detail.delivery).toEqual(created);
    expect(detail.attempts.at(-1)).toEqual({
      attempt: created.attempts.at(-1),
      responseBody: 'answered 503',
    });
    expect(changed).toMatchObject({
      eventType: 'order.status_changed',
      state: 'DELIVERED',
      attemptCount: 1,
    });
  });

  test('connection refused until the receiver is back: delivered later', async () => {
    const { user, brand } = await subscribedAffiliate();
    await receiver.close();
    const order = await createOrder(user.id, brand.id);
    await until(
      async () =>
        (await prisma.webhookAttempt.count({
          where: { delivery: { orderId: order.id }, error: { startsWith: 'request failed' } },
        })) >= 1,
      'a refused attempt',
    );
    await receiver.open();
    await until(() => receivedFor(order.id).length === 1, 'the delivery');
  });

  test('retries exhausted: the endpoint is failing, then disabled, and says why', async () => {
    const { user, brand, endpoint, token } = await subscribedAffiliate(ORDER_EVENTS, '/failing');
    const answer = receiver.answer;
    const failingOrders = new Set<string>();
    receiver.answer = (webhook) =>
      failingOrders.has(webhook.body.data.order?.id) ? 500 : answer(webhook);
    const first = await createOrder(user.id, brand.id);
    failingOrders.add(first.id);
    const stateOf = async () =>
      (await graphql(LIST, {}, { token })).body.data.listWebhookEndpoints[0];
    await until(async () => (await stateOf()).failingSince !== null, 'failing', 30_000);
    expect(await stateOf()).toMatchObject({ enabled: true, disabledAt: null });
    // As if it had been failing for a day (not on a clock the retries race): the next delivery
    // that fails for good disables it.
    await prisma.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { failingSince: new Date(Date.now() - 86_400_000) },
    });
    const second = await createOrder(user.id, brand.id);
    failingOrders.add(second.id);
    await until(async () => (await stateOf()).enabled === false, 'disabled', 30_000);
    expect(await stateOf()).toMatchObject({
      failingSince: expect.any(String),
      disabledAt: expect.any(String),
      disabledReason: expect.stringContaining('Every delivery failed since'),
    });
    expect(await auditKinds(token, endpoint.id)).toEqual(['DISABLED', 'CREATED']);
    const deliveries = (await graphql(DELIVERIES, { id: endpoint.id }, { token })).body.data
      .webhookDeliveries;
    expect(
      deliveries.map((d: { state: string; attemptCount: number }) => [d.state, d.attemptCount]),
    ).toEqual([
      ['FAILED', 3],
      ['FAILED', 3],
    ]);

    // Redelivered once the receiver works: the same webhook-id, after the endpoint is enabled again.
    failingOrders.clear();
    receiver.answer = answer;
    const redelivered = await graphql(REDELIVER, { id: deliveries[1].id }, { token });
    expect(redelivered.body.data.redeliverWebhook).toMatchObject({
      state: 'PENDING',
      attemptCount: 0,
    });
    await graphql(UPDATE, { id: endpoint.id, input: { enabled: true } }, { token });
    await until(() => receivedFor(first.id).length === 1, 'the redelivery');
    expect(receivedFor(first.id)[0]!.id).toBe(deliveries[1].webhookId);
    expect(await stateOf()).toMatchObject({
      enabled: true,
      failingSince: null,
      disabledReason: null,
    });
    expect(await auditKinds(token, endpoint.id)).toEqual([
      'UPDATED',
      'REDELIVERY_REQUESTED',
      'DISABLED',
      'CREATED',
    ]);
  });

  test('sendTestWebhook sends a webhook.test event; a rotated secret signs beside the new one for its grace', async () => {
    const { token, endpoint, secret } = await subscribedAffiliate(['order.created'], '/test-event');
    const sent = await graphql(SEND_TEST, { id: endpoint.id }, { token });
    expect(sent.body.data.sendTestWebhook).toMatchObject({
      eventType: 'webhook.test',
      orderId: null,
      state: 'PENDING',
    });
    const webhookId = sent.body.data.sendTestWebhook.webhookId;
    await until(() => receiver.received.some((w) => w.id === webhookId), 'the test event');
    expect(receiver.received.find((w) => w.id === webhookId)!.body).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { endpointId: endpoint.id },
    });

    const rotated = (await graphql(ROTATE, { id: endpoint.id }, { token })).body.data
      .rotateWebhookSecret;
    receiver.secrets.push(rotated.secret);
    const again = (await graphql(SEND_TEST, { id: endpoint.id }, { token })).body.data
      .sendTestWebhook;
    await until(() => receiver.received.some((w) => w.id === again.webhookId), 'the second test');
    const signed = receiver.received.find((w) => w.id === again.webhookId)!;
    const signatures = signed.signature.split(' ');
    expect(signatures).toHaveLength(2);
    // Each secret alone verifies the message.
    const { Webhook } = await import('standardwebhooks');
    const headers = {
      'webhook-id': signed.id,
      'webhook-timestamp': String(signed.timestamp),
      'webhook-signature': signed.signature,
    };
    expect(() => new Webhook(secret).verify(signed.raw, headers)).not.toThrow();
    expect(() => new Webhook(rotated.secret).verify(signed.raw, headers)).not.toThrow();
    expect(await auditKinds(token, endpoint.id)).toEqual([
      'TEST_SENT',
      'SECRET_ROTATED',
      'TEST_SENT',
      'CREATED',
    ]);
  });

  test('the address is checked again at delivery, after DNS, and the request goes to the address checked', async () => {
    const pinned = await subscribedAffiliate(['order.created'], '/pinned');
    const rebound = await subscribedAffiliate(['order.created'], '/rebound');
    // As if DNS changed after the endpoints were made.
    const port = new URL(receiver.url).port;
    await prisma.webhookEndpoint.update({
      where: { id: pinned.endpoint.id },
      data: { url: `http://pinned.test:${port}/pinned` },
    });
    await prisma.webhookEndpoint.update({
      where: { id: rebound.endpoint.id },
      data: { url: `http://rebound.test:${port}/rebound` },
    });
    const delivered = await createOrder(pinned.user.id, pinned.brand.id);
    const refused = await createOrder(rebound.user.id, rebound.brand.id);
    await until(() => receivedFor(delivered.id).length === 1, 'the pinned delivery');
    await until(
      async () =>
        (await prisma.webhookAttempt.count({ where: { delivery: { orderId: refused.id } } })) > 0,
      'the refused attempt',
    );
    const [attempt] = (
      await graphql(DELIVERIES, { id: rebound.endpoint.id }, { token: rebound.token })
    ).body.data.webhookDeliveries[0].attempts;
    expect(attempt).toMatchObject({
      statusCode: null,
      error: 'not sent: the host rebound.test resolves to a metadata address',
    });
    expect(receivedFor(refused.id)).toEqual([]);
  });

  test('a long answer is stored cut to 4 KiB', async () => {
    const { token, endpoint } = await subscribedAffiliate(ORDER_EVENTS, '/long');
    const long = await startLongAnswerServer();
    try {
      await prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { url: long.url } });
      await graphql(SEND_TEST, { id: endpoint.id }, { token });
      await until(
        async () =>
          (await prisma.webhookAttempt.count({
            where: { delivery: { endpointId: endpoint.id } },
          })) === 1,
        'the attempt',
      );
      const attempt = await prisma.webhookAttempt.findFirstOrThrow({
        where: { delivery: { endpointId: endpoint.id } },
      });
      expect(attempt.statusCode).toBe(200);
      expect(attempt.responseBody).toBe('x'.repeat(4096));
    } finally {
      await long.close();
    }
  });

  describe('at GET /metrics', () => {
    const attempts = (outcome: 'delivered' | 'failed') =>
      metricNow('webhook_delivery_attempts_total', { outcome });
    const pending = () => metricNow('webhook_deliveries_pending');

    test('a delivered attempt counts as delivered and its duration is observed', async () => {
      const { user, brand, endpoint, secret } = await subscribedAffiliate();
      const before = await scrape();
      const order = await createOrder(user.id, brand.id);
      await until(() => receivedFor(order.id).length === 1, 'the delivery');
      const delivered = valueOf(before, 'webhook_delivery_attempts_total', {
        outcome: 'delivered',
      });
      await until(async () => (await attempts('delivered')) > delivered, 'the counted attempt');
      const after = await scrape();
      expect(valueOf(after, 'webhook_delivery_duration_seconds_count')).toBeGreaterThan(
        valueOf(before, 'webhook_delivery_duration_seconds_count'),
      );
      expect(valueOf(after, 'webhook_delivery_duration_seconds_sum')).toBeGreaterThan(
        valueOf(before, 'webhook_delivery_duration_seconds_sum'),
      );
      // Two outcomes, never an endpoint, a URL or a secret.
      expect(after).toMatch(/^webhook_delivery_attempts_total\{outcome="delivered"\} \d+$/m);
      for (const unbounded of [endpoint.id, receiver.url, secret]) {
        expect(after).not.toContain(unbounded);
      }
    });

    test('the receiver down: failed attempts are counted and the delivery waits, pending until it is back', async () => {
      const { user, brand } = await subscribedAffiliate();
      const failed = await attempts('failed');
      await receiver.close();
      const order = await createOrder(user.id, brand.id);
      await until(async () => (await attempts('failed')) > failed, 'a failed attempt counted');
      expect(await pending()).toBeGreaterThan(0);
      await receiver.open();
      await until(() => receivedFor(order.id).length === 1, 'the delivery');
      await until(async () => (await pending()) === 0, 'nothing pending');
    });

    test('the database not answering fails no scrape: the pending gauge keeps its last value', async () => {
      const { user, brand } = await subscribedAffiliate();
      await receiver.close();
      try {
        await createOrder(user.id, brand.id);
        await until(async () => (await pending()) > 0, 'a pending delivery');
        const last = await pending();
        const outage = jest
          .spyOn(prisma.webhookDelivery, 'count')
          .mockRejectedValue(new Error("Can't reach database server"));
        try {
          expect(await pending()).toBe(last);
          expect(outage).toHaveBeenCalled();
        } finally {
          outage.mockRestore();
        }
      } finally {
        await receiver.open();
      }
      await until(async () => (await pending()) === 0, 'nothing pending');
    });
  });
});

/** A receiver whose answer is 100 KB long. */
async function startLongAnswerServer() {
  const { createServer } = await import('node:http');
  const server = createServer((_request, response) => {
    response.writeHead(200).end('x'.repeat(100_000));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/long`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('bounded answers', () => {
  /**
   * An affiliate's endpoint with `deliveries` failed deliveries (newest last) of `attempts`
   * attempts each (attempt n took n ms, newest last), every answer `answer`.
   */
  async function endpointWithHistory(deliveries: number, attempts: number, answer: string) {
    const { user, token } = await affiliateDashboard();
    const endpoint = await prisma.webhookEndpoint.create({
      data: {
        ownerId: user.id,
        url: 'https://127.0.0.1/h',
        events: ORDER_EVENTS,
        secret: 'whsec_x',
      },
    });
    const ids: string[] = [];
    for (let d = 0; d < deliveries; d++) {
      const event = await prisma.webhookEvent.create({
        data: { type: 'order.created', payload: '{}' },
      });
      const delivery = await prisma.webhookDelivery.create({
        data: {
          eventId: event.id,
          endpointId: endpoint.id,
          seq: event.seq,
          state: 'FAILED',
          attemptCount: attempts,
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, d)),
        },
      });
      await prisma.webhookAttempt.createMany({
        data: Array.from({ length: attempts }, (_, n) => ({
          deliveryId: delivery.id,
          attemptedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, d, n)),
          statusCode: 500,
          durationMs: n,
          error: 'answered HTTP 500',
          responseBody: answer,
        })),
      });
      ids.push(delivery.id);
    }
    return { token, endpointId: endpoint.id, deliveryIds: ids };
  }

  const aliases = (count: number, selection: string) =>
    `{ ${Array.from({ length: count }, (_, n) => `a${n}: ${selection}`).join(' ')} }`;

  test("a listed delivery shows its newest 10 attempts without the endpoint's answers; webhookDelivery its newest 50 with them", async () => {
    const { token, endpointId, deliveryIds } = await endpointWithHistory(1, 60, 'busy');
    const listed = (await graphql(DELIVERIES, { id: endpointId }, { token })).body.data
      .webhookDeliveries[0];
    expect(listed.attempts.map((attempt: { durationMs: number }) => attempt.durationMs)).toEqual(
      Array.from({ length: 10 }, (_, n) => 59 - n),
    );
    const withAnswers = await graphql(
      'query ($id: ID!) { webhookDeliveries(endpointId: $id) { attempts { responseBody } } }',
      { id: endpointId },
      { token },
    );
    expect(withAnswers.body.errors[0].message).toMatch(
      /^Cannot query field "responseBody" on type "WebhookAttempt"/,
    );

    const detail = (await graphql(DELIVERY, { id: deliveryIds[0] }, { token })).body.data
      .webhookDelivery;
    expect(detail.delivery).toEqual(listed);
    expect(detail.attempts).toHaveLength(50);
    expect(detail.attempts[0]).toEqual({
      attempt: listed.attempts[0],
      responseBody: 'busy',
    });
    expect(detail.attempts.at(-1).attempt.durationMs).toBe(10);
  });

  test("another user's delivery is NOT_FOUND on webhookDelivery", async () => {
    const { deliveryIds } = await endpointWithHistory(1, 1, 'x');
    const other = await affiliateDashboard();
    const { body } = await graphql(DELIVERY, { id: deliveryIds[0] }, { token: other.token });
    expect(body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  test('100 deliveries of 8 attempts with 4 KiB answers: one list is small, fifteen aliases of it are refused before any resolver', async () => {
    const { token, endpointId } = await endpointWithHistory(100, 8, 'x'.repeat(4096));
    const selection = `webhookDeliveries(endpointId: "${endpointId}") { ${DELIVERY_FIELDS} }`;
    const one = await call('/graphql', { token, body: { query: `{ ${selection} }` } });
    expect(one.status).toBe(200);
    expect(one.body.data.webhookDeliveries).toHaveLength(100);
    // No answer bodies in a list: about 1 KiB a delivery, not 32.
    expect(JSON.stringify(one.body)).not.toContain('xxxx');
    expect(JSON.stringify(one.body).length).toBeLessThan(150_000);

    const deliveries = jest.spyOn(prisma.webhookDelivery, 'findMany');
    try {
      const fifteen = await call('/graphql', { token, body: { query: aliases(15, selection) } });
      expect(fifteen.status).toBe(400);
      expect(fifteen.body.errors[0]).toEqual({
        message: expect.stringMatching(/^Operation cost limit of \d+ exceeded, found \d+\.$/),
        extensions: { code: 'BAD_REQUEST' },
      });
      expect(deliveries).not.toHaveBeenCalled();
    } finally {
      deliveries.mockRestore();
    }
  });

  test("fifteen deliveries' fifty answers each, as kept, are answered well within the answer budget", async () => {
    // The most aliases allowed, each a delivery's every attempt with a kept answer of 4 KiB.
    const { token, deliveryIds } = await endpointWithHistory(1, 50, 'x'.repeat(4096));
    const selection = `webhookDelivery(id: "${deliveryIds[0]}") { attempts { responseBody } }`;
    const fifteen = await send(app, '/graphql', {
      method: 'POST',
      headers: { 'x-api-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ query: aliases(15, selection) }),
    });
    expect(fifteen.status).toBe(200);
    expect(fifteen.text.length).toBeGreaterThan(15 * 50 * 4096);
    expect(fifteen.text.length).toBeLessThan(MAX_ANSWER_BYTES);
  });

  test('an answer over 5 MiB is refused with a 400 naming the limit', async () => {
    // Control characters are written \u0001 in JSON: 24 KiB an answer, 1.2 MiB a delivery.
    const { token, deliveryIds } = await endpointWithHistory(1, 50, '\u0001'.repeat(4096));
    const selection = `webhookDelivery(id: "${deliveryIds[0]}") { attempts { responseBody } }`;
    const one = await call('/graphql', { token, body: { query: `{ ${selection} }` } });
    expect(one.status).toBe(200);
    expect(one.body.data.webhookDelivery.attempts).toHaveLength(50);

    const five = await call('/graphql', { token, body: { query: aliases(5, selection) } });
    expect(five.status).toBe(400);
    expect(five.body).toEqual({
      errors: [
        {
          message: expect.stringMatching(
            /^Answer size limit of 5242880 bytes exceeded: ask for fewer rows, fields or aliases$/,
          ),
          extensions: { code: 'BAD_REQUEST' },
        },
      ],
    });
  });
});

describe('history', () => {
  test('finished events older than 30 days are deleted; pending and failed ones stay', async () => {
    const { token } = await affiliateDashboard();
    const { endpoint } = await createEndpoint(token, {
      url: 'https://127.0.0.1/history',
      events: ORDER_EVENTS,
    });
    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
    const eventWith = async (occurredAt: Date, state?: 'DELIVERED' | 'FAILED' | 'PENDING') => {
      const event = await prisma.webhookEvent.create({
        data: { type: 'webhook.test', occurredAt, payload: '{}' },
      });
      if (state) {
        await prisma.webhookDelivery.create({
          data: { eventId: event.id, endpointId: endpoint.id, seq: event.seq, state },
        });
      }
      return event.id;
    };
    const old = {
      delivered: await eventWith(daysAgo(31), 'DELIVERED'),
      withoutDeliveries: await eventWith(daysAgo(31)),
      failed: await eventWith(daysAgo(31), 'FAILED'),
      pending: await eventWith(daysAgo(31), 'PENDING'),
    };
    const recent = await eventWith(daysAgo(29), 'DELIVERED');
    await pruneWebhookHistory(now);
    const left = await prisma.webhookEvent.findMany({
      where: { id: { in: [...Object.values(old), recent] } },
      select: { id: true },
    });
    expect(new Set(left.map((event) => event.id))).toEqual(
      new Set([old.failed, old.pending, recent]),
    );
    await prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { deletedAt: now } });
  });
});

// Replicas are processes of their own here, each running its dispatcher (PostgreSQL: the embedded
// database belongs to one process). Their settings: a short lease and poll, so a dead
// dispatcher's claim ends soon.
const REPLICA_ENV = {
  WEBHOOK_ALLOW_PRIVATE_URLS: '1',
  WEBHOOK_LEASE_S: '4',
  WEBHOOK_POLL_INTERVAL_MS: '200',
  WEBHOOK_RETRY_DELAYS_S: '1,1,1',
};

const withSharedServers = config.databaseUrl ? describe : describe.skip;

withSharedServers('webhooks across replicas (PostgreSQL)', () => {
  let receiver: Receiver;
  const replicas: Replica[] = [];
  const start = async () => {
    const replica = await startReplica(REPLICA_ENV, 'src/server.ts');
    replicas.push(replica);
    return replica;
  };

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    for (const replica of replicas) replica.process.kill('SIGKILL');
    await receiver.close();
  });

  async function replicaSubscriber() {
    const user = await createUser('AFFILIATE');
    const token = await signDashboardToken(user.id);
    const input = { url: receiver.url, events: ['order.created', 'order.status_changed'] };
    const { body } = await graphql(CREATE, { input }, { token });
    receiver.secrets.push(body.data.createWebhookEndpoint.secret);
    return { user, brand: await createBrand() };
  }

  test('a dispatcher killed mid-delivery: delivered after restart, with the same webhook-id', async () => {
    const { user, brand } = await replicaSubscriber();
    receiver.answer = () => 'hold';
    const dying = await start();
    const order = await createOrder(user.id, brand.id);
    await until(() => receiver.attempts.length === 1, 'the first attempt');
    dying.process.kill('SIGKILL');
    await dying.exited;
    receiver.answer = () => 204;
    await start();
    await until(() => receiver.received.length === 1, 'the delivery after restart', 30_000);
    expect(receiver.received[0]!.id).toBe(receiver.attempts[0]!.id);
    expect(receiver.received[0]!.body).toMatchObject({
      type: 'order.created',
      data: { order: { id: order.id } },
    });
    // The killed attempt left no record; the delivery shows the one that succeeded.
    const isDelivered = async () =>
      (await prisma.webhookDelivery.count({ where: { orderId: order.id, state: 'DELIVERED' } })) ===
      1;
    await until(isDelivered, 'the delivery recorded');
    const delivery = await prisma.webhookDelivery.findFirstOrThrow({
      where: { orderId: order.id },
      include: { attempts: true },
    });
    expect(delivery).toMatchObject({ state: 'DELIVERED', attemptCount: 1 });
    expect(delivery.attempts.map((attempt) => attempt.statusCode)).toEqual([204]);
  }, 60_000);

  test('1,000 changes across two replicas: 1,000 distinct events, each sent once, each order’s in order', async () => {
    while (replicas.filter((replica) => replica.process.exitCode === null).length < 2) {
      await start();
    }
    receiver.received.length = 0;
    receiver.attempts.length = 0;
    const { user, brand } = await replicaSubscriber();
    // 600 orders inserted and 400 of them approved, in SQL, as the back office writes them.
    await prisma.$executeRaw`
      INSERT INTO "Order" ("id", "orderNumber", "affiliateId", "organizationId", "status",
        "currency", "transactionValueMinor", "commissionRateBps", "earningsMinor", "orderedAt")
      SELECT gen_random_uuid(), 'BULK-' || n, ${user.id}::uuid, ${brand.id}::uuid, 'PENDING',
        'EUR', 1000, 500, 50, now()
      FROM generate_series(1, 600) AS n`;
    await prisma.$executeRaw`
      UPDATE "Order" SET "status" = 'APPROVED'
      WHERE "affiliateId" = ${user.id}::uuid AND substring("orderNumber" from 6)::int <= 400`;
    // Every delivery recorded as delivered: nothing is left to send, so nothing more can arrive.
    const allDelivered = async () =>
      (await prisma.webhookDelivery.count({
        where: { endpoint: { ownerId: user.id }, state: 'DELIVERED' },
      })) === 1_000;
    await until(allDelivered, '1,000 deliveries', 90_000);
    expect(receiver.received).toHaveLength(1_000);
    expect(new Set(receiver.received.map((webhook) => webhook.id)).size).toBe(1_000);
    const typesByOrder = new Map<string, string[]>();
    for (const webhook of receiver.received) {
      const id = webhook.body.data.order.id as string;
      typesByOrder.set(id, [...(typesByOrder.get(id) ?? []), webhook.body.type]);
    }
    expect(typesByOrder.size).toBe(600);
    const sequences = new Set([...typesByOrder.values()].map((types) => types.join(' > ')));
    expect(sequences).toEqual(new Set(['order.created', 'order.created > order.status_changed']));
  }, 120_000);
});
