// The processes the harness loads: the service and the reference servers (bench/references/), each
// compiled as production compiles it and run as production runs it (build.ts): the production
// Node, alone, on the compiled file. So the child's pid is the server's own (its /proc/<pid>/stat
// and status are the server's CPU time and memory) and the probe it preloads runs in the server.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { STACK_FLOOR_PATH } from '../references/stackFloorServer';
import { buildService, productionNode, referenceBundle, type ReferenceServer } from './build';
import Redis from 'ioredis';
import { cpuMsOf } from './cpuTime';

export const REPO_ROOT = path.join(__dirname, '..', '..');
export const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = 'redis://127.0.0.1:6379';

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface NodeChild {
  child: ChildProcess;
  pid: number;
  /** The last lines the child printed (stdout and stderr), for error messages. */
  output(): string;
  /** SIGTERM, then SIGKILL if it is still there after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const OUTPUT_KEPT = 8_000;

// Children still running when the harness ends (an error, Ctrl-C) are killed with it, so no
// service or ceiling server outlives a run.
const running = new Set<ChildProcess>();
process.once('exit', () => running.forEach((child) => child.kill('SIGKILL')));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => process.exit(130));
}

/** Runs `node` (a binary) with the arguments; the last one is the script, named in errors. */
function spawnNode(
  node: string,
  nodeArgs: string[],
  env: NodeJS.ProcessEnv,
  cwd = REPO_ROOT,
): NodeChild {
  const child = spawn(node, nodeArgs, {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let stopping = false;
  // A server dying mid-run shows up as refused connections: say why it died.
  child.once('exit', (code, signal) => {
    if (!stopping && code !== 0) {
      console.error(`${nodeArgs.at(-1)} exited (${signal ?? `code ${code}`}):\n${output}`);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    pid: child.pid!,
    output: () => output,
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      stopping = true;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resolves once `check` passes; fails when the child exits first or time runs out. */
async function waitUntil(
  node: NodeChild,
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (node.child.exitCode !== null) {
      throw new Error(`${what} exited with ${node.child.exitCode}:\n${node.output()}`);
    }
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await node.stop();
  throw new Error(`${what} not ready within ${timeoutMs / 1000} s:\n${node.output()}`);
}

/** A server the harness loads, listening on `baseUrl`. */
export interface Server extends NodeChild {
  baseUrl: string;
}

/** The ceiling or the stack floor: a fixed body at one path. */
export interface FixedBodyServer extends Server {
  path: string;
}

/** Runs a server of bench/references, bundled, on a free port; ready once it answers HTTP at all. */
async function startReference(
  what: string,
  server: ReferenceServer,
  env: NodeJS.ProcessEnv = {},
  readyPath = '/',
): Promise<Server> {
  const port = await freePort();
  // Production mode, as the service runs: graphql-js checks every instanceof more slowly outside it.
  const node = spawnNode(productionNode(), [referenceBundle(server)], {
    ...process.env,
    ...env,
    NODE_ENV: 'production',
    PORT: String(port),
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntil(node, what, async () => (await fetch(`${baseUrl}${readyPath}`)).status < 500);
  return { ...node, baseUrl };
}

/** The bare node:http server (ceilingServer.ts). */
export async function startCeilingServer(): Promise<FixedBodyServer> {
  const server = await startReference('the ceiling server', 'ceilingServer');
  return { ...server, path: '/' };
}

/** yoga + Sofa + Pothos answering the ceiling's body (stackFloorServer.ts). */
export async function startStackFloorServer(): Promise<FixedBodyServer> {
  const server = await startReference(
    'the stack floor server',
    'stackFloorServer',
    {},
    STACK_FLOOR_PATH,
  );
  return { ...server, path: STACK_FLOOR_PATH };
}

/** Where the service and the references say short links live, so their bodies can be compared. */
export const SHORT_LINK_BASE_URL = 'https://bench.example/s';

function databaseEnv(schema: string): NodeJS.ProcessEnv {
  return {
    DATABASE_URL,
    DATABASE_SCHEMA: schema,
    PUBLIC_BASE_URL: 'https://bench.example',
    SHORT_LINK_BASE_URL,
  };
}

/**
 * Fastify + the service's Prisma client on the schema's data (peerServer.ts), loading a page's
 * relations by joins, as the service does, or by Prisma's default, a query per relation.
 */
export function startPeerServer(
  schema: string,
  relations: 'join' | 'query' = 'join',
): Promise<Server> {
  return startReference(`the peer server (relations by ${relations})`, 'peerServer', {
    ...databaseEnv(schema),
    REDIS_URL,
    RATE_LIMIT_MAX: QUOTA_OUT_OF_THE_WAY,
    PEER_RELATION_LOAD: relations,
  });
}

/** The process id of the Redis server the servers share (its own INFO says). */
export async function redisServerPid(): Promise<number> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const pid = /^process_id:(\d+)/m.exec(await redis.info('server'))?.[1];
    if (!pid) throw new Error(`Redis at ${REDIS_URL} names no process id`);
    return Number(pid);
  } finally {
    redis.disconnect();
  }
}

/** node:http + pg with hand-written SQL on the schema's data (limitServer.ts). */
export function startLimitServer(schema: string): Promise<Server> {
  return startReference('the limit server', 'limitServer', databaseEnv(schema));
}

export interface ServiceSettings {
  /** PostgreSQL schema of the data. */
  schema: string;
  /** Default: DATABASE_URL (the postgres role). */
  databaseUrl?: string;
  /** Preload the probe (bench/support/serverProbe.cjs): event-loop samples, CPU profiles. */
  withProbe?: boolean;
  /** The checkout to build and run (another build, for side-by-side comparisons). Default: this one. */
  dir?: string;
  /** RESPONSE_CACHE_TTL; default 0: every scenario measures the work of an answer. */
  responseCacheTtlSeconds?: number;
}

export const PROBE_PATH = path.join(__dirname, 'serverProbe.cjs');

export type Service = Server;

/** A quota every server counts but no run reaches. */
const QUOTA_OUT_OF_THE_WAY = '100000000';

/**
 * The environment the service runs with: production, quota out of the way, access lines written; keys of
 * the test environment, as the demo's keys are (production takes only keys of its own environment).
 */
export function serviceEnv(settings: ServiceSettings, port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    KEY_ENV: 'test',
    PORT: String(port),
    DASHBOARD_JWT_SECRET: 'bench-only-dashboard-secret-0123456789abcdef',
    // Its access lines, as production writes them.
    LOG_LEVEL: 'info',
    RATE_LIMIT_MAX: QUOTA_OUT_OF_THE_WAY,
    RESPONSE_CACHE_TTL: String(settings.responseCacheTtlSeconds ?? 0),
    // Behind a proxy, as production runs: the redirect's visitors come from many addresses.
    TRUST_PROXY: 'true',
    REDIS_URL,
    ...databaseEnv(settings.schema),
    ...(settings.databaseUrl && { DATABASE_URL: settings.databaseUrl }),
  };
}

/**
 * Builds the checkout (`npm run build`, once), starts its dist/server.js on the production Node and
 * waits until /readyz answers 200 (database and Redis reachable).
 */
export async function startService(settings: ServiceSettings): Promise<Service> {
  const dir = settings.dir ?? REPO_ROOT;
  const port = await freePort();
  const nodeArgs = [...(settings.withProbe ? ['--require', PROBE_PATH] : []), buildService(dir)];
  const node = spawnNode(productionNode(), nodeArgs, serviceEnv(settings, port), dir);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntil(node, 'the service', async () => (await fetch(`${baseUrl}/readyz`)).ok);
  return { ...node, baseUrl };
}

/**
 * Runs a TypeScript script of the repository to completion (the demo seed), as a developer does:
 * through tsx, on the harness's own Node.
 */
export async function runScript(script: string, env: NodeJS.ProcessEnv): Promise<string> {
  const node = spawnNode(process.execPath, ['--import', 'tsx', script], env);
  const code = await new Promise<number | null>((resolve) => node.child.once('exit', resolve));
  if (code !== 0) throw new Error(`${script} exited with ${code}:\n${node.output()}`);
  return node.output();
}

/** Asks the service's probe (see serverProbe.cjs) and waits for its reply. */
export function askProbe<Reply>(
  service: Pick<NodeChild, 'child'>,
  type: string,
  payload: Record<string, unknown> = {},
  timeoutMs = 30_000,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      service.child.off('message', onMessage);
      reject(new Error(`the probe did not answer ${type} within ${timeoutMs} ms`));
    }, timeoutMs);
    function onMessage(message: { type?: string; error?: string }) {
      if (message?.type !== `${type}:reply`) return;
      clearTimeout(timer);
      service.child.off('message', onMessage);
      if (message.error) reject(new Error(`probe: ${message.error}`));
      else resolve(message as Reply);
    }
    service.child.on('message', onMessage);
    service.child.send({ type, ...payload });
  });
}

/**
 * Waits until the process has worked off what a load left queued: under 5 % of a core over
 * 250 ms. Up to 30 s.
 */
export async function quiet(pid: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const before = cpuMsOf(pid);
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (cpuMsOf(pid) - before < 0.05 * 250) return;
  }
}
