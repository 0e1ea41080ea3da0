// Where and on what a run happened: the machine, the versions, the commit.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import Redis from 'ioredis';
import { productionNodeVersion } from './build';
import { postgresVersion } from './database';
import { REDIS_URL, REPO_ROOT } from './processes';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  /** The Node every server runs on (production's). */
  node: string;
  /** The Node the harness itself (the load generator) runs on. */
  harnessNode: string;
  postgres: string;
  redis: string;
}

async function redisVersion(): Promise<string> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const info = await redis.info('server');
    return /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
  } finally {
    redis.disconnect();
  }
}

export async function describeMachine(): Promise<Machine> {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()}`,
    node: productionNodeVersion(),
    harnessNode: process.version,
    postgres: await postgresVersion(),
    redis: await redisVersion(),
  };
}

function git(args: string[]): string {
  return execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
}

export interface Commit {
  short: string;
  /** The commit, with "dirty" when the working tree has changes. */
  label: string;
}

export function currentCommit(): Commit {
  try {
    const short = git(['rev-parse', '--short', 'HEAD']);
    const dirty = git(['status', '--porcelain']) !== '';
    return { short, label: dirty ? `${short} (dirty)` : short };
  } catch {
    return { short: 'unknown', label: 'unknown' };
  }
}

export function machineLines(machine: Machine): string[] {
  return [
    `- CPU: ${machine.cpu}, ${machine.cores} cores; memory ${machine.memoryGiB} GiB; ${machine.os}`,
    `- Node ${machine.node} for every server, compiled and run with node alone (the harness on` +
      ` ${machine.harnessNode}), PostgreSQL ${machine.postgres}, Redis ${machine.redis}`,
  ];
}
