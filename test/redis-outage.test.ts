// Redis stopping and coming back while replicas serve: they keep answering with per-replica
// limits during the outage and share the quota again once it returns. The test runs its own
// redis-server on a spare loopback port, so the machine's Redis is never touched.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createApp } from '../src/app';
import { createRedisClient, type RedisClient } from '../src/redis';
import { useTestDatabase } from './support/app';
import { createApiKey } from './support/factories';

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
