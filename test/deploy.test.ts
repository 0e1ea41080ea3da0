// The Dockerfile's HEALTHCHECK and deploy/nginx.conf, run against real replicas (no container
// engine runs here). The health check asks for liveness: a replica that lost only Redis still
// serves and stays healthy, though its /readyz says 503. nginx (skipped where it is not
// installed, `apt-get install nginx-light`) passes a GET that met a replica answering 503 (its
// database unreachable) to the other replica, and keeps a replica that lost only Redis in rotation.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_KEYS } from '../src/auth/demoIdentities';
import { freePort, startReplica, type Replica } from './support/replica';
import { until } from './support/wait';

const ROOT = path.join(__dirname, '..');
const hasNginx = spawnSync('sh', ['-c', 'command -v nginx']).status === 0;

/** The command of the Dockerfile's HEALTHCHECK, as its exec form lists it. */
function healthCheckCommand(): string[] {
  const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  const command = /^HEALTHCHECK [^\n]*\\\n\s+CMD (\[.*\])$/m.exec(dockerfile);
  if (!command) throw new Error('the Dockerfile has no HEALTHCHECK in exec form');
  return JSON.parse(command[1]!) as string[];
}

function runHealthCheck(port: number): number | null {
  const [command, ...args] = healthCheckCommand();
  expect(command).toBe('node');
  return spawnSync(process.execPath, args, {
    env: { ...process.env, PORT: String(port) },
    timeout: 10_000,
  }).status;
}

/** The statuses a replica's access log recorded for `pathname`. */
function answered(replica: Replica, pathname: string): number[] {
  return replica
    .output()
    .split('\n')
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as { path: string; status: number })
    .filter((line) => line.path === pathname)
    .map((line) => line.status);
}

// As `npm start` runs: the embedded database with the demo data.
const embedded = { DATABASE_URL: undefined, PGLITE_DATA_DIR: 'memory://', LOG_LEVEL: 'info' };
const replicas: Replica[] = [];
let withoutRedis: Replica;
let withoutDatabase: Replica;

beforeAll(async () => {
  withoutRedis = await startReplica({
    ...embedded,
    REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
  });
  replicas.push(withoutRedis);
  withoutDatabase = await startReplica(
    {
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${await freePort()}/nowhere`,
      MIGRATE_ON_START: '0',
      REDIS_URL: undefined,
      LOG_LEVEL: 'info',
    },
    'src/server.ts',
  );
  replicas.push(withoutDatabase);
}, 120_000);

afterAll(() => replicas.forEach((replica) => replica.process.kill('SIGKILL')));

const portOf = (replica: Replica) => Number(new URL(replica.base).port);

describe("the Dockerfile's HEALTHCHECK", () => {
  test('passes while only Redis is unreachable, though /readyz answers 503', async () => {
    const ready = await fetch(`${withoutRedis.base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ checks: { database: 'ok', redis: 'unreachable' } });
    expect(runHealthCheck(portOf(withoutRedis))).toBe(0);
  });

  test('fails when nothing answers', async () => {
    expect(runHealthCheck(await freePort())).toBe(1);
  });
});

(hasNginx ? describe : describe.skip)('deploy/nginx.conf in front of two replicas', () => {
  let nginx: ChildProcess;
  let prefix: string;
  let base: string;

  beforeAll(async () => {
    prefix = mkdtempSync(path.join(tmpdir(), 'nginx-'));
    chmodSync(prefix, 0o755);
    const port = await freePort();
    // The compose file's replicas and port, here on loopback.
    const site = readFileSync(path.join(ROOT, 'deploy', 'nginx.conf'), 'utf8')
      .replace('server api-1:4000', `server 127.0.0.1:${portOf(withoutDatabase)}`)
      .replace('server api-2:4000', `server 127.0.0.1:${portOf(withoutRedis)}`)
      .replace('listen 80;', `listen 127.0.0.1:${port};`);
    expect(site).not.toMatch(/api-[12]:4000|listen 80;/);
    writeFileSync(
      path.join(prefix, 'nginx.conf'),
      [
        'daemon off;',
        'worker_processes 1;',
        `pid ${prefix}/nginx.pid;`,
        `error_log ${prefix}/error.log;`,
        'events {}',
        'http {',
        `  access_log ${prefix}/access.log;`,
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
          (kind) => `  ${kind}_temp_path ${prefix}/${kind};`,
        ),
        site,
        '}',
      ].join('\n'),
    );
    nginx = spawn('nginx', ['-p', prefix, '-c', path.join(prefix, 'nginx.conf')], {
      stdio: 'ignore',
    });
    base = `http://127.0.0.1:${port}`;
    await until(
      () =>
        fetch(`${base}/healthz`).then(
          () => true,
          () => false,
        ),
      'nginx',
    );
  }, 30_000);

  afterAll(async () => {
    // SIGTERM: the master stops its workers too (SIGKILL would leave them behind).
    if (nginx && nginx.exitCode === null) {
      const exited = once(nginx, 'exit');
      nginx.kill('SIGTERM');
      await exited;
    }
    rmSync(prefix, { recursive: true, force: true });
  });

  test('a GET that met the replica without its database is answered by the other one', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const answer = await fetch(`${base}/api/partner/organizations`, {
        // A well-formed key: checking it needs the database.
        headers: { 'x-api-key': DEMO_KEYS.partner },
      });
      statuses.push(answer.status);
    }
    // Every answer is the demo catalog of the replica with its database; no 503 reached the client...
    expect(statuses).toEqual(Array(8).fill(200));
    // The access log is written once an answer is sent: wait for the lines.
    const organizations = '/api/partner/organizations';
    await until(() => answered(withoutRedis, organizations).length === 8, 'the access log');
    await until(() => answered(withoutDatabase, organizations).length > 0, 'the access log');
    // ...though nginx tried the replica without its database, which answered 503.
    expect(answered(withoutDatabase, '/api/partner/organizations')).toContain(503);
    expect(answered(withoutDatabase, '/api/partner/organizations')).not.toContain(200);
    // The replica without Redis served them all: in rotation, though its /readyz says 503.
    expect(answered(withoutRedis, '/api/partner/organizations')).toEqual(Array(8).fill(200));
  });
});
