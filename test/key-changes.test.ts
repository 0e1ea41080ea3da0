// Verified keys are remembered (src/auth/keyCache.ts), and rotation and revocation still take
// effect on every replica within 1 s (decisions.md): on this replica at once, on the others as
// soon as they hear the change over Redis.
import { generateApiKey } from '../src/auth/keyFormat';
import { signDashboardToken } from '../src/auth/dashboardToken';
import { config } from '../src/config';
import { prisma } from '../src/db';
import { call, useTestDatabase } from './support/app';
import { createApiKey } from './support/factories';
import { startReplica, type Replica } from './support/replica';

useTestDatabase();

const ORGANIZATIONS = '/api/partner/organizations?limit=1';
const REVOKE = 'mutation ($id: ID!) { revokeApiKey(id: $id) { revokedAt } }';
const ROTATE = 'mutation ($id: ID!) { rotateApiKey(id: $id) { apiKey } }';

/** Counts the key lookups (src/auth/verifyApiKey.ts) the database is asked for. */
function countKeyLookups() {
  const spy = jest.spyOn(prisma, '$queryRaw');
  const count = () =>
    spy.mock.calls.filter(([sql]) =>
      (sql as unknown as readonly string[]).join('?').includes('"ApiKey" k'),
    ).length;
  return { count, restore: () => spy.mockRestore() };
}

async function dashboardCall(ownerId: string, query: string, id: string) {
  const token = await signDashboardToken(ownerId);
  return call('/graphql', { token, body: { query, variables: { id } } });
}

test('a verified key is looked up once, then remembered for its next requests', async () => {
  const { apiKey } = await createApiKey('partner');
  const lookups = countKeyLookups();
  try {
    for (let i = 0; i < 5; i++)
      expect((await call(ORGANIZATIONS, { key: apiKey })).status).toBe(200);
    expect(lookups.count()).toBe(1);
  } finally {
    lookups.restore();
  }
});

test('a wrong secret is never answered from memory', async () => {
  const { apiKey, row } = await createApiKey('partner');
  expect((await call(ORGANIZATIONS, { key: apiKey })).status).toBe(200);
  const lookups = countKeyLookups();
  try {
    // The same prefix with another secret, checksum and all.
    const wrong = generateApiKey('test', row.prefix!).apiKey;
    expect((await call(ORGANIZATIONS, { key: wrong })).status).toBe(401);
    expect(lookups.count()).toBe(1);
  } finally {
    lookups.restore();
  }
});

test('a remembered key revoked through the dashboard is refused at once', async () => {
  const { apiKey, row } = await createApiKey('partner');
  expect((await call(ORGANIZATIONS, { key: apiKey })).status).toBe(200);
  expect((await dashboardCall(row.ownerId, REVOKE, row.id)).body.errors).toBeUndefined();
  expect((await call(ORGANIZATIONS, { key: apiKey })).status).toBe(401);
});

test('a remembered secret replaced by a rotation is refused at once', async () => {
  const { apiKey, row } = await createApiKey('partner');
  expect((await call(ORGANIZATIONS, { key: apiKey })).status).toBe(200);
  const rotated = await dashboardCall(row.ownerId, ROTATE, row.id);
  expect((await call(ORGANIZATIONS, { key: apiKey })).status).toBe(401);
  expect((await call(ORGANIZATIONS, { key: rotated.body.data.rotateApiKey.apiKey })).status).toBe(
    200,
  );
});

// Replicas are processes of their own here: in one process they would share the memory.
const withSharedServers = config.databaseUrl && config.redisUrl ? describe : describe.skip;

withSharedServers('across replicas (PostgreSQL + Redis)', () => {
  let replicas: Replica[] = [];

  beforeAll(async () => {
    replicas = await Promise.all([startReplica({}), startReplica({})]);
  }, 60_000);
  afterAll(() => replicas.forEach((replica) => replica.process.kill('SIGKILL')));

  const statusOn = async (replica: Replica, apiKey: string) =>
    (await fetch(`${replica.base}${ORGANIZATIONS}`, { headers: { 'x-api-key': apiKey } })).status;

  /** Milliseconds until `replica` refuses `apiKey` (it must within 1 s). */
  async function untilRefused(replica: Replica, apiKey: string): Promise<number> {
    const started = Date.now();
    while ((await statusOn(replica, apiKey)) !== 401) {
      if (Date.now() - started > 1_000) throw new Error('still accepted after 1 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return Date.now() - started;
  }

  async function changeOn(replica: Replica, ownerId: string, query: string, id: string) {
    const response = await fetch(`${replica.base}/graphql`, {
      method: 'POST',
      headers: {
        'x-api-token': await signDashboardToken(ownerId),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ query, variables: { id } }),
    });
    expect((await response.json()).errors).toBeUndefined();
  }

  test.each([
    ['revoked', REVOKE],
    ['rotated', ROTATE],
  ])('a key %s on one replica is refused by the other within 1 s', async (_change, query) => {
    const [remembering, changing] = replicas as [Replica, Replica];
    const { apiKey, row } = await createApiKey('partner');
    expect(await statusOn(remembering, apiKey)).toBe(200);
    expect(await statusOn(remembering, apiKey)).toBe(200);
    await changeOn(changing, row.ownerId, query, row.id);
    // Heard over Redis, not waited out: unheard, the copy would be trusted for up to 1 s.
    expect(await untilRefused(remembering, apiKey)).toBeLessThan(500);
  });
});
