// The service as its own process, as `npm start` runs it (node itself, not an npx/tsx wrapper, so
// signals reach the server), for tests that stop, kill or restart replicas.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';

export interface Replica {
  /** http://localhost:<port> */
  base: string;
  process: ChildProcessWithoutNullStreams;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
}

const ROOT = path.join(__dirname, '..', '..');

/**
 * Starts the service with `env` over the test's own, on a free port: as `npm start` runs it
 * (scripts/start.ts, demo data into an empty embedded database), as production does
 * (src/server.ts), or as its compiled build (dist/server.js, node alone). It logs to its own
 * output, which tests read, whatever LOG_FILE the test run has.
 */
export async function startReplica(
  env: Record<string, string | undefined>,
  entry: 'scripts/start.ts' | 'src/server.ts' | 'dist/server.js' = 'scripts/start.ts',
): Promise<Replica> {
  const args = entry.endsWith('.js') ? [entry] : ['--import', 'tsx', entry];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', LOG_FILE: undefined, ...env },
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let output = '';
  const base = await new Promise<string>((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      // The banner's bound address ends with its port; the replica is reached on loopback.
      const found = /listening on \S+:(\d+), public address /.exec(output);
      if (found) resolve(`http://127.0.0.1:${found[1]}`);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    void exited.then((code) => reject(new Error(`replica exited with ${code}: ${output}`)));
  });
  return { base, process: child, exited, output: () => output };
}

/** Runs a script of the project (or `node -e` code) to its end: its exit code and what it printed. */
export function runToExit(
  script: string | ['-e', string],
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...[script].flat()], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** Runs a script of the project (e.g. the seed) to completion with `env`; rejects on failure. */
export async function runScript(script: string, env: Record<string, string | undefined>) {
  const { code, output } = await runToExit(script, env);
  if (code !== 0) throw new Error(`${script} exited with ${code}: ${output}`);
}

/** A port nothing listens on at the moment. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
