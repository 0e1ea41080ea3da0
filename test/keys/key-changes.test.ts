// Verified keys are remembered (src/auth/keyCache.ts), and every change of a key or its account
// still takes effect on every replica within 1 s (docs/decisions.md, "Key security"): on the
// replica that makes it at once, everywhere as soon as the database announces it, also when the
// back office writes SQL.
import { generateApiKey } from '../../src/auth/keyFormat';
import { signDashboardToken } from '../../src/auth/dashboardToken';
import { config } from '../../src/platform/config';
import { prisma } from '../../src/platform/db';
import { call, callApp, createIsolatedApp, useTestDatabase } from '../support/app';
import { createApiKey } from '../support/factories';
import { startReplica, type Replica } from '../support/replica';
import { until } from '../support/wait';

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

/** Milliseconds until `status()` answers `expected` (it must within 1 s). */
async function within1s(status: () => Promise<number>, expected: number): Promise<number> {
  const started = Date.now();
  await until(async () => (await status()) === expected, `${expected}`, 1_000);
  return Date.now() - started;
}

test('a remembered partner key is refused within 1 s of its account being closed in SQL', async () => {
  const { apiKey, row } = await createApiKey('partner');
  expect((await call(ORGANIZATIONS, { key: apiKey })).status).toBe(200);
  await prisma.$executeRaw`UPDATE "User" SET "deletedAt" = now() WHERE "id" = ${row.ownerId}::uuid`;
  const status = async () => (await call(ORGANIZATIONS, { key: apiKey })).status;
  expect(await within1s(status, 401)).toBeLessThan(1_000);
});

test('a remembered affiliate key answers 404 "Affiliate not found" within 1 s of its account being closed', async () => {
  const { apiKey, row } = await createApiKey('affiliate');
  expect((await call('/affiliate/channels', { key: apiKey })).status).toBe(200);
  await prisma.user.update({ where: { id: row.ownerId }, data: { deletedAt: new Date() } });
  const status = async () => (await call('/affiliate/channels', { key: apiKey })).status;
  await within1s(status, 404);
  expect((await call('/affiliate/channels', { key: apiKey })).body.message).toBe(
    'Affiliate not found',
  );
});

test('a remembered key revoked in SQL is refused within 1 s', async () => {
  const { apiKey, row } = await createApiKey('partner');
  expect((await call(ORGANIZATIONS, { key: apiKey })).status).toBe(200);
  await prisma.$executeRaw`UPDATE "ApiKey" SET "revokedAt" = now() WHERE "id" = ${row.id}::uuid`;
  const status = async () => (await call(ORGANIZATIONS, { key: apiKey })).status;
  expect(await within1s(status, 401)).toBeLessThan(1_000);
});

test("recording a key's use does not make replicas forget it", async () => {
  const { apiKey, row } = await createApiKey('partner');
  expect((await call(ORGANIZATIONS, { key: apiKey })).status).toBe(200);
  await prisma.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  const lookups = countKeyLookups();
  try {
    expect((await call(ORGANIZATIONS, { key: apiKey })).status).toBe(200);
    expect(lookups.count()).toBe(0);
  } finally {
    lookups.restore();
  }
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
const withSharedServers = config.databaseUrl ? describe : describe.skip;

withSharedServers('across replicas (PostgreSQL)', () => {
  let replicas: Replica[] = [];

  beforeAll(async () => {
    replicas = await Promise.all([startReplica({}), startReplica({})]);
  }, 180_000);
  afterAll(() => replicas.forEach((replica) => replica.process.kill('SIGKILL')));

  const statusOn = async (replica: Replica, apiKey: string) =>
    (await fetch(`${replica.base}${ORGANIZATIONS}`, { headers: { 'x-api-key': apiKey } })).status;

  /** Milliseconds until `replica` refuses `apiKey` (it must within 1 s). */
  async function untilRefused(replica: Replica, apiKey: string): Promise<number> {
    const started = Date.now();
    await until(async () => (await statusOn(replica, apiKey)) === 401, 'the key refused', 1_000);
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
    // Heard from the database, not waited out: unheard, the copy would be trusted for up to 1 s.
    expect(await untilRefused(remembering, apiKey)).toBeLessThan(500);
  });

  test('an account closed in SQL opens nothing on any replica within 1 s', async () => {
    const { apiKey, row } = await createApiKey('partner');
    for (const replica of replicas) expect(await statusOn(replica, apiKey)).toBe(200);
    await prisma.user.update({ where: { id: row.ownerId }, data: { deletedAt: new Date() } });
    for (const replica of replicas) {
      expect(await untilRefused(replica, apiKey)).toBeLessThan(1_000);
    }
  });
});

test('each app remembers its own keys: a second app in the process looks the key up itself', async () => {
  const { apiKey } = await createApiKey('partner');
  const [first, second] = [createIsolatedApp(), createIsolatedApp()];
  expect((await callApp(first, ORGANIZATIONS, { key: apiKey })).status).toBe(200);
  expect(first.keys.remembered.size).toBe(1);
  expect(second.keys.remembered.size).toBe(0);
  const lookups = countKeyLookups();
  try {
    expect((await callApp(second, ORGANIZATIONS, { key: apiKey })).status).toBe(200);
    expect(lookups.count()).toBe(1);
  } finally {
    lookups.restore();
  }
});
