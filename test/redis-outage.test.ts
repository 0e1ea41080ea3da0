// Redis stopping and coming back while replicas serve: they keep answering with per-replica
// limits during the outage and share the quota again once it returns. The test runs its own
// redis-server on a spare loopback port, so the machine's Redis is never touched.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createApp } from '../src/app';
import { DEMO_KEYS } from '../src/auth/demoIdentities';
import { createRedisClient, type RedisClient } from '../src/platform/redis';
import { useTestDatabase } from './support/app';
import { createApiKey } from './support/factories';
import { freePort, startReplica, type Replica } from './support/replica';
import { until } from './support/webhookReceiver';

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
async function untilAnswering(clients: RedisClient[], timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const answering = () =>
    Promise.all(
      clients.map((client) =>
        client.ping().then(
          () => true,
          () => false,
        ),
      ),
    );
  while (!(await answering()).every(Boolean)) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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
      expect(Date.now() - started).toBeLessThan(1_500);
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
  }, 60_000);

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
      reason: `connect ECONNREFUSED 127.0.0.1:${port}`,
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
