// Redis stopping and coming back while replicas serve: they keep answering with per-replica
// limits during the outage and share the quota again once it returns; a Redis that hangs (accepts
// connections, answers nothing) sends them to memory after one command's timeout, and the
// breaker's background probe brings them back. The tests run their own redis-server on a spare
// loopback port, so the machine's Redis is never touched.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { createApp } from '../src/app';
import { DEMO_KEYS } from '../src/auth/demoIdentities';
import { config } from '../src/platform/config';
import { breakerOf, createRedisClient, type RedisClient } from '../src/platform/redis';
import { useTestDatabase } from './support/app';
import { createApiKey } from './support/factories';
import { respCommands, startHangingRelay, type HangingRelay } from './support/hangingRelay';
import { freePort, startReplica, type Replica } from './support/replica';
import { until } from './support/wait';

useTestDatabase();

const PORT = 6391;
const hasRedisServer = spawnSync('which', ['redis-server']).status === 0;
const withRedisServer = hasRedisServer ? describe : describe.skip;

function startRedis(): ChildProcess {
  return spawn(
    'redis-server',
    ['--port', String(PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
}

/** Waits until every client answers PING (its status alone can lag behind a dead socket). */
function untilAnswering(clients: RedisClient[]): Promise<void> {
  const answering = () =>
    Promise.all(
      clients.map((client) =>
        client.ping().then(
          () => true,
          () => false,
        ),
      ),
    );
  return until(
    async () => (await answering()).every(Boolean),
    'every client answering PING',
    10_000,
  );
}

withRedisServer('Redis stopped and restarted under two replicas', () => {
  let redis: ChildProcess;
  const clients: RedisClient[] = [];

  afterAll(async () => {
    clients.forEach((client) => client.disconnect());
    redis.kill('SIGKILL');
  });

  function replica() {
    const client = createRedisClient(`redis://127.0.0.1:${PORT}`);
    clients.push(client);
    return createApp({ settings: { max: 3, windowSeconds: 60 }, redis: client });
  }

  async function statuses(app: ReturnType<typeof createApp>, apiKey: string, count: number) {
    const answers: number[] = [];
    for (let n = 0; n < count; n += 1) {
      const started = Date.now();
      const response = await app.fetch('http://api.test/api/partner/organizations', {
        headers: { 'x-api-key': apiKey },
      });
      // Never a hang: far above an answer on a busy machine, far below a request's 60 s deadline.
      expect(Date.now() - started).toBeLessThan(15_000);
      answers.push(response.status);
    }
    return answers;
  }

  test('shared, then per replica while Redis is down, then shared again', async () => {
    redis = startRedis();
    const [a, b] = [replica(), replica()];
    await untilAnswering(clients);

    const shared = (await createApiKey('partner')).apiKey;
    expect([...(await statuses(a, shared, 2)), ...(await statuses(b, shared, 2))]).toEqual([
      200, 200, 200, 429,
    ]);

    redis.kill('SIGKILL');
    await once(redis, 'exit');
    const duringOutage = (await createApiKey('partner')).apiKey;
    // Each replica limits in its own memory: 3 each, never a 500, never a hang.
    expect(await statuses(a, duringOutage, 4)).toEqual([200, 200, 200, 429]);
    expect(await statuses(b, duringOutage, 4)).toEqual([200, 200, 200, 429]);

    redis = startRedis();
    await untilAnswering(clients);
    const afterRecovery = (await createApiKey('partner')).apiKey;
    expect([
      ...(await statuses(a, afterRecovery, 2)),
      ...(await statuses(b, afterRecovery, 2)),
    ]).toEqual([200, 200, 200, 429]);
  }, 60_000);
});

withRedisServer('a replica says in words when Redis is unreachable, back, or lost', () => {
  let replica: Replica;
  let redis: ChildProcess | undefined;
  let port: number;
  const said = (message: string) =>
    replica
      .output()
      .split('\n')
      .filter((line) => line.includes(`"msg":"${message}`));

  beforeAll(async () => {
    port = await freePort();
    // Credentials in the URL, which no log line may repeat.
    replica = await startReplica({
      DATABASE_URL: undefined,
      PGLITE_DATA_DIR: 'memory://',
      REDIS_URL: `redis://:redis-password@127.0.0.1:${port}`,
      LOG_LEVEL: 'info',
    });
    // Migrations and demo data into an empty embedded database: minutes on a loaded machine.
  }, 180_000);

  afterAll(() => {
    replica?.process.kill('SIGKILL');
    redis?.kill('SIGKILL');
  });

  test('unreachable at start: one warning naming the address and the reason', async () => {
    await until(() => said('Redis is unreachable').length > 0, 'the warning');
    for (let n = 0; n < 3; n += 1) {
      const answer = await fetch(`${replica.base}/api/partner/organizations`, {
        headers: { 'x-api-key': DEMO_KEYS.partner },
      });
      expect(answer.status).toBe(200);
    }
    const [warning, ...more] = said('Redis is unreachable');
    expect(more).toEqual([]);
    expect(JSON.parse(warning!)).toMatchObject({
      level: 40,
      redis: `redis://127.0.0.1:${port}`,
      // Refused at once; on a busy machine the 1 s connect timeout can fire before the refusal is read.
      reason: expect.stringMatching(
        new RegExp(`^connect (ECONNREFUSED 127\\.0\\.0\\.1:${port}|ETIMEDOUT)$`),
      ),
    });
    expect(replica.output()).not.toContain("Stream isn't writeable");
    expect(replica.output()).not.toContain('redis-password');
  });

  test('then back once Redis answers, and lost when it stops', async () => {
    redis = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--requirepass',
        'redis-password',
      ],
      { stdio: 'ignore' },
    );
    await until(() => said('Redis answers again').length === 1, 'Redis back', 30_000);
    redis.kill('SIGKILL');
    await until(() => said('Redis connection lost').length === 1, 'Redis lost', 30_000);
    expect(said('Redis is unreachable')).toHaveLength(1);
  }, 60_000);
});

withRedisServer('a Redis that accepts connections and never answers', () => {
  let redis: ChildProcess;
  let redisPort: number;
  let relay: HangingRelay;
  const clients: RedisClient[] = [];

  beforeAll(async () => {
    redisPort = await freePort();
    redis = spawn(
      'redis-server',
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    relay = await startHangingRelay(redisPort);
  });

  // A test that failed while Redis hung leaves the next one a Redis that answers.
  afterEach(() => relay.answer());

  afterAll(async () => {
    clients.forEach((client) => client.disconnect());
    await relay.close();
    redis.kill('SIGKILL');
  });

  function client(port: number): RedisClient {
    const created = createRedisClient(`redis://127.0.0.1:${port}`);
    clients.push(created);
    return created;
  }

  /** A replica whose Redis is behind the relay, with the answer cache on. */
  function replica() {
    const redisClient = client(relay.port);
    const app = createApp({
      settings: { max: 3, windowSeconds: 60 },
      redis: redisClient,
      responseCacheTtlSeconds: 5,
    });
    return { app, redisClient };
  }

  async function statuses(app: ReturnType<typeof createApp>, apiKey: string, count: number) {
    const answers: number[] = [];
    for (let n = 0; n < count; n += 1) {
      const response = await app.fetch('http://api.test/api/partner/organizations', {
        headers: { 'x-api-key': apiKey },
      });
      answers.push(response.status);
    }
    return answers;
  }

  const readiness = async (app: ReturnType<typeof createApp>) => {
    const response = await app.fetch('http://api.test/readyz');
    return { status: response.status, body: await response.json() };
  };
  const partnerKey = async () => (await createApiKey('partner')).apiKey;

  test('the request that meets it opens the breaker; then no request asks Redis, limits hold per replica and /readyz says so; once it answers, the background probe closes the breaker', async () => {
    const [a, b] = [replica(), replica()];
    await untilAnswering([a.redisClient, b.redisClient]);
    const shared = await partnerKey();
    expect([...(await statuses(a.app, shared, 2)), ...(await statuses(b.app, shared, 2))]).toEqual([
      200, 200, 200, 429,
    ]);

    relay.hang();
    // Each replica's first request waits for one command's timeout, then answers from memory.
    const trip = await partnerKey();
    expect(await statuses(a.app, trip, 1)).toEqual([200]);
    expect(await statuses(b.app, trip, 1)).toEqual([200]);
    const heard = relay.heldCommands().length;
    const duringHang = await partnerKey();
    expect(await statuses(a.app, duringHang, 4)).toEqual([200, 200, 200, 429]);
    expect(await statuses(b.app, duringHang, 4)).toEqual([200, 200, 200, 429]);
    expect(await readiness(a.app)).toEqual({
      status: 503,
      body: { status: 'unavailable', checks: { database: 'ok', redis: 'unreachable' } },
    });
    // What reached the hung Redis meanwhile: the breakers' probes (and a new connection's
    // handshake), never a request's counter, cache lookup or store.
    const asked = relay.heldCommands().slice(heard);
    expect(
      asked.filter(
        ([name, key]) =>
          !(name === 'set' && key === `${config.redisKeyPrefix}health:probe`) &&
          name !== 'client' &&
          name !== 'info',
      ),
    ).toEqual([]);

    relay.answer();
    await until(
      () => !breakerOf(a.redisClient).isOpen && !breakerOf(b.redisClient).isOpen,
      'both breakers to close',
    );
    const afterwards = await partnerKey();
    expect([
      ...(await statuses(a.app, afterwards, 2)),
      ...(await statuses(b.app, afterwards, 2)),
    ]).toEqual([200, 200, 200, 429]);
    expect((await readiness(a.app)).status).toBe(200);
  }, 60_000);

  test('a connection that never answers again is made anew, and the replicas share their limits again', async () => {
    const [a, b] = [replica(), replica()];
    await untilAnswering([a.redisClient, b.redisClient]);
    relay.hang();
    const trip = await partnerKey();
    expect(await statuses(a.app, trip, 1)).toEqual([200]);
    expect(await statuses(b.app, trip, 1)).toEqual([200]);
    const connections = relay.connections();
    // The peer is gone without a reset: these connections stay silent; new ones reach Redis.
    relay.abandon();
    await until(
      () => !breakerOf(a.redisClient).isOpen && !breakerOf(b.redisClient).isOpen,
      'both breakers to close',
    );
    expect(relay.connections()).toBeGreaterThan(connections);
    const afterwards = await partnerKey();
    expect([
      ...(await statuses(a.app, afterwards, 2)),
      ...(await statuses(b.app, afterwards, 2)),
    ]).toEqual([200, 200, 200, 429]);
  }, 60_000);

  test('one that never answered at all: requests answer from memory, /readyz says redis unreachable', async () => {
    // Reads what it is sent, never writes a byte.
    const heard: string[] = [];
    const silent = createServer((socket) => socket.on('data', (data) => heard.push(String(data))));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const redisClient = client((silent.address() as AddressInfo).port);
      const app = createApp({ settings: { max: 3, windowSeconds: 60 }, redis: redisClient });
      await until(() => heard.length > 0, 'a connection to the silent server');
      expect(await statuses(app, await partnerKey(), 4)).toEqual([200, 200, 200, 429]);
      expect(await readiness(app)).toEqual({
        status: 503,
        body: { status: 'unavailable', checks: { database: 'ok', redis: 'unreachable' } },
      });
      // ioredis's own handshake, never a request's command.
      const commands = respCommands(heard.join('')).commands.map(([name]) => name);
      expect(commands.filter((name) => name !== 'client' && name !== 'info')).toEqual([]);
    } finally {
      silent.close();
    }
  }, 60_000);

  test('/readyz asks Redis for a write: answering PING while holding writes (CLIENT PAUSE WRITE) is not ready', async () => {
    const admin = client(redisPort);
    const { app, redisClient } = (() => {
      const redisClient = client(redisPort);
      return { app: createApp({ redis: redisClient }), redisClient };
    })();
    await untilAnswering([admin, redisClient]);
    expect((await readiness(app)).status).toBe(200);
    await admin.call('CLIENT', 'PAUSE', '60000', 'WRITE');
    try {
      expect(await redisClient.ping()).toBe('PONG');
      expect(await readiness(app)).toEqual({
        status: 503,
        body: { status: 'unavailable', checks: { database: 'ok', redis: 'unreachable' } },
      });
    } finally {
      await admin.call('CLIENT', 'UNPAUSE');
    }
    await until(async () => (await readiness(app)).status === 200, 'ready again');
  }, 60_000);
});
