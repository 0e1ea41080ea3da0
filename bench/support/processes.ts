// The processes the harness loads: the service (src/server.ts) and the ceiling server, each a node
// child run directly (`node --import tsx`, no tsx wrapper), so the child's pid is the server's own
// (its /proc/<pid>/status is the server's memory) and the probe it preloads runs in the server.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { STACK_FLOOR_PATH } from '../references/stackFloorServer';

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

function spawnNode(nodeArgs: string[], env: NodeJS.ProcessEnv): NodeChild {
  const child = spawn(process.execPath, nodeArgs, {
    cwd: REPO_ROOT,
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
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    pid: child.pid!,
    output: () => output,
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
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

/** A server the service is measured against: the ceiling or the stack's floor. */
export interface ReferenceServer extends NodeChild {
  baseUrl: string;
  /** The path that answers the reference body. */
  path: string;
}

async function startReferenceServer(
  what: string,
  script: string,
  routePath: string,
): Promise<ReferenceServer> {
  const port = await freePort();
  // Production mode, as the service runs: graphql-js checks every instanceof more slowly outside it.
  const node = spawnNode(['--import', 'tsx', script], {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntil(node, what, async () => (await fetch(`${baseUrl}${routePath}`)).ok);
  return { ...node, baseUrl, path: routePath };
}

/** The bare node:http server (ceilingServer.ts). */
export function startCeilingServer(): Promise<ReferenceServer> {
  return startReferenceServer('the ceiling server', 'bench/references/ceilingServer.ts', '/');
}

/** yoga + Sofa + Pothos answering the ceiling's body (stackFloorServer.ts). */
export function startStackFloorServer(): Promise<ReferenceServer> {
  return startReferenceServer(
    'the stack floor server',
    'bench/references/stackFloorServer.ts',
    STACK_FLOOR_PATH,
  );
}

export interface ServiceSettings {
  /** PostgreSQL schema of the data. */
  schema: string;
  /** Default: DATABASE_URL (the postgres role). */
  databaseUrl?: string;
  /** Preload the probe (bench/support/serverProbe.cjs): event-loop samples, CPU profiles. */
  withProbe?: boolean;
}

export const PROBE_PATH = path.join(__dirname, 'serverProbe.cjs');

export interface Service extends NodeChild {
  baseUrl: string;
}

/** The environment the service runs with: production, quota out of the way, warnings only. */
export function serviceEnv(settings: ServiceSettings, port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    PORT: String(port),
    DASHBOARD_JWT_SECRET: 'bench-only-dashboard-secret-0123456789abcdef',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '100000000',
    REDIS_URL,
    DATABASE_URL: settings.databaseUrl ?? DATABASE_URL,
    DATABASE_SCHEMA: settings.schema,
  };
}

/** Starts src/server.ts and waits until /readyz answers 200 (database and Redis reachable). */
export async function startService(settings: ServiceSettings): Promise<Service> {
  const port = await freePort();
  const nodeArgs = [
    ...(settings.withProbe ? ['--require', PROBE_PATH] : []),
    '--import',
    'tsx',
    'src/server.ts',
  ];
  const node = spawnNode(nodeArgs, serviceEnv(settings, port));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntil(node, 'the service', async () => (await fetch(`${baseUrl}/readyz`)).ok);
  return { ...node, baseUrl };
}

/** Runs a TypeScript script of the repository to completion (the demo seed). */
export async function runScript(script: string, env: NodeJS.ProcessEnv): Promise<string> {
  const node = spawnNode(['--import', 'tsx', script], env);
  const code = await new Promise<number | null>((resolve) => node.child.once('exit', resolve));
  if (code !== 0) throw new Error(`${script} exited with ${code}:\n${node.output()}`);
  return node.output();
}

/** Asks the service's probe (see serverProbe.cjs) and waits for its reply. */
export function askProbe<Reply>(
  service: NodeChild,
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
