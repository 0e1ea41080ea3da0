// Key management over GraphQL (dashboard JWT in x-api-token) and the keys it issues.
import { DEMO_USERS } from '../../src/auth/demoIdentities';
import { tokenPlaceholder } from '../../src/graphql/graphiql';
import { SignJWT } from 'jose';
import { signDashboardToken } from '../../src/auth/dashboardToken';
import { generateApiKey, parseApiKey, sha256Hex } from '../../src/auth/keyFormat';
import { SCOPES_BY_KEY_TYPE } from '../../src/auth/scopes';
import { config } from '../../src/platform/config';
import { isEmbeddedDatabase, prisma } from '../../src/platform/db';
import { createApp } from '../../src/app';
import {
  call,
  createIsolatedApp,
  graphql,
  listen,
  postAtOnce,
  useTestDatabase,
} from '../support/app';
import { createApiKey, createLegacyKey, createUser } from '../support/factories';
import { holdLock, untilWaitingFor, untilWaitingForLocks } from '../support/locks';

useTestDatabase();

const KEY_FIELDS = 'id name type version prefix scopes createdAt lastUsedAt expiresAt revokedAt';
const CREATE = `mutation ($input: CreateApiKeyInput!) {
  createApiKey(input: $input) { apiKey key { ${KEY_FIELDS} } } }`;
const ROTATE = `mutation ($id: ID!) { rotateApiKey(id: $id) { apiKey key { ${KEY_FIELDS} } } }`;
const REVOKE = `mutation ($id: ID!) { revokeApiKey(id: $id) { ${KEY_FIELDS} } }`;
const LIST = `{ listApiKeys { ${KEY_FIELDS} } }`;

async function dashboardFor(role: 'AFFILIATE' | 'PARTNER') {
  const user = await createUser(role);
  return { user, token: await signDashboardToken(user.id) };
}

const ROTATED_MEANWHILE =
  'The key was rotated or revoked by another request while this one ran; this rotation changed nothing';

/**
 * Runs `work` while the key's row is locked, on PostgreSQL until `waiters` statements wait for it
 * (every one of them has read the key, and none can change it), then lets them go. The embedded
 * database runs one statement at a time: there `work` just runs.
 */
async function whileRowWaits<T>(
  keyId: string,
  waiters: number,
  work: () => Promise<T>,
): Promise<T> {
  if (isEmbeddedDatabase) return work();
  const lock = await holdLock('SELECT 1 FROM "ApiKey" WHERE "id" = $1::uuid FOR UPDATE', [keyId]);
  const running = work();
  try {
    await untilWaitingForLocks(waiters);
  } finally {
    await lock.release();
  }
  return running;
}

async function createKey(token: string, input: Record<string, unknown> = { name: 'CI' }) {
  const { body } = await graphql(CREATE, { input }, { token });
  return body;
}

describe('createApiKey', () => {
  test('issues a v2 affiliate key with every affiliate scope, shown once', async () => {
    const { user, token } = await dashboardFor('AFFILIATE');
    const body = await createKey(token, { name: '  Storefront  ' });
    const { apiKey, key } = body.data.createApiKey;
    const parsed = parseApiKey(apiKey);
    expect(parsed).toMatchObject({ version: 'v2', env: 'test' });
    expect(key).toEqual({
      id: expect.any(String),
      name: 'Storefront',
      type: 'affiliate',
      version: 'v2',
      prefix: parsed!.version === 'v2' ? parsed!.prefix : null,
      scopes: [...SCOPES_BY_KEY_TYPE.affiliate],
      createdAt: expect.any(String),
      lastUsedAt: null,
      expiresAt: null,
      revokedAt: null,
    });
    const row = await prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.ownerId).toBe(user.id);
    expect(JSON.stringify(row)).not.toContain(apiKey.slice(-32));
  });

  test('the new key works on its surface at once', async () => {
    const { token } = await dashboardFor('PARTNER');
    const { apiKey, key } = (await createKey(token)).data.createApiKey;
    expect(key.type).toBe('partner');
    expect((await call('/api/partner/organizations', { key: apiKey })).status).toBe(200);
  });

  test('scopes narrow the key', async () => {
    const { token } = await dashboardFor('PARTNER');
    const { apiKey, key } = (
      await createKey(token, { name: 'dir', scopes: ['organizations:read'] })
    ).data.createApiKey;
    expect(key.scopes).toEqual(['organizations:read']);
    expect((await call('/api/partner/brands', { key: apiKey })).status).toBe(403);
  });

  test.each([
    [{ name: 'x', scopes: ['orders:read'] }, 'orders:read'],
    [{ name: 'x', scopes: ['nonsense'] }, 'nonsense'],
    [{ name: 'x', scopes: [] }, 'scopes'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: 'x', expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt'],
    [{ name: 'x', expiresAt: 'tomorrow' }, 'tomorrow'],
  ])('refuses %j with BAD_REQUEST', async (input, word) => {
    const { token } = await dashboardFor('PARTNER');
    const body = await createKey(token, input);
    expect(body.data ?? null).toBeNull();
    expect(body.errors[0].message).toContain(word);
    expect(await prisma.apiKey.count({ where: { name: 'x' } })).toBe(0);
  });

  test('an expiresAt in the future is kept and honoured', async () => {
    const { token } = await dashboardFor('AFFILIATE');
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const { key } = (await createKey(token, { name: 'temp', expiresAt })).data.createApiKey;
    expect(key.expiresAt).toBe(expiresAt);
  });
});

describe('at most 10 keys per user', () => {
  const refusal =
    'At most 10 API keys per user that are not revoked (expired ones included): revoke one first';
  const unrevoked = (ownerId: string) =>
    prisma.apiKey.count({ where: { ownerId, revokedAt: null } });

  test('the 11th key that is not revoked is BAD_REQUEST; revoking one makes room', async () => {
    const { user, token } = await dashboardFor('AFFILIATE');
    for (let n = 0; n < 8; n++) await createApiKey('affiliate', { ownerId: user.id });
    await createApiKey('affiliate', { ownerId: user.id, expiresAt: new Date(Date.now() - 1_000) });
    await createApiKey('affiliate', { ownerId: user.id, revokedAt: new Date() });
    expect((await createKey(token)).data.createApiKey.apiKey).toMatch(/^svc_test_/);
    const refused = await createKey(token);
    expect(refused.errors[0]).toMatchObject({
      message: refusal,
      extensions: { code: 'BAD_REQUEST' },
    });
    expect(await unrevoked(user.id)).toBe(10);
    const [oldest] = await prisma.apiKey.findMany({
      where: { ownerId: user.id, revokedAt: null },
      orderBy: { createdAt: 'asc' },
      take: 1,
    });
    await graphql(REVOKE, { id: oldest!.id }, { token });
    expect((await createKey(token)).data.createApiKey.apiKey).toMatch(/^svc_test_/);
  });

  test('concurrent creations cannot pass the cap: 6 at once with 9 present leave 10', async () => {
    const { user, token } = await dashboardFor('PARTNER');
    for (let n = 0; n < 9; n++) await createApiKey('partner', { ownerId: user.id });
    const answers = await Promise.all(Array.from({ length: 6 }, () => createKey(token)));
    const created = answers.filter((body) => body.data?.createApiKey);
    const refused = answers.filter((body) => body.errors?.[0]?.message === refusal);
    expect([created.length, refused.length]).toEqual([1, 5]);
    expect(await unrevoked(user.id)).toBe(10);
  });
});

describe('dashboard authentication', () => {
  const refusalOf = async (token?: string) =>
    (await graphql(LIST, {}, token === undefined ? {} : { token })).body.errors[0];

  test('no token: UNAUTHORIZED, saying where the token goes', async () => {
    const { status } = await graphql(LIST, {});
    expect(status).toBe(200);
    expect(await refusalOf()).toMatchObject({
      message:
        'A dashboard token is required: send it in x-api-token; on a development installation, `npm run token -- <userId>` prints one',
      extensions: { code: 'UNAUTHORIZED' },
    });
  });

  test('garbage and a token signed with another secret: UNAUTHORIZED, not valid', async () => {
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject((await createUser()).id)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    for (const token of ['not-a-jwt', forged]) {
      expect(await refusalOf(token)).toMatchObject({
        message:
          'The dashboard token is not valid: it is not a token signed for this service; on a development installation, `npm run token -- <userId>` prints one',
        extensions: { code: 'UNAUTHORIZED' },
      });
    }
  });

  test("GraphiQL's placeholder for a token is answered with how to get one", async () => {
    expect((await refusalOf(tokenPlaceholder(DEMO_USERS.affiliate))).message).toContain(
      '`npm run token -- <userId>` prints one',
    );
  });

  test('in production the refusal names no development command', async () => {
    Object.assign(config, { isProduction: true });
    try {
      expect(await refusalOf('not-a-jwt')).toMatchObject({
        message: 'The dashboard token is not valid: it is not a token signed for this service',
      });
    } finally {
      Object.assign(config, { isProduction: false });
    }
  });

  test('an expired token: UNAUTHORIZED, saying to sign in again', async () => {
    const token = await signDashboardToken((await createUser()).id, '-1m');
    expect(await refusalOf(token)).toMatchObject({
      message: 'The dashboard token has expired: sign in to the dashboard again',
      extensions: { code: 'UNAUTHORIZED' },
    });
  });

  test('a token that never expires, or lives past the configured lifetime, is refused', async () => {
    const user = await createUser();
    const unending = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuedAt()
      .sign(new TextEncoder().encode(config.dashboardJwtSecret));
    expect((await refusalOf(unending)).message).toBe(
      'The dashboard token is not valid: its exp claim is missing or wrong; on a development installation, `npm run token -- <userId>` prints one',
    );
    const tooLong = await signDashboardToken(user.id, '400d');
    expect((await refusalOf(tooLong)).message).toBe(
      `The dashboard token is not valid: it lives longer than ${config.dashboardTokenMaxLifetimeS} s (exp); on a development installation, \`npm run token -- <userId>\` prints one`,
    );
  });

  test('a valid token for an unknown user is UNAUTHORIZED, not a crash', async () => {
    const token = await signDashboardToken('00000000-0000-4000-8000-000000000000');
    const { body } = await graphql(LIST, {}, { token });
    expect(body.errors[0].extensions.code).toBe('UNAUTHORIZED');
    const notUuid = await signDashboardToken('admin');
    expect((await graphql(LIST, {}, { token: notUuid })).body.errors[0].extensions.code).toBe(
      'UNAUTHORIZED',
    );
  });

  test('the token of a closed account is refused by every key-management operation', async () => {
    const { user, token } = await dashboardFor('AFFILIATE');
    const { key } = (await createKey(token)).data.createApiKey;
    await prisma.user.update({ where: { id: user.id }, data: { deletedAt: new Date() } });
    const operations: [string, Record<string, unknown>][] = [
      [LIST, {}],
      [CREATE, { input: { name: 'after closing' } }],
      [ROTATE, { id: key.id }],
      [REVOKE, { id: key.id }],
      ['query ($keyId: ID!) { apiKeyEvents(keyId: $keyId) { id } }', { keyId: key.id }],
    ];
    for (const [operation, variables] of operations) {
      const { body } = await graphql(operation, variables, { token });
      expect(body.errors[0]).toMatchObject({
        message: "The dashboard token's account is closed",
        extensions: { code: 'UNAUTHORIZED' },
      });
    }
    expect(await prisma.apiKey.count({ where: { ownerId: user.id } })).toBe(1);
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).revokedAt).toBeNull();
  });

  test('an API key does not open key management', async () => {
    const { apiKey } = await createApiKey('affiliate');
    const { body } = await graphql(LIST, {}, { key: apiKey });
    expect(body.errors[0].extensions.code).toBe('UNAUTHORIZED');
  });
});

describe('listApiKeys', () => {
  test('lists only the user’s own keys, newest first, without secrets', async () => {
    const { user, token } = await dashboardFor('AFFILIATE');
    const first = (await createKey(token, { name: 'first' })).data.createApiKey;
    const second = (await createKey(token, { name: 'second' })).data.createApiKey;
    await createApiKey('affiliate'); // someone else's
    const { body } = await graphql(LIST, {}, { token });
    expect(body.data.listApiKeys.map((key: { name: string }) => key.name)).toEqual([
      'second',
      'first',
    ]);
    const text = JSON.stringify(body);
    expect(text).not.toContain(first.apiKey);
    expect(text).not.toContain(second.apiKey);
    expect(await prisma.apiKey.count({ where: { ownerId: user.id } })).toBe(2);
  });
});

describe('listApiKeys, bounded', () => {
  test('keys not revoked first, then the most recently revoked: 100 at most', async () => {
    const { user, token } = await dashboardFor('AFFILIATE');
    const older = await createApiKey('affiliate', { ownerId: user.id });
    for (let n = 0; n < 101; n++) {
      await createApiKey('affiliate', {
        ownerId: user.id,
        revokedAt: new Date(Date.UTC(2026, 0, 1, 0, n)),
      });
    }
    const newer = await createApiKey('affiliate', { ownerId: user.id });
    const listed: { id: string; revokedAt: string | null }[] = (await graphql(LIST, {}, { token }))
      .body.data.listApiKeys;
    expect(listed).toHaveLength(100);
    expect(listed.slice(0, 2).map((key) => key.id)).toEqual([newer.row.id, older.row.id]);
    expect(listed[2]!.revokedAt).toBe('2026-01-01T01:40:00.000Z');
    expect(listed.at(-1)!.revokedAt).toBe('2026-01-01T00:03:00.000Z');
  });
});

describe('rotateApiKey', () => {
  test('returns a new secret, keeps id, name, scopes and prefix; the old secret stops working', async () => {
    const { token } = await dashboardFor('PARTNER');
    const created = (await createKey(token, { name: 'rot', scopes: ['organizations:read'] })).data
      .createApiKey;
    const { body } = await graphql(ROTATE, { id: created.key.id }, { token });
    const rotated = body.data.rotateApiKey;
    expect(rotated.apiKey).not.toBe(created.apiKey);
    expect(rotated.key).toMatchObject({
      id: created.key.id,
      name: 'rot',
      scopes: ['organizations:read'],
      prefix: created.key.prefix,
      version: 'v2',
    });
    expect((await call('/api/partner/organizations', { key: created.apiKey })).status).toBe(401);
    expect((await call('/api/partner/organizations', { key: rotated.apiKey })).status).toBe(200);
  });

  test('five rotations of one key asked at once: exactly one answers a key, which works; the others are told CONFLICT and change nothing', async () => {
    const { token } = await dashboardFor('PARTNER');
    const { apiKey: original, key } = (await createKey(token)).data.createApiKey;
    const answers = await whileRowWaits(key.id, 5, () =>
      Promise.all(Array.from({ length: 5 }, () => graphql(ROTATE, { id: key.id }, { token }))),
    );
    const rotated = answers.filter(({ body }) => body.data?.rotateApiKey);
    const refused = answers.filter(({ body }) => body.errors);
    expect(rotated).toHaveLength(1);
    expect(refused.map(({ body }) => body.errors[0].extensions.code)).toEqual(
      Array(4).fill('CONFLICT'),
    );
    expect(refused[0]!.body.errors[0].message).toBe(ROTATED_MEANWHILE);
    const { apiKey } = rotated[0]!.body.data.rotateApiKey;
    expect((await call('/api/partner/organizations', { key: apiKey })).status).toBe(200);
    expect((await call('/api/partner/organizations', { key: original })).status).toBe(401);
    expect(await prisma.apiKeyEvent.count({ where: { keyId: key.id, kind: 'ROTATED' } })).toBe(1);
    // Asked after that answer, a rotation proceeds.
    const { body } = await graphql(ROTATE, { id: key.id }, { token });
    expect(body.data.rotateApiKey.apiKey).not.toBe(apiKey);
  });

  /**
   * `count` rotations of one key sent at once, over HTTP, spread over `replicas` apps on this
   * database; the answers, and the original key.
   */
  async function rotationsSentAtOnce(count: number, replicas: number) {
    const { token } = await dashboardFor('PARTNER');
    const { apiKey: original, key } = (await createKey(token)).data.createApiKey;
    const servers = await Promise.all(
      Array.from({ length: replicas }, () => listen(createIsolatedApp())),
    );
    try {
      const answers = await postAtOnce(
        Array.from({ length: count }, (_, n) => ({
          url: `${servers[n % replicas]!.base}/graphql`,
          body: { query: ROTATE, variables: { id: key.id } },
        })),
        { 'x-api-token': token },
      );
      return { answers, original, key, token };
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  }

  test.each([
    [6, 1],
    [8, 1],
    [6, 2],
    [8, 2],
  ])(
    '%i rotations of one key sent at once to %i replica(s): exactly one answers a key, which works; the others are CONFLICT and change nothing',
    async (count, replicas) => {
      const { answers, original, key, token } = await rotationsSentAtOnce(count, replicas);
      const rotated = answers.filter(({ body }) => body.data?.rotateApiKey);
      const refused = answers.filter(({ body }) => body.errors);
      expect(rotated).toHaveLength(1);
      expect(refused.map(({ body }) => body.errors[0])).toEqual(
        Array(count - 1).fill(
          expect.objectContaining({
            message: ROTATED_MEANWHILE,
            extensions: expect.objectContaining({ code: 'CONFLICT' }),
          }),
        ),
      );
      const { apiKey } = rotated[0]!.body.data.rotateApiKey;
      expect((await call('/api/partner/organizations', { key: apiKey })).status).toBe(200);
      expect((await call('/api/partner/organizations', { key: original })).status).toBe(401);
      expect(await prisma.apiKeyEvent.count({ where: { keyId: key.id, kind: 'ROTATED' } })).toBe(1);
      // Asked after that answer, a rotation proceeds, and so does the next one after its answer.
      const again = (await graphql(ROTATE, { id: key.id }, { token })).body.data.rotateApiKey;
      const third = (await graphql(ROTATE, { id: key.id }, { token })).body.data.rotateApiKey;
      expect((await call('/api/partner/organizations', { key: apiKey })).status).toBe(401);
      expect((await call('/api/partner/organizations', { key: again.apiKey })).status).toBe(401);
      expect((await call('/api/partner/organizations', { key: third.apiKey })).status).toBe(200);
    },
  );

  (isEmbeddedDatabase ? test.skip : test)(
    'a rotation received while another is written, whose way to its resolver waits on the database until that one has answered: a CONFLICT, and the answered key stays the key',
    async () => {
      const { token } = await dashboardFor('PARTNER');
      const { key } = (await createKey(token)).data.createApiKey;
      const { apiKey: beside } = await createApiKey('partner');
      // The first rotation waits at its write for the key's row.
      const row = await holdLock('SELECT 1 FROM "ApiKey" WHERE "id" = $1::uuid FOR UPDATE', [
        key.id,
      ]);
      const first = graphql(ROTATE, { id: key.id }, { token });
      await untilWaitingForLocks(1);
      // The second is received, and waits at the quota's lookup of the key beside its token.
      const users = await holdLock('LOCK TABLE "User" IN ACCESS EXCLUSIVE MODE');
      const second = graphql(ROTATE, { id: key.id }, { token, key: beside });
      await untilWaitingFor(users, 1);
      await row.release();
      const answered = (await first).body.data.rotateApiKey;
      await users.release();
      const { body } = await second;
      expect(body.errors[0]).toMatchObject({
        message: ROTATED_MEANWHILE,
        extensions: { code: 'CONFLICT' },
      });
      expect((await call('/api/partner/organizations', { key: answered.apiKey })).status).toBe(200);
      expect(await prisma.apiKeyEvent.count({ where: { keyId: key.id, kind: 'ROTATED' } })).toBe(1);
    },
  );

  (isEmbeddedDatabase ? test.skip : test)(
    "a rotation another replica commits while this one waits to read the key: this one is a CONFLICT, and the other's key stays the key",
    async () => {
      const { token } = await dashboardFor('PARTNER');
      const { key } = (await createKey(token)).data.createApiKey;
      const other = generateApiKey('test', key.prefix);
      // Reads of the key wait: this rotation is asked, then reads the key after the other's commit.
      const otherReplica = await holdLock('LOCK TABLE "ApiKey" IN ACCESS EXCLUSIVE MODE');
      const rotating = graphql(ROTATE, { id: key.id }, { token });
      await untilWaitingForLocks(1);
      await otherReplica.release((connection) =>
        connection.query(
          `UPDATE "ApiKey" SET "secretHash" = $2, "rotatedAt" = clock_timestamp() AT TIME ZONE 'UTC'
           WHERE "id" = $1::uuid`,
          [key.id, sha256Hex(other.secret)],
        ),
      );
      const { body } = await rotating;
      expect(body.errors[0]).toMatchObject({
        message: ROTATED_MEANWHILE,
        extensions: { code: 'CONFLICT' },
      });
      expect((await call('/api/partner/organizations', { key: other.apiKey })).status).toBe(200);
      expect(await prisma.apiKeyEvent.count({ where: { keyId: key.id, kind: 'ROTATED' } })).toBe(0);
    },
  );

  test('a legacy v1 key comes back as a v2 key', async () => {
    const user = await createUser('AFFILIATE');
    const token = await signDashboardToken(user.id);
    const legacy = await createLegacyKey(user.id);
    const { body } = await graphql(ROTATE, { id: legacy.row.id }, { token });
    const rotated = body.data.rotateApiKey;
    expect(rotated.key.version).toBe('v2');
    expect(parseApiKey(rotated.apiKey)?.version).toBe('v2');
    const row = await prisma.apiKey.findUniqueOrThrow({ where: { id: legacy.row.id } });
    expect(row.prefix).toBe(rotated.key.prefix);
  });

  test('another user’s key is NOT_FOUND and unchanged', async () => {
    const { token } = await dashboardFor('PARTNER');
    const other = await createApiKey('partner');
    const { body } = await graphql(ROTATE, { id: other.row.id }, { token });
    expect(body.errors[0].extensions.code).toBe('NOT_FOUND');
    const row = await prisma.apiKey.findUniqueOrThrow({ where: { id: other.row.id } });
    expect(row.secretHash).toBe(other.row.secretHash);
  });

  test('a revoked key cannot be rotated', async () => {
    const { token } = await dashboardFor('PARTNER');
    const created = (await createKey(token)).data.createApiKey;
    await graphql(REVOKE, { id: created.key.id }, { token });
    const { body } = await graphql(ROTATE, { id: created.key.id }, { token });
    expect(body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });

  test('an unknown or malformed id is NOT_FOUND', async () => {
    const { token } = await dashboardFor('PARTNER');
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      expect((await graphql(ROTATE, { id }, { token })).body.errors[0].extensions.code).toBe(
        'NOT_FOUND',
      );
    }
  });
});

describe('revokeApiKey', () => {
  test('revokes at once, and revoking again changes nothing', async () => {
    const { token } = await dashboardFor('PARTNER');
    const created = (await createKey(token)).data.createApiKey;
    expect((await call('/api/partner/organizations', { key: created.apiKey })).status).toBe(200);
    const first = (await graphql(REVOKE, { id: created.key.id }, { token })).body.data.revokeApiKey;
    expect(first.revokedAt).toEqual(expect.any(String));
    const again = (await graphql(REVOKE, { id: created.key.id }, { token })).body.data.revokeApiKey;
    expect(again.revokedAt).toBe(first.revokedAt);
    expect((await call('/api/partner/organizations', { key: created.apiKey })).status).toBe(401);
  });

  test('another user’s key is NOT_FOUND and stays valid', async () => {
    const { token } = await dashboardFor('PARTNER');
    const other = await createApiKey('partner');
    const { body } = await graphql(REVOKE, { id: other.row.id }, { token });
    expect(body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await call('/api/partner/organizations', { key: other.apiKey })).status).toBe(200);
  });
});

describe('several replicas', () => {
  test('a key revoked or rotated through replica A is refused by replica B at once', async () => {
    const [replicaA, replicaB] = [createApp(), createApp()];
    const { token } = await dashboardFor('PARTNER');
    const ask = (app: ReturnType<typeof createApp>, key: string) =>
      app.fetch('http://api.test/api/partner/organizations', { headers: { 'x-api-key': key } });
    const viaA = (query: string, variables: Record<string, unknown>) =>
      replicaA.fetch('http://api.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-token': token },
        body: JSON.stringify({ query, variables }),
      });

    const rotating = (await createKey(token)).data.createApiKey;
    const revoking = (await createKey(token)).data.createApiKey;
    expect((await ask(replicaB, rotating.apiKey)).status).toBe(200);
    expect((await ask(replicaB, revoking.apiKey)).status).toBe(200);

    const rotated = (await (await viaA(ROTATE, { id: rotating.key.id })).json()).data.rotateApiKey;
    await viaA(REVOKE, { id: revoking.key.id });
    expect((await ask(replicaB, rotating.apiKey)).status).toBe(401);
    expect((await ask(replicaB, rotated.apiKey)).status).toBe(200);
    expect((await ask(replicaB, revoking.apiKey)).status).toBe(401);
  });
});
