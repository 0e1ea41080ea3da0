// API keys a security team would sign off (issue 6): checksum before any lookup, rotation with a
// grace period, expiry to the second, last use without a write per request, the audit trail,
// Idempotency-Key on create and rotate, and secrets that never reach logs, errors or lists.
import { once } from 'node:events';
import { findApiKeys, generateApiKey, parseApiKey } from '../../src/auth/keyFormat';
import { markKeyUsed, recordRevokedKeyUse } from '../../src/auth/keyUsage';
import { config } from '../../src/platform/config';
import { DEMO_KEYS } from '../../src/auth/demoIdentities';
import { prisma } from '../../src/platform/db';
import { createRedisClient, type RedisClient } from '../../src/platform/redis';
import { logger } from '../../src/platform/logger';
import { callApp, graphqlApp, useTestDatabase, type App } from '../support/app';
import { createApiKey, createLegacyKey } from '../support/factories';
import { dashboardUserWithToken, replica, withDatabaseSpy } from '../support/keySecurity';
import { captureLogs as captureLogLines } from '../support/logs';
import { until } from '../support/wait';

useTestDatabase();

// Failed authentications are this file's subject: the per-IP allowance must not get in the way.
const app = replica({ settings: { failedAuthMax: 1_000_000 } });
/** The app's verdict on a key at a moment, without recording a use. */
const checkKey = (raw: string, now: Date) => app.keys.check(app.keys.present(raw), now);
const AFFILIATE_ROUTE = '/affiliate/channels';
const PARTNER_ROUTE = '/api/partner/organizations';
const AFFILIATE_QUERY = '{ affiliateChannels { count } }';

const KEY_FIELDS =
  'id name version prefix scopes lastUsedAt lastUsedIp expiresAt revokedAt rotatedAt previousSecretExpiresAt';
const CREATE = `mutation ($input: CreateApiKeyInput!) {
  createApiKey(input: $input) { apiKey key { ${KEY_FIELDS} } } }`;
const ROTATE = `mutation ($id: ID!, $grace: Int) {
  rotateApiKey(id: $id, gracePeriodSeconds: $grace) { apiKey key { ${KEY_FIELDS} } } }`;
const REVOKE = `mutation ($id: ID!) { revokeApiKey(id: $id) { ${KEY_FIELDS} } }`;
const LIST = `{ listApiKeys { ${KEY_FIELDS} } }`;
const EVENTS = `query ($keyId: ID!) {
  apiKeyEvents(keyId: $keyId) { id keyId kind actorUserId ip createdAt } }`;

const secretOf = (apiKey: string) => apiKey.slice(-32);
const statusWith = async (key: string, route = AFFILIATE_ROUTE, on: App = app) =>
  (await callApp(on, route, { key })).status;

async function createKeyAs(
  token: string,
  input: Record<string, unknown> = { name: 'k' },
  ip?: string,
) {
  const { body } = await graphqlApp(app, CREATE, { input }, { token, ip });
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data.createApiKey as { apiKey: string; key: { id: string; prefix: string } };
}

async function rotateAs(token: string, id: string, grace?: number, on: App = app) {
  const { body } = await graphqlApp(on, ROTATE, { id, grace }, { token });
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data.rotateApiKey as { apiKey: string; key: Record<string, unknown> };
}

/** A key whose last character (in its checksum) is changed: right shape, wrong checksum. */
function withBadChecksum(apiKey: string): string {
  return apiKey.slice(0, -1) + (apiKey.endsWith('0') ? '1' : '0');
}

function changeCharacter(apiKey: string, at: number): string {
  return apiKey.slice(0, at) + (apiKey[at] === 'a' ? 'b' : 'a') + apiKey.slice(at + 1);
}

/** A well-formed key with a valid checksum for `prefix`, whose secret is not the stored one. */
function wrongSecretFor(prefix: string): string {
  return generateApiKey('test', prefix).apiKey;
}

describe('1. checksum: refused before any lookup', () => {
  const malformed = () => {
    const { apiKey } = generateApiKey('test');
    return [
      ['garbage', 'not-a-key'],
      ['a bad checksum', withBadChecksum(apiKey)],
      ['one secret character changed', changeCharacter(apiKey, apiKey.length - 10)],
      ['an unknown env', apiKey.replace('svc_test_', 'svc_prod_')],
      ['a key cut short', apiKey.slice(0, -1)],
      ['a key too long', `${apiKey}x`],
      ['a v1 key of 31 characters', 'A'.repeat(31)],
      ['spaces', ` ${apiKey} `],
    ] as const;
  };

  test.each(malformed())(
    '%s: 401 on REST and GraphQL with no database call',
    async (_case, key) => {
      expect(parseApiKey(key)).toBeNull();
      await withDatabaseSpy(async (database) => {
        const rest = await callApp(app, AFFILIATE_ROUTE, { key });
        const partner = await callApp(app, PARTNER_ROUTE, { key });
        const graphql = await graphqlApp(app, AFFILIATE_QUERY, {}, { key });
        expect([rest.status, partner.status]).toEqual([401, 401]);
        expect(graphql.body.errors[0].extensions.code).toBe('UNAUTHORIZED');
        expect(database.calls()).toEqual([]);
      });
    },
  );

  test('a v2 key with a valid checksum but an unknown prefix costs exactly one lookup', async () => {
    await withDatabaseSpy(async (database) => {
      expect(await statusWith(generateApiKey('test').apiKey)).toBe(401);
      expect(database.calls()).toEqual(['$queryRaw']);
      expect(database.rawSql()[0]).toContain('LEFT JOIN "ApiKey"');
    });
  });

  test('a wrong secret for an existing prefix costs the same one lookup, nothing more', async () => {
    const { row } = await createApiKey('affiliate');
    await withDatabaseSpy(async (database) => {
      expect(await statusWith(wrongSecretFor(row.prefix!))).toBe(401);
      expect(database.calls()).toEqual(['$queryRaw']);
      expect(database.rawSql()[0]).toContain('LEFT JOIN "ApiKey"');
    });
  });

  test('a valid key is looked up once, key and owner in one query, then remembered (REST and GraphQL)', async () => {
    const { apiKey } = await createApiKey('affiliate');
    await withDatabaseSpy(async (database) => {
      expect((await callApp(app, AFFILIATE_ROUTE, { key: apiKey })).status).toBe(200);
      // First, however many layers ask (quota, facade, yoga), and with its owner joined.
      expect(database.calls()[0]).toBe('$queryRaw');
      expect(database.rawSql()[0]).toContain('LEFT JOIN "User"');
      expect((await graphqlApp(app, AFFILIATE_QUERY, {}, { key: apiKey })).status).toBe(200);
      const keyLookups = database.rawSql().filter((sql) => sql.includes('LEFT JOIN "ApiKey"'));
      expect(keyLookups).toHaveLength(1);
    });
  });

  const withRedis = config.redisUrl ? describe : describe.skip;
  withRedis('with Redis', () => {
    let client: RedisClient;
    beforeAll(async () => {
      client = createRedisClient(config.redisUrl!);
      if (client.status !== 'ready') await once(client, 'ready');
    });
    afterAll(() => client.quit());

    test('a malformed key is refused before any database call, its failure counted in one Redis round trip', async () => {
      const shared = replica({ redis: client });
      const ip = `198.51.100.${Math.floor(Math.random() * 250)}`;
      const key = withBadChecksum(generateApiKey('test').apiKey);
      const commands = jest.spyOn(client, 'sendCommand');
      try {
        await withDatabaseSpy(async (database) => {
          expect((await callApp(shared, AFFILIATE_ROUTE, { key, ip })).status).toBe(401);
          expect(database.calls()).toEqual([]);
        });
        // Counted with every replica's failures of the address: one script call.
        expect(commands).toHaveBeenCalledTimes(1);
      } finally {
        commands.mockRestore();
      }
    });
  });
});

describe('2. rotation with a grace period', () => {
  test.each([[-1], [86_401], [1_000_000]])(
    'gracePeriodSeconds %p is BAD_REQUEST and rotates nothing',
    async (grace) => {
      const { token } = await dashboardUserWithToken('PARTNER');
      const created = await createKeyAs(token);
      const { body } = await graphqlApp(app, ROTATE, { id: created.key.id, grace }, { token });
      expect(body.errors[0].extensions.code).toBe('BAD_REQUEST');
      expect(body.errors[0].message).toContain('gracePeriodSeconds');
      expect(await statusWith(created.apiKey, PARTNER_ROUTE)).toBe(200);
    },
  );

  test('a grace of 0 (the default) and of 86,400 s are accepted', async () => {
    const { token } = await dashboardUserWithToken('PARTNER');
    const created = await createKeyAs(token);
    const noGrace = await rotateAs(token, created.key.id, 0);
    expect(noGrace.key.previousSecretExpiresAt).toBeNull();
    expect(await statusWith(created.apiKey, PARTNER_ROUTE)).toBe(401);
    const before = Date.now();
    const day = await rotateAs(token, created.key.id, 86_400);
    const graceEnds = Date.parse(day.key.previousSecretExpiresAt as string);
    expect(graceEnds).toBeGreaterThanOrEqual(before + 86_400_000 - 1_000);
    expect(graceEnds).toBeLessThanOrEqual(Date.now() + 86_400_000);
  });

  test('the old secret works until the grace ends, on another replica too', async () => {
    const [replicaA, replicaB] = [replica(), replica()];
    const { token } = await dashboardUserWithToken('PARTNER');
    const created = await createKeyAs(token);
    const rotated = await rotateAs(token, created.key.id, 3_600, replicaA);
    expect(rotated.key.prefix).toBe(created.key.prefix);
    for (const on of [replicaA, replicaB]) {
      expect(await statusWith(created.apiKey, PARTNER_ROUTE, on)).toBe(200);
      expect(await statusWith(rotated.apiKey, PARTNER_ROUTE, on)).toBe(200);
    }
    // At the grace's end (checked with the clock moved on), the old secret is refused.
    const graceEnds = new Date(rotated.key.previousSecretExpiresAt as string);
    const before = new Date(graceEnds.getTime() - 1_000);
    expect((await checkKey(created.apiKey, before)).kind).toBe('valid');
    expect((await checkKey(created.apiKey, graceEnds)).kind).toBe('unknown');
    expect((await checkKey(rotated.apiKey, graceEnds)).kind).toBe('valid');
    // And for real, once the grace is over.
    await prisma.apiKey.update({
      where: { id: created.key.id },
      data: { previousSecretExpiresAt: new Date(Date.now() - 1) },
    });
    // That edit went around the API, which would have told the replicas: they forget by hand.
    replicaB.keys.remembered.forgetAll();
    expect(await statusWith(created.apiKey, PARTNER_ROUTE, replicaB)).toBe(401);
    expect(await statusWith(rotated.apiKey, PARTNER_ROUTE, replicaB)).toBe(200);
  });

  test('rotating twice inside a grace keeps only the newest previous secret', async () => {
    const [replicaA, replicaB] = [replica(), replica()];
    const { token } = await dashboardUserWithToken('PARTNER');
    const first = await createKeyAs(token);
    const second = await rotateAs(token, first.key.id, 3_600, replicaA);
    const third = await rotateAs(token, first.key.id, 3_600, replicaB);
    for (const on of [replicaA, replicaB]) {
      expect(await statusWith(first.apiKey, PARTNER_ROUTE, on)).toBe(401);
      expect(await statusWith(second.apiKey, PARTNER_ROUTE, on)).toBe(200);
      expect(await statusWith(third.apiKey, PARTNER_ROUTE, on)).toBe(200);
    }
    // A rotation without grace ends the running grace at once.
    const fourth = await rotateAs(token, first.key.id, 0, replicaA);
    // Replica B remembers the two secrets until it hears of the rotation (within 1 s).
    await until(
      async () => (await statusWith(second.apiKey, PARTNER_ROUTE, replicaB)) === 401,
      'replica B to hear of the rotation',
    );
    expect(await statusWith(third.apiKey, PARTNER_ROUTE, replicaB)).toBe(401);
    expect(await statusWith(fourth.apiKey, PARTNER_ROUTE, replicaB)).toBe(200);
  });

  test('a legacy v1 key rotated with a grace: a v2 key now, the v1 key until the grace ends', async () => {
    const { user, token } = await dashboardUserWithToken('AFFILIATE');
    const legacy = await createLegacyKey(user.id);
    const rotated = await rotateAs(token, legacy.row.id, 600);
    expect(rotated.key.version).toBe('v2');
    expect(parseApiKey(rotated.apiKey)?.version).toBe('v2');
    expect(await statusWith(legacy.apiKey)).toBe(200);
    expect(await statusWith(rotated.apiKey)).toBe(200);
    const graceEnds = new Date(rotated.key.previousSecretExpiresAt as string);
    expect((await checkKey(legacy.apiKey, new Date(graceEnds.getTime() - 1_000))).kind).toBe(
      'valid',
    );
    expect((await checkKey(legacy.apiKey, graceEnds)).kind).toBe('unknown');
    // Rotating again replaces the v1 secret with the first v2 one: the v1 key stops.
    const again = await rotateAs(token, legacy.row.id, 600);
    expect(await statusWith(legacy.apiKey)).toBe(401);
    expect(await statusWith(rotated.apiKey)).toBe(200);
    expect(await statusWith(again.apiKey)).toBe(200);
  });

  test('a v1 key rotated without grace stops at once', async () => {
    const { user, token } = await dashboardUserWithToken('AFFILIATE');
    const legacy = await createLegacyKey(user.id);
    const rotated = await rotateAs(token, legacy.row.id);
    expect(await statusWith(legacy.apiKey)).toBe(401);
    expect(await statusWith(rotated.apiKey)).toBe(200);
  });

  test('the secret part of a v2 key alone never passes as a v1 key, current or previous', async () => {
    const { token } = await dashboardUserWithToken('AFFILIATE');
    const created = await createKeyAs(token);
    const rotated = await rotateAs(token, created.key.id, 600);
    for (const apiKey of [created.apiKey, rotated.apiKey]) {
      expect(parseApiKey(secretOf(apiKey))?.version).toBe('v1');
      expect(await statusWith(secretOf(apiKey))).toBe(401);
    }
  });

  test('an expired key cannot be rotated: rotation never revives or extends a key', async () => {
    const { user, token } = await dashboardUserWithToken('PARTNER');
    const expired = await createApiKey('partner', {
      ownerId: user.id,
      expiresAt: new Date(Date.now() - 1_000),
    });
    const { body } = await graphqlApp(app, ROTATE, { id: expired.row.id }, { token });
    expect(body.errors[0].extensions.code).toBe('BAD_REQUEST');
    const row = await prisma.apiKey.findUniqueOrThrow({ where: { id: expired.row.id } });
    expect(row.secretHash).toBe(expired.row.secretHash);
  });
});

describe('3. expiry, to the second', () => {
  test('valid at expiresAt - 1 s; refused at and after expiresAt', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000);
    const { apiKey } = await createApiKey('affiliate', { expiresAt });
    const at = (offsetMs: number) => checkKey(apiKey, new Date(expiresAt.getTime() + offsetMs));
    expect((await at(-1_000)).kind).toBe('valid');
    expect((await at(-1)).kind).toBe('valid');
    expect((await at(0)).kind).toBe('expired');
    expect((await at(1_000)).kind).toBe('expired');
  });

  test('over HTTP: 200 just before expiresAt, 401 once it has passed', async () => {
    const { apiKey, row } = await createApiKey('affiliate');
    const expiresAt = new Date(Date.now() + 2_000);
    await prisma.apiKey.update({ where: { id: row.id }, data: { expiresAt } });
    expect(await statusWith(apiKey)).toBe(200);
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, expiresAt.getTime() - Date.now()) + 20),
    );
    const { status, body } = await callApp(app, AFFILIATE_ROUTE, { key: apiKey });
    expect(status).toBe(401);
    expect(body.code).toBe('UNAUTHORIZED');
  });

  test('rotation keeps expiresAt, and a grace never outlives it', async () => {
    const { token } = await dashboardUserWithToken('PARTNER');
    const expiresAt = new Date(Date.now() + 600_000).toISOString();
    const created = await createKeyAs(token, { name: 'expiring', expiresAt });
    const rotated = await rotateAs(token, created.key.id, 86_400);
    expect(rotated.key.expiresAt).toBe(expiresAt);
    expect(rotated.key.previousSecretExpiresAt).toBe(expiresAt);
    const again = await rotateAs(token, created.key.id, 86_400);
    expect(again.key.expiresAt).toBe(expiresAt);
    const atExpiry = new Date(expiresAt);
    for (const apiKey of [created.apiKey, rotated.apiKey, again.apiKey]) {
      expect((await checkKey(apiKey, atExpiry)).kind).not.toBe('valid');
    }
    expect((await checkKey(again.apiKey, new Date(atExpiry.getTime() - 1_000))).kind).toBe('valid');
  });
});

describe('4. last use, without a write per request', () => {
  const usageWrites = (spy: jest.SpyInstance) =>
    spy.mock.calls.filter(([sql]) =>
      String((sql as TemplateStringsArray).join('?')).includes('"lastUsedAt" = now()'),
    );

  test('20 requests, REST and GraphQL: lastUsedAt written once, with the client IP', async () => {
    const { token } = await dashboardUserWithToken('AFFILIATE');
    const { apiKey, key } = await createKeyAs(token);
    const raw = jest.spyOn(prisma, '$executeRaw');
    try {
      const statuses = [];
      for (let n = 0; n < 20; n += 1) {
        const answer =
          n % 2
            ? await graphqlApp(app, AFFILIATE_QUERY, {}, { key: apiKey, ip: '203.0.113.7' })
            : await callApp(app, AFFILIATE_ROUTE, { key: apiKey, ip: '203.0.113.7' });
        statuses.push(answer.status);
      }
      await app.keys.usage.settled();
      expect(statuses).toEqual(Array(20).fill(200));
      expect(usageWrites(raw)).toHaveLength(1);
    } finally {
      raw.mockRestore();
    }
    const row = await prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.lastUsedAt).toBeInstanceOf(Date);
    expect(Math.abs(row.lastUsedAt!.getTime() - Date.now())).toBeLessThan(10_000);
    expect(row.lastUsedIp).toBe('203.0.113.7');

    const listed = (await graphqlApp(app, LIST, {}, { token })).body.data.listApiKeys;
    expect(listed).toEqual([
      expect.objectContaining({
        id: key.id,
        lastUsedAt: row.lastUsedAt!.toISOString(),
        lastUsedIp: '203.0.113.7',
      }),
    ]);
  });

  test('the database allows one write a minute per key, whatever the replicas', async () => {
    const { row } = await createApiKey('affiliate');
    // Each call stands for a different replica: no in-process throttle here, only the UPDATE's rule.
    expect(await markKeyUsed(row.id, '192.0.2.1')).toBe(true);
    expect(await markKeyUsed(row.id, '192.0.2.2')).toBe(false);
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: row.id } })).lastUsedIp).toBe(
      '192.0.2.1',
    );
    await prisma.apiKey.update({
      where: { id: row.id },
      data: { lastUsedAt: new Date(Date.now() - 61_000) },
    });
    expect(await markKeyUsed(row.id, '192.0.2.3')).toBe(true);
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: row.id } })).lastUsedIp).toBe(
      '192.0.2.3',
    );
  });

  test('concurrent writers for one key: exactly one lands', async () => {
    const { row } = await createApiKey('affiliate');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, n) => markKeyUsed(row.id, `192.0.2.${n + 10}`)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  test('an unknown client address is stored as null, not as "unknown"', async () => {
    const { row } = await createApiKey('affiliate');
    expect(await markKeyUsed(row.id, 'unknown')).toBe(true);
    expect(
      (await prisma.apiKey.findUniqueOrThrow({ where: { id: row.id } })).lastUsedIp,
    ).toBeNull();
  });

  test('a failed usage write is logged, never fails the request', async () => {
    const { apiKey, row } = await createApiKey('affiliate');
    const raw = jest
      .spyOn(prisma, '$executeRaw')
      .mockRejectedValueOnce(new Error('database unavailable'));
    const warn = jest.spyOn(logger, 'warn');
    try {
      expect(await statusWith(apiKey)).toBe(200);
      await app.keys.usage.settled();
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ keyId: row.id }),
        'could not record the last use of an API key',
      );
    } finally {
      raw.mockRestore();
      warn.mockRestore();
    }
    // The throttle let go: the next use records it.
    expect(await statusWith(apiKey)).toBe(200);
    await app.keys.usage.settled();
    expect(
      (await prisma.apiKey.findUniqueOrThrow({ where: { id: row.id } })).lastUsedAt,
    ).not.toBeNull();
  });
});

describe('5. audit trail', () => {
  test('created, rotated, revoked: actor and IP of the dashboard request, newest first', async () => {
    const { user, token } = await dashboardUserWithToken('PARTNER');
    const { key } = await createKeyAs(token, { name: 'audited' }, '203.0.113.10');
    await graphqlApp(app, ROTATE, { id: key.id, grace: 60 }, { token, ip: '203.0.113.11' });
    await graphqlApp(app, REVOKE, { id: key.id }, { token, ip: '2001:db8::12' });
    await graphqlApp(app, REVOKE, { id: key.id }, { token, ip: '203.0.113.13' }); // changes nothing
    const { body } = await graphqlApp(app, EVENTS, { keyId: key.id }, { token });
    expect(body.data.apiKeyEvents).toEqual([
      {
        id: expect.any(String),
        keyId: key.id,
        kind: 'REVOKED',
        actorUserId: user.id,
        ip: '2001:db8::12',
        createdAt: expect.any(String),
      },
      {
        id: expect.any(String),
        keyId: key.id,
        kind: 'ROTATED',
        actorUserId: user.id,
        ip: '203.0.113.11',
        createdAt: expect.any(String),
      },
      {
        id: expect.any(String),
        keyId: key.id,
        kind: 'CREATED',
        actorUserId: user.id,
        ip: '203.0.113.10',
        createdAt: expect.any(String),
      },
    ]);
  });

  test('a revoked key presented with its correct secret: one event a minute, caller IP, no actor', async () => {
    const { token } = await dashboardUserWithToken('AFFILIATE');
    const created = await createKeyAs(token);
    await graphqlApp(app, REVOKE, { id: created.key.id }, { token });
    for (let n = 0; n < 5; n += 1) {
      expect(
        (await callApp(app, AFFILIATE_ROUTE, { key: created.apiKey, ip: '198.51.100.66' })).status,
      ).toBe(401);
    }
    // A wrong secret for the revoked key's prefix is no "use": nothing recorded.
    expect(
      (
        await callApp(app, AFFILIATE_ROUTE, {
          key: wrongSecretFor(created.key.prefix),
          ip: '198.51.100.67',
        })
      ).status,
    ).toBe(401);
    await app.keys.usage.settled();
    const events = (await graphqlApp(app, EVENTS, { keyId: created.key.id }, { token })).body.data
      .apiKeyEvents;
    expect(events.map((event: { kind: string }) => event.kind)).toEqual([
      'USED_AFTER_REVOCATION',
      'REVOKED',
      'CREATED',
    ]);
    expect(events[0]).toMatchObject({ actorUserId: null, ip: '198.51.100.66' });
  });

  test('the revoked-use throttle holds across replicas (one statement claims the minute)', async () => {
    const { row } = await createApiKey('affiliate', { revokedAt: new Date() });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => recordRevokedKeyUse(row.id, '192.0.2.9')),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await prisma.apiKeyEvent.count({ where: { keyId: row.id } })).toBe(1);
    await prisma.apiKey.update({
      where: { id: row.id },
      data: { lastRevokedUseAt: new Date(Date.now() - 61_000) },
    });
    expect(await recordRevokedKeyUse(row.id, '192.0.2.9')).toBe(true);
    expect(await prisma.apiKeyEvent.count({ where: { keyId: row.id } })).toBe(2);
    // A key that is not revoked gets no such event.
    const live = await createApiKey('affiliate');
    expect(await recordRevokedKeyUse(live.row.id, '192.0.2.9')).toBe(false);
  });

  test('apiKeyEvents: another user’s key is NOT_FOUND; no dashboard token is UNAUTHORIZED', async () => {
    const { token } = await dashboardUserWithToken('PARTNER');
    const other = await createApiKey('partner');
    const notMine = await graphqlApp(app, EVENTS, { keyId: other.row.id }, { token });
    expect(notMine.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(
      (await graphqlApp(app, EVENTS, { keyId: 'nope' }, { token })).body.errors[0].extensions.code,
    ).toBe('NOT_FOUND');
    const anonymous = await graphqlApp(app, EVENTS, { keyId: other.row.id });
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHORIZED');
    const withApiKey = await graphqlApp(
      app,
      EVENTS,
      { keyId: other.row.id },
      { key: other.apiKey },
    );
    expect(withApiKey.body.errors[0].extensions.code).toBe('UNAUTHORIZED');
  });
});

describe('6. Idempotency-Key on createApiKey and rotateApiKey', () => {
  test('the same request again: the same full key, no second key', async () => {
    const { user, token } = await dashboardUserWithToken('AFFILIATE');
    const input = { name: 'retry me', scopes: ['orders:read'] };
    const first = await graphqlApp(app, CREATE, { input }, { token, idempotencyKey: 'create-1' });
    const again = await graphqlApp(app, CREATE, { input }, { token, idempotencyKey: 'create-1' });
    expect(first.body.data.createApiKey.apiKey).toMatch(/^svc_test_/);
    expect(again.body).toEqual(first.body);
    expect(await prisma.apiKey.count({ where: { ownerId: user.id } })).toBe(1);
    expect(await statusWith(again.body.data.createApiKey.apiKey, '/affiliate/orders')).toBe(200);
  });

  test('the same Idempotency-Key for another request is a CONFLICT, and creates nothing', async () => {
    const { user, token } = await dashboardUserWithToken('AFFILIATE');
    await graphqlApp(
      app,
      CREATE,
      { input: { name: 'one' } },
      { token, idempotencyKey: 'create-2' },
    );
    const other = await graphqlApp(
      app,
      CREATE,
      { input: { name: 'two' } },
      { token, idempotencyKey: 'create-2' },
    );
    expect(other.status).toBe(200);
    expect(other.body.data).toBeNull();
    expect(other.body.errors[0].extensions.code).toBe('CONFLICT');
    expect(other.body.errors[0].message).toContain('create-2');
    const created = (await prisma.apiKey.findMany({ where: { ownerId: user.id } })).map(
      (key) => key.name,
    );
    expect(created).toEqual(['one']);
  });

  test('keys are scoped per dashboard user', async () => {
    const [alice, bob] = [
      await dashboardUserWithToken('AFFILIATE'),
      await dashboardUserWithToken('AFFILIATE'),
    ];
    const input = { name: 'same' };
    const a = await graphqlApp(
      app,
      CREATE,
      { input },
      { token: alice.token, idempotencyKey: 'shared' },
    );
    const b = await graphqlApp(
      app,
      CREATE,
      { input },
      { token: bob.token, idempotencyKey: 'shared' },
    );
    expect(b.body.data.createApiKey.apiKey).not.toBe(a.body.data.createApiKey.apiKey);
    expect(b.body.data.createApiKey.key.id).not.toBe(a.body.data.createApiKey.key.id);
  });

  test('concurrent retries: one key, every answer the same', async () => {
    const { user, token } = await dashboardUserWithToken('AFFILIATE');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        graphqlApp(app, CREATE, { input: { name: 'burst' } }, { token, idempotencyKey: 'burst-1' }),
      ),
    );
    const keys = new Set(answers.map((answer) => answer.body.data.createApiKey.apiKey));
    expect(keys.size).toBe(1);
    expect(await prisma.apiKey.count({ where: { ownerId: user.id } })).toBe(1);
  });

  test('rotateApiKey: a retry answers the same new key and rotates once', async () => {
    const { token } = await dashboardUserWithToken('PARTNER');
    const created = await createKeyAs(token);
    const first = await graphqlApp(
      app,
      ROTATE,
      { id: created.key.id },
      { token, idempotencyKey: 'rotate-1' },
    );
    const again = await graphqlApp(
      app,
      ROTATE,
      { id: created.key.id },
      { token, idempotencyKey: 'rotate-1' },
    );
    expect(again.body.data.rotateApiKey.apiKey).toBe(first.body.data.rotateApiKey.apiKey);
    expect(await statusWith(again.body.data.rotateApiKey.apiKey, PARTNER_ROUTE)).toBe(200);
    expect(
      await prisma.apiKeyEvent.count({ where: { keyId: created.key.id, kind: 'ROTATED' } }),
    ).toBe(1);
    const otherGrace = await graphqlApp(
      app,
      ROTATE,
      { id: created.key.id, grace: 60 },
      { token, idempotencyKey: 'rotate-1' },
    );
    expect(otherGrace.body.errors[0].extensions.code).toBe('CONFLICT');
  });

  test('the stored answer never holds the key in clear, and it is gone after 24 h', async () => {
    const { user, token } = await dashboardUserWithToken('AFFILIATE');
    const first = (
      await graphqlApp(
        app,
        CREATE,
        { input: { name: 'sealed' } },
        { token, idempotencyKey: 'seal-1' },
      )
    ).body.data.createApiKey;
    const records = await prisma.idempotencyRecord.findMany({
      where: { scope: `dashboard-user:${user.id}` },
    });
    expect(records).toHaveLength(1);
    expect(JSON.stringify(records)).not.toContain(secretOf(first.apiKey));
    expect(JSON.stringify(records)).not.toContain(first.apiKey.slice(0, -32));

    await prisma.idempotencyRecord.updateMany({
      where: { scope: `dashboard-user:${user.id}` },
      data: { createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) },
    });
    // Any idempotent request, by anyone, deletes expired records of every scope.
    const someoneElse = await dashboardUserWithToken('AFFILIATE');
    await graphqlApp(
      app,
      CREATE,
      { input: { name: 'x' } },
      { token: someoneElse.token, idempotencyKey: 'other-1' },
    );
    expect(
      await prisma.idempotencyRecord.count({ where: { scope: `dashboard-user:${user.id}` } }),
    ).toBe(0);
    // The key is free again: a new key.
    const later = (
      await graphqlApp(
        app,
        CREATE,
        { input: { name: 'sealed' } },
        { token, idempotencyKey: 'seal-1' },
      )
    ).body.data.createApiKey;
    expect(later.apiKey).not.toBe(first.apiKey);
  });

  test('a refused request is not remembered: the Idempotency-Key stays free', async () => {
    const { token } = await dashboardUserWithToken('PARTNER');
    const refused = await graphqlApp(
      app,
      CREATE,
      { input: { name: 'x', scopes: ['orders:read'] } },
      { token, idempotencyKey: 'free-1' },
    );
    expect(refused.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    const accepted = await graphqlApp(
      app,
      CREATE,
      { input: { name: 'x' } },
      { token, idempotencyKey: 'free-1' },
    );
    expect(accepted.body.data.createApiKey.apiKey).toMatch(/^svc_/);
  });

  test('one Idempotency-Key covers one key: two issuing fields in a request are BAD_REQUEST', async () => {
    const { user, token } = await dashboardUserWithToken('PARTNER');
    const twice = `mutation { a: createApiKey(input: { name: "a" }) { apiKey } ...more }
      fragment more on Mutation { b: createApiKey(input: { name: "b" }) { apiKey } }`;
    const { body } = await graphqlApp(app, twice, {}, { token, idempotencyKey: 'two-1' });
    expect(body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(await prisma.apiKey.count({ where: { ownerId: user.id } })).toBe(0);
  });

  test('a malformed Idempotency-Key is BAD_REQUEST', async () => {
    const { token } = await dashboardUserWithToken('PARTNER');
    const { body } = await graphqlApp(
      app,
      CREATE,
      { input: { name: 'x' } },
      { token, idempotencyKey: 'has space' },
    );
    expect(body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });
});

describe('7. a key opens only an installation of its own environment (KEY_ENV)', () => {
  /** Runs `work` on an installation whose KEY_ENV is `env` (config is read on every check). */
  async function asInstallation<T>(env: 'live' | 'test', work: () => Promise<T>): Promise<T> {
    const keyEnv = config.keyEnv;
    Object.assign(config, { keyEnv: env });
    try {
      return await work();
    } finally {
      Object.assign(config, { keyEnv });
    }
  }

  /** REST and GraphQL statuses for `key`, and the database calls they made. */
  async function presented(key: string) {
    return withDatabaseSpy(async (database) => {
      const rest = await callApp(app, AFFILIATE_ROUTE, { key });
      const graphql = await graphqlApp(app, AFFILIATE_QUERY, {}, { key });
      return {
        rest: rest.status,
        graphql: graphql.body.errors?.[0]?.extensions.code ?? 'OK',
        message: rest.body?.message,
        databaseCalls: database.calls().filter((call) => call === '$queryRaw'),
      };
    });
  }

  test('a live installation refuses a valid svc_test_ key with 401 like an unknown key, before any lookup', async () => {
    const { apiKey } = await createApiKey('affiliate');
    // Valid and remembered on a test installation...
    expect(await statusWith(apiKey)).toBe(200);
    // ...and nothing on a live one, not even a lookup.
    expect(await asInstallation('live', () => presented(apiKey))).toEqual({
      rest: 401,
      graphql: 'UNAUTHORIZED',
      message: 'The x-api-key is not a valid key: unknown, revoked or expired',
      databaseCalls: [],
    });
  });

  test('a test installation refuses a valid svc_live_ key the same way', async () => {
    const { token } = await dashboardUserWithToken();
    const { apiKey } = await asInstallation('live', () => createKeyAs(token));
    expect(apiKey).toMatch(/^svc_live_/);
    expect(await asInstallation('live', () => statusWith(apiKey))).toBe(200);
    expect((await asInstallation('test', () => presented(apiKey))).rest).toBe(401);
    expect((await asInstallation('test', () => presented(apiKey))).databaseCalls).toEqual([]);
  });

  test('legacy v1 keys name no environment and open both, except the published demo v1 key on a live installation', async () => {
    const { apiKey: legacy } = await createLegacyKey();
    expect(await asInstallation('live', () => statusWith(legacy))).toBe(200);
    expect(await asInstallation('test', () => statusWith(legacy))).toBe(200);

    const demo = await createLegacyKey(undefined, DEMO_KEYS.legacyAffiliate);
    expect(demo.apiKey).toBe(DEMO_KEYS.legacyAffiliate);
    expect(await asInstallation('test', () => statusWith(DEMO_KEYS.legacyAffiliate))).toBe(200);
    expect(await asInstallation('live', () => presented(DEMO_KEYS.legacyAffiliate))).toMatchObject({
      rest: 401,
      graphql: 'UNAUTHORIZED',
      databaseCalls: [],
    });
  });
});

describe('8. secrets: only in the create and rotate answers', () => {
  /** Every line the logger writes while `scenario` and the key-use records it starts run. */
  const captureLogs = (scenario: () => Promise<void>) =>
    captureLogLines(async () => {
      await scenario();
      await app.keys.usage.settled();
    });

  test('no issued key or secret part in any log line, error, list or audit answer', async () => {
    const issued: string[] = [];
    const answers: string[] = [];
    const remember = <T extends { body: unknown }>(answer: T): T => {
      answers.push(JSON.stringify(answer.body));
      return answer;
    };
    const logs = await captureLogs(async () => {
      const affiliate = await dashboardUserWithToken('AFFILIATE');
      const partner = await dashboardUserWithToken('PARTNER');
      const legacy = await createLegacyKey(affiliate.user.id);
      issued.push(legacy.apiKey);

      const a = await createKeyAs(affiliate.token, { name: 'logged' }, '203.0.113.20');
      const p = await createKeyAs(partner.token, { name: 'logged' }, '203.0.113.21');
      const replayed = (
        await graphqlApp(
          app,
          CREATE,
          { input: { name: 'idem' } },
          { token: affiliate.token, idempotencyKey: 'log-1' },
        )
      ).body.data.createApiKey;
      await graphqlApp(
        app,
        CREATE,
        { input: { name: 'idem' } },
        { token: affiliate.token, idempotencyKey: 'log-1' },
      );
      remember(
        await graphqlApp(
          app,
          CREATE,
          { input: { name: 'other' } },
          { token: affiliate.token, idempotencyKey: 'log-1' },
        ),
      );
      const rotated = await rotateAs(affiliate.token, a.key.id, 600);
      const fromLegacy = await rotateAs(affiliate.token, legacy.row.id, 600);
      issued.push(a.apiKey, p.apiKey, replayed.apiKey, rotated.apiKey, fromLegacy.apiKey);

      for (const key of [a.apiKey, rotated.apiKey, legacy.apiKey, fromLegacy.apiKey]) {
        remember(await callApp(app, AFFILIATE_ROUTE, { key, ip: '203.0.113.22' }));
        remember(await graphqlApp(app, AFFILIATE_QUERY, {}, { key }));
        remember(await callApp(app, PARTNER_ROUTE, { key })); // wrong surface: 401
      }
      remember(await callApp(app, '/affiliate/orders?limit=abc', { key: a.apiKey })); // 400
      remember(await graphqlApp(app, '{ affiliateChannels { nope } }', {}, { key: a.apiKey })); // invalid
      remember(
        await graphqlApp(app, '{ partnerOrganizations { meta { total } } }', {}, { key: p.apiKey }),
      );
      remember(await callApp(app, '/api/partner/brands/not-a-uuid', { key: p.apiKey })); // 404
      // Near misses: a changed character, a bad checksum, a wrong secret, the secret alone.
      for (const key of [rotated.apiKey, p.apiKey]) {
        const parsed = parseApiKey(key) as { prefix: string };
        for (const nearMiss of [
          withBadChecksum(key),
          wrongSecretFor(parsed.prefix),
          secretOf(key),
          key.toUpperCase(),
          changeCharacter(key, key.length - 10),
        ]) {
          remember(await callApp(app, AFFILIATE_ROUTE, { key: nearMiss }));
          remember(await graphqlApp(app, AFFILIATE_QUERY, {}, { key: nearMiss }));
        }
      }
      // An unexpected failure while verifying (the key not remembered): a 500 whose cause is logged.
      app.keys.remembered.forgetAll();
      const lookup = jest
        .spyOn(prisma, '$queryRaw')
        .mockRejectedValueOnce(new Error('connection reset'));
      remember(await callApp(app, AFFILIATE_ROUTE, { key: rotated.apiKey }));
      lookup.mockRestore();
      // A failing usage write (on a key's first use), logged as a warning.
      const unused = await createKeyAs(partner.token, { name: 'first use' });
      issued.push(unused.apiKey);
      const raw = jest
        .spyOn(prisma, '$executeRaw')
        .mockRejectedValueOnce(new Error('deadlock detected'));
      remember(await callApp(app, PARTNER_ROUTE, { key: unused.apiKey }));
      await app.keys.usage.settled();
      raw.mockRestore();

      await graphqlApp(app, REVOKE, { id: a.key.id }, { token: affiliate.token });
      remember(await callApp(app, AFFILIATE_ROUTE, { key: rotated.apiKey, ip: '203.0.113.23' }));
      remember(await callApp(app, AFFILIATE_ROUTE, { key: a.apiKey })); // the previous secret, revoked too
      remember(await graphqlApp(app, LIST, {}, { token: affiliate.token }));
      remember(await graphqlApp(app, EVENTS, { keyId: a.key.id }, { token: affiliate.token }));
      remember(await graphqlApp(app, EVENTS, { keyId: legacy.row.id }, { token: affiliate.token }));
      remember(await graphqlApp(app, `{ listApiKeys { id } }`, {}, { token: partner.token }));
    });

    // The capture works: access lines, the 500's cause, the usage warning, at every level.
    expect(logs).toContain('"msg":"request"');
    expect(logs).toContain('connection reset');
    expect(logs).toContain('could not record the last use of an API key');
    expect(issued).toHaveLength(7);
    const events = JSON.stringify(await prisma.apiKeyEvent.findMany());
    const idempotency = JSON.stringify(await prisma.idempotencyRecord.findMany());
    const keyRows = JSON.stringify(await prisma.apiKey.findMany());
    for (const apiKey of issued) {
      for (const [where, text] of [
        ['logs', logs],
        ['answers', answers.join('\n')],
        ['audit rows', events],
        ['idempotency rows', idempotency],
        ['key rows', keyRows],
      ] as const) {
        expect({ where, leaked: text.includes(apiKey) || text.includes(secretOf(apiKey)) }).toEqual(
          {
            where,
            leaked: false,
          },
        );
      }
    }
    expect(findApiKeys(logs)).toEqual([]);
  });

  test('findApiKeys spots a leaked v2 key in any text, and nothing else', () => {
    const { apiKey } = generateApiKey('live');
    expect(findApiKeys(`{"msg":"oops","header":"${apiKey}"}`)).toEqual([apiKey]);
    expect(findApiKeys(withBadChecksum(apiKey))).toEqual([]);
    expect(findApiKeys('svc_live_abcdefgh_short')).toEqual([]);
  });
});
