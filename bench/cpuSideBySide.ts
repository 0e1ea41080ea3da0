// Service CPU per request, this checkout against others (e.g. an older commit unpacked with
// `git archive <commit> | tar -x -C <dir>` and installed with `npm ci`), side by side on one
// database: all services run at once, each route is asked N times in sequence of one build, then
// of the next (the order rotating each round), and each server's CPU time (/proc/<pid>/stat,
// utime + stime) is read before and after its batch. All answers must be identical.
//
//   npx tsx bench/cpuSideBySide.ts <other checkout>[,<another>...] [requests = 300] [rounds = 6]
//
// DATABASE_URL (default the machine's postgres database) and DATABASE_SCHEMA (default
// cpu_side_by_side) name the data; the demo data is loaded there first (npm run seed, idempotent).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, REPO_ROOT } from './support/processes';

const [otherDirs, requestsArg = '300', roundsArg = '6'] = process.argv.slice(2);
if (!otherDirs) {
  console.error('usage: npx tsx bench/cpuSideBySide.ts <other checkout>[,...] [requests] [rounds]');
  process.exit(2);
}
const REQUESTS = Number(requestsArg);
const ROUNDS = Number(roundsArg);
const WARM_UP = 500;
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const SCHEMA = process.env.DATABASE_SCHEMA ?? 'cpu_side_by_side';
const KEY = 'svc_test_demoaff1_DemoAffiliateSecret000000110HKnD';
const ROUTES = ['/affiliate/campaigns', '/affiliate/orders'];
const TICKS_PER_S = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

interface Build {
  name: string;
  dir: string;
  child: ChildProcess;
  baseUrl: string;
}

const started: ChildProcess[] = [];
let stopping = false;
process.once('exit', () => started.forEach((child) => child.kill('SIGKILL')));

function environment(port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DASHBOARD_JWT_SECRET: 'bench-only-dashboard-secret-0123456789abcdef',
    RATE_LIMIT_MAX: '100000000',
    // Short links are answered with this base, the same for every build whatever its port.
    PUBLIC_BASE_URL: 'http://localhost:4000',
    DATABASE_URL,
    DATABASE_SCHEMA: SCHEMA,
    PORT: String(port),
  };
}

async function start(name: string, dir: string): Promise<Build> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: dir,
    env: environment(port),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  started.push(child);
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`${name} exited (${code ?? signal}) during the measurement`);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { name, dir, child, baseUrl };
    if (tries > 600) throw new Error(`${name} not ready within 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function cpuSeconds(pid: number): number {
  // Fields after the command name (which is in parentheses): utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
}

async function get(build: Build, route: string): Promise<string> {
  const response = await fetch(`${build.baseUrl}${route}`, { headers: { 'x-api-key': KEY } });
  const body = await response.text();
  if (response.status !== 200)
    throw new Error(`${build.name} ${route}: ${response.status} ${body}`);
  return body;
}

/** CPU milliseconds per request over `REQUESTS` sequential requests. */
async function batch(build: Build, route: string): Promise<number> {
  const before = cpuSeconds(build.child.pid!);
  for (let i = 0; i < REQUESTS; i += 1) await get(build, route);
  return ((cpuSeconds(build.child.pid!) - before) * 1000) / REQUESTS;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const fixed = (value: number) => value.toFixed(2);

async function main(): Promise<void> {
  const seeded = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/seed.ts'], {
    cwd: REPO_ROOT,
    env: { ...environment(0), NODE_ENV: 'development' },
    encoding: 'utf8',
  });
  if (seeded.status !== 0) throw new Error(`seed failed:\n${seeded.stdout}${seeded.stderr}`);
  console.log(seeded.stdout.trim());

  const builds: Build[] = [];
  for (const dir of otherDirs!.split(',')) {
    builds.push(await start(path.basename(path.resolve(dir)), path.resolve(dir)));
  }
  builds.push(await start('this checkout', REPO_ROOT));
  for (const route of ROUTES) {
    const [first, ...others] = await Promise.all(builds.map((build) => get(build, route)));
    for (const [i, other] of others.entries()) {
      if (other !== first) {
        throw new Error(`${builds[i + 1]!.name} answers ${route} differently:\n${first}\n${other}`);
      }
    }
    for (const build of builds) for (let i = 0; i < WARM_UP; i += 1) await get(build, route);
  }

  const samples = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const route of ROUTES) {
      const shift = round % builds.length;
      const order = [...builds.slice(shift), ...builds.slice(0, shift)];
      const line: string[] = [];
      for (const build of order) {
        const perRequest = await batch(build, route);
        const key = `${route} ${build.name}`;
        samples.set(key, [...(samples.get(key) ?? []), perRequest]);
        line.push(`${build.name} ${fixed(perRequest)}`);
      }
      console.log(`round ${round + 1} ${route}: ${line.join(', ')} ms CPU per request`);
    }
  }

  console.log(`\n${REQUESTS} sequential requests per batch, ${ROUNDS} rounds, schema ${SCHEMA}`);
  const describe = (values: number[]) =>
    `median ${fixed(median(values))} (${fixed(Math.min(...values))}-${fixed(Math.max(...values))})`;
  for (const route of ROUTES) {
    const self = samples.get(`${route} this checkout`)!;
    console.log(`${route}: this checkout ${describe(self)} ms CPU per request`);
    for (const build of builds.slice(0, -1)) {
      const other = samples.get(`${route} ${build.name}`)!;
      const ratios = self.map((value, i) => value / other[i]!);
      console.log(
        `  ${build.name} ${describe(other)} ms; this checkout / ${build.name}, per round: ${describe(ratios)}`,
      );
    }
  }
  stopping = true;
  for (const build of builds) build.child.kill('SIGTERM');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
