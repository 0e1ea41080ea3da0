// Order webhooks across replicas, each a process of its own running its dispatcher (PostgreSQL:
// the embedded database belongs to one process): a dispatcher killed mid-delivery, and many
// changes shared by two dispatchers, against a real receiver verifying every signature.
import { signDashboardToken } from '../src/auth/dashboardToken';
import { config } from '../src/config';
import { prisma } from '../src/db';
import { graphql, useTestDatabase } from './support/app';
import { createBrand, createOrder, createUser } from './support/factories';
import { startReplica, type Replica } from './support/replica';
import { startReceiver, until, type Receiver } from './support/webhookReceiver';

useTestDatabase();
// The receiver listens on 127.0.0.1, as in development.
Object.assign(config, { webhookAllowPrivateUrls: true });

const CREATE = `mutation ($input: CreateWebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) { secret endpoint { id } } }`;

/** The replicas' webhook settings: a short lease and poll, so a dead dispatcher's claim ends soon. */
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

  async function subscribedAffiliate() {
    const user = await createUser('AFFILIATE');
    const token = await signDashboardToken(user.id);
    const input = { url: receiver.url, events: ['order.created', 'order.status_changed'] };
    const { body } = await graphql(CREATE, { input }, { token });
    receiver.secrets.push(body.data.createWebhookEndpoint.secret);
    return { user, brand: await createBrand() };
  }

  test('a dispatcher killed mid-delivery: delivered after restart, with the same webhook-id', async () => {
    const { user, brand } = await subscribedAffiliate();
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
    const { user, brand } = await subscribedAffiliate();
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
