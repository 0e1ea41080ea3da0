// A PostgreSQL server of the test's own, on a spare port, that a test may stop and start: the
// machine's shared server is never touched. Needs the server binaries (initdb, pg_ctl); as root
// (CI), the cluster runs as the `postgres` user, since PostgreSQL refuses to run as root.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const DEBIAN_BINARIES = '/usr/lib/postgresql';

/** The folder holding initdb and pg_ctl, or null when this machine has no PostgreSQL server. */
export function postgresBinaries(): string | null {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const onPath = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const candidates = [
    onPath.status === 0 ? onPath.stdout.trim() : '',
    ...(existsSync(DEBIAN_BINARIES)
      ? readdirSync(DEBIAN_BINARIES)
          .sort()
          .reverse()
          .map((version) => path.join(DEBIAN_BINARIES, version, 'bin'))
      : []),
  ];
  return candidates.find((dir) => dir && existsSync(path.join(dir, 'initdb'))) ?? null;
}

export interface PrivatePostgres {
  /** postgresql:// URL of the `postgres` database. */
  url: string;
  start(): void;
  /** Fast shutdown: open sessions are terminated, as when an operator restarts the server. */
  stop(): void;
  destroy(): void;
}

export function createPrivatePostgres(port: number): PrivatePostgres {
  const binaries = postgresBinaries();
  if (!binaries) throw new Error('PostgreSQL server binaries (initdb, pg_ctl) not found');
  const folder = mkdtempSync(path.join(tmpdir(), 'private-pg-'));
  const dataDir = path.join(folder, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(folder, uidOf('postgres'), gidOf('postgres'));

  const run = (tool: string, args: string[]) => {
    const command = path.join(binaries, tool);
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', command, ...args]]
      : [command, args];
    execFileSync(file, argv, { stdio: 'pipe' });
  };
  const serverOptions = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off`;

  run('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  let running = false;
  const cluster: PrivatePostgres = {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    start() {
      run('pg_ctl', [
        '-D',
        dataDir,
        '-o',
        serverOptions,
        '-l',
        path.join(folder, 'log'),
        '-w',
        'start',
      ]);
      running = true;
    },
    stop() {
      run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
      running = false;
    },
    destroy() {
      if (running) run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      rmSync(folder, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}

function uidOf(user: string): number {
  return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
}

function gidOf(user: string): number {
  return Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
}
