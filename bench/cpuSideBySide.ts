// Service CPU per request, this checkout against others (e.g. an older commit unpacked with
// `git archive <commit> | tar -x -C <dir>` and installed with `npm ci`), side by side on one
// database: each checkout is compiled by its own `npm run build` and started as production starts
// it (`node dist/server.js`, on the production Node of this checkout: scripts/production-node.sh);
// all services run at once, each route is asked N times in sequence of one build, then of the next
// (the order rotating each round), and each server's CPU time, and PostgreSQL's, is read before
// and after its batch. All answers must be identical (`sameAnswer`: a watermark within a second).
//
//   npx tsx bench/cpuSideBySide.ts <other checkout>[,<another>...] [--requests 300] [--rounds 6]
//
// The demo data is loaded into the schema cpu_side_by_side of the machine's postgres database
// first (npm run seed, idempotent).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO } from '../prisma/seed/demo';
import { positiveNumber } from './support/cli';
import { cpuMsOf, postgresCpuMs } from './support/cpuTime';
import { postmasterPid } from './support/database';
import { sameAnswer } from './support/sideBySide';
import { REPO_ROOT, runScript, serviceEnv, startService, type Service } from './support/processes';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    requests: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '6' },
  },
});
const [otherDirs] = positionals;
if (!otherDirs) {
  console.error(
    'usage: npx tsx bench/cpuSideBySide.ts <other checkout>[,...] [--requests N] [--rounds N]',
  );
  process.exit(2);
}
const REQUESTS = positiveNumber('requests', values.requests);
const ROUNDS = positiveNumber('rounds', values.rounds);
const WARM_UP = 500;
const SCHEMA = 'cpu_side_by_side';
const ROUTES = ['/affiliate/campaigns', '/affiliate/orders'];

interface Build extends Service {
  name: string;
}

async function get(build: Build, route: string): Promise<string> {
  const response = await fetch(`${build.baseUrl}${route}`, {
    headers: { 'x-api-key': DEMO.keys.affiliate },
  });
  const body = await response.text();
  if (response.status !== 200)
    throw new Error(`${build.name} ${route}: ${response.status} ${body}`);
  return body;
}

interface PerRequest {
  /** The service's CPU milliseconds per request. */
  service: number;
  /** PostgreSQL's (every process of the server), over the same requests. */
  postgres: number;
}

/** CPU milliseconds per request over `REQUESTS` sequential requests. */
async function batch(build: Build, route: string, postmaster: number): Promise<PerRequest> {
  const before = cpuMsOf(build.pid);
  const postgresBefore = postgresCpuMs(postmaster);
  for (let i = 0; i < REQUESTS; i += 1) await get(build, route);
  return {
    service: (cpuMsOf(build.pid) - before) / REQUESTS,
    postgres: (postgresCpuMs(postmaster) - postgresBefore) / REQUESTS,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const fixed = (value: number) => value.toFixed(2);

async function main(): Promise<void> {
  console.log(
    await runScript('scripts/seed.ts', {
      ...serviceEnv({ schema: SCHEMA }, 0),
      NODE_ENV: 'development',
    }),
  );
  const builds: Build[] = [];
  const checkouts = otherDirs!.split(',').map((dir) => [path.basename(path.resolve(dir)), dir]);
  for (const [name, dir] of [...checkouts, ['this checkout', REPO_ROOT]] as const) {
    builds.push({ name, ...(await startService({ schema: SCHEMA, dir: path.resolve(dir) })) });
  }
  for (const route of ROUTES) {
    const [first, ...others] = await Promise.all(builds.map((build) => get(build, route)));
    for (const [i, other] of others.entries()) {
      if (!sameAnswer(Buffer.from(first!), Buffer.from(other))) {
        throw new Error(`${builds[i + 1]!.name} answers ${route} differently:\n${first}\n${other}`);
      }
    }
    for (const build of builds) for (let i = 0; i < WARM_UP; i += 1) await get(build, route);
  }

  const postmaster = await postmasterPid();
  const samples = new Map<string, PerRequest[]>();
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const route of ROUTES) {
      const shift = round % builds.length;
      const order = [...builds.slice(shift), ...builds.slice(0, shift)];
      const line: string[] = [];
      for (const build of order) {
        const perRequest = await batch(build, route, postmaster);
        const key = `${route} ${build.name}`;
        samples.set(key, [...(samples.get(key) ?? []), perRequest]);
        line.push(`${build.name} ${fixed(perRequest.service)} (${fixed(perRequest.postgres)})`);
      }
      console.log(
        `round ${round + 1} ${route}: ${line.join(', ')} ms CPU per request (PostgreSQL's)`,
      );
    }
  }

  console.log(
    `\n${REQUESTS} sequential requests per batch, ${ROUNDS} rounds, schema ${SCHEMA}; PostgreSQL's` +
      " CPU is the whole server's, other clients of it included",
  );
  const describe = (values: number[]) =>
    `median ${fixed(median(values))} (${fixed(Math.min(...values))}-${fixed(Math.max(...values))})`;
  const service = (key: string) => samples.get(key)!.map((sample) => sample.service);
  const postgres = (key: string) => samples.get(key)!.map((sample) => sample.postgres);
  for (const route of ROUTES) {
    const self = `${route} this checkout`;
    console.log(
      `${route}: this checkout ${describe(service(self))} ms CPU per request;` +
        ` PostgreSQL ${describe(postgres(self))} ms`,
    );
    for (const build of builds.slice(0, -1)) {
      const other = `${route} ${build.name}`;
      const ratios = service(self).map((value, i) => value / service(other)[i]!);
      console.log(
        `  ${build.name} ${describe(service(other))} ms, PostgreSQL ${describe(postgres(other))} ms;` +
          ` this checkout / ${build.name}, per round: ${describe(ratios)}`,
      );
    }
  }
  await Promise.all(builds.map((build) => build.stop()));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
