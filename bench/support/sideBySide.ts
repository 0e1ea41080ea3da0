// The service beside the reference servers on one route: first the bodies (a reference whose body
// differs from the service's is not measured), then alternating rounds (service, peer, limit,
// service, ...), each turn a closed-loop load (req/s, latency, the server's CPU per answer,
// PostgreSQL's and Redis's) and an open-loop probe at a fixed rate. Alternating spreads the machine's drift and
// the other processes' load over all servers alike; each figure is the median of the rounds.
import { cpuMsOf, postgresCpuMs, residentMiBOf } from './cpuTime';
import { postmasterPid } from './database';
import { redisServerPid } from './processes';
import { runLoad, type LoadRequest, type LoadResult } from './load';
import { probeAtFixedRate, type ProbeResult } from './openLoop';
import { quiet, type Server } from './processes';

export type ContenderName = 'service' | 'peer' | 'default peer' | 'limit';

export interface Contender {
  name: ContenderName;
  server: Server;
}

export interface Round {
  load: LoadResult;
  /** The server process's CPU time over the measured load, per answer. */
  cpuMsPerAnswer: number;
  /** The PostgreSQL server's CPU time (every process of it) over the same load, per answer. */
  postgresCpuMsPerAnswer: number;
  /** The Redis server's CPU time over the same load, per answer. */
  redisCpuMsPerAnswer: number;
  /** The server process's resident memory at the end of the closed loop. */
  rssMiB: number;
  probe: ProbeResult;
}

export interface ContenderOutcome {
  name: ContenderName;
  /** Why it was not measured (its body differs from the service's); null when measured. */
  refusal: string | null;
  rounds: Round[];
}

export interface SideBySide {
  route: string;
  /** The paths whose bodies were compared. */
  compared: string[];
  outcomes: ContenderOutcome[];
}

export interface SideBySideSettings {
  connections: number;
  durationS: number;
  warmupS: number;
  rounds: number;
  probeRatePerS: number;
}

interface Answer {
  status: number;
  body: Buffer;
}

async function fetchAnswer(baseUrl: string, request: LoadRequest): Promise<Answer> {
  const response = await fetch(`${baseUrl}${request.path}`, { headers: request.headers });
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

const EXCERPT = 80;

/** Where two bodies part, with a little of each around it. */
function diffExcerpt(service: Buffer, reference: Buffer): string {
  let at = 0;
  while (at < service.length && service[at] === reference[at]) at++;
  const around = (body: Buffer) =>
    JSON.stringify(body.subarray(Math.max(0, at - EXCERPT), at + EXCERPT).toString());
  return `bodies differ from byte ${at}: service ${around(service)}, reference ${around(reference)}`;
}

/** The orders page's `finalThrough`: the clock less a margin while no open order locks earlier. */
const WATERMARK = /"finalThrough":"([^"]+)"/;

/** Byte for byte, but for a watermark that may follow the clock: within a second. */
export function sameAnswer(service: Buffer, reference: Buffer): boolean {
  if (service.equals(reference)) return true;
  const [ours, theirs] = [service.toString(), reference.toString()];
  const [at, alsoAt] = [WATERMARK.exec(ours)?.[1], WATERMARK.exec(theirs)?.[1]];
  if (at === undefined || alsoAt === undefined) return false;
  return (
    ours.replace(WATERMARK, '') === theirs.replace(WATERMARK, '') &&
    Math.abs(Date.parse(at) - Date.parse(alsoAt)) < 1_000
  );
}

/**
 * Null when the reference answers each request byte for byte as the service does (`sameAnswer`),
 * else what differs. The service answers each once first, so the campaign links it makes on first need exist
 * for both; then both are asked at the same moment, as campaign statuses follow the clock.
 */
export async function bodyDifference(
  service: Server,
  reference: Server,
  requests: LoadRequest[],
): Promise<string | null> {
  for (const request of requests) {
    await fetchAnswer(service.baseUrl, request);
    const [expected, answered] = await Promise.all([
      fetchAnswer(service.baseUrl, request),
      fetchAnswer(reference.baseUrl, request),
    ]);
    if (expected.status !== 200 || answered.status !== 200) {
      return `GET ${request.path}: service ${expected.status}, reference ${answered.status}`;
    }
    if (!sameAnswer(expected.body, answered.body)) {
      return `GET ${request.path}: ${diffExcerpt(expected.body, answered.body)}`;
    }
  }
  return null;
}

/**
 * One turn of a server: a warm-up, the measured closed loop, then the probe. The closed loop makes
 * a fixed number of requests per connection (sized from the warm-up's rate to last about the
 * duration) and starts once the warm-up's leftovers are done, so the CPU time read around it is
 * the work of exactly the answers it counts.
 */
async function measureRound(
  server: Server,
  requests: LoadRequest[],
  settings: SideBySideSettings,
  databases: { postmaster: number; redis: number },
): Promise<Round> {
  const spec = { requests, expected: [200] };
  const { connections, durationS } = settings;
  const warm = await runLoad(server.baseUrl, spec, { connections, durationS: settings.warmupS });
  const requestsPerConnection = Math.max(
    1,
    Math.round((warm.requestsPerSecond * durationS) / connections),
  );
  await quiet(server.pid);
  const cpuBefore = cpuMsOf(server.pid);
  const postgresBefore = postgresCpuMs(databases.postmaster);
  const redisBefore = cpuMsOf(databases.redis);
  const load = await runLoad(server.baseUrl, spec, {
    connections,
    durationS,
    requestsPerConnection,
  });
  const postgresCpuMsPerAnswer =
    (postgresCpuMs(databases.postmaster) - postgresBefore) / load.responses;
  const redisCpuMsPerAnswer = (cpuMsOf(databases.redis) - redisBefore) / load.responses;
  const cpuMsPerAnswer = (cpuMsOf(server.pid) - cpuBefore) / load.responses;
  const rssMiB = residentMiBOf(server.pid);
  await quiet(server.pid);
  const probe = await probeAtFixedRate(server.baseUrl, requests[0]!, {
    ratePerS: settings.probeRatePerS,
    durationS,
  });
  return { load, cpuMsPerAnswer, postgresCpuMsPerAnswer, redisCpuMsPerAnswer, rssMiB, probe };
}

/** What the contenders are loaded with, and which answers are compared before. */
export interface Workload {
  /** How the report names it. */
  route: string;
  /** Sent in turn by every connection. */
  load: LoadRequest[];
  compared: LoadRequest[];
}

/**
 * The service (first of `contenders`) and the references beside it on one workload; the service
 * alone when it is the only contender.
 */
export async function measureSideBySide(
  contenders: Contender[],
  workload: Workload,
  settings: SideBySideSettings,
  onRound: (name: ContenderName, round: Round) => void,
): Promise<SideBySide> {
  const [service] = contenders;
  if (service?.name !== 'service') throw new Error('side by side: the service comes first');
  const databases = { postmaster: await postmasterPid(), redis: await redisServerPid() };
  const outcomes: ContenderOutcome[] = [];
  for (const { name, server } of contenders) {
    const refusal =
      name === 'service' ? null : await bodyDifference(service.server, server, workload.compared);
    if (refusal) console.warn(`[${name}] not measured on ${workload.route}: ${refusal}`);
    outcomes.push({ name, refusal, rounds: [] });
  }
  for (let round = 0; round < settings.rounds; round++) {
    for (const [i, { name, server }] of contenders.entries()) {
      if (outcomes[i]!.refusal) continue;
      const measured = await measureRound(server, workload.load, settings, databases);
      outcomes[i]!.rounds.push(measured);
      onRound(name, measured);
      await quiet(server.pid);
    }
  }
  const compared = workload.compared.map((request) => request.path);
  return { route: workload.route, compared, outcomes };
}

export interface ContenderSummary {
  requestsPerSecond: number;
  /** The lowest and highest round. */
  requestsPerSecondRange: [number, number];
  p50Ms: number;
  p99Ms: number;
  cpuMsPerAnswer: number;
  postgresCpuMsPerAnswer: number;
  redisCpuMsPerAnswer: number;
  /** The server's, PostgreSQL's and Redis's CPU per answer together. */
  totalCpuMsPerAnswer: number;
  rssMiB: number;
  probeP50Ms: number;
  probeP99Ms: number;
  errors: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The medians of a contender's rounds; null when it was not measured. */
export function summaryOf(outcome: ContenderOutcome | undefined): ContenderSummary | null {
  if (!outcome || outcome.refusal || !outcome.rounds.length) return null;
  const { rounds } = outcome;
  const rates = rounds.map((round) => round.load.requestsPerSecond);
  return {
    requestsPerSecond: median(rates),
    requestsPerSecondRange: [Math.min(...rates), Math.max(...rates)],
    p50Ms: median(rounds.map((round) => round.load.p50Ms)),
    p99Ms: median(rounds.map((round) => round.load.p99Ms)),
    cpuMsPerAnswer: median(rounds.map((round) => round.cpuMsPerAnswer)),
    postgresCpuMsPerAnswer: median(rounds.map((round) => round.postgresCpuMsPerAnswer)),
    redisCpuMsPerAnswer: median(rounds.map((round) => round.redisCpuMsPerAnswer)),
    totalCpuMsPerAnswer: median(
      rounds.map(
        (round) => round.cpuMsPerAnswer + round.postgresCpuMsPerAnswer + round.redisCpuMsPerAnswer,
      ),
    ),
    rssMiB: median(rounds.map((round) => round.rssMiB)),
    probeP50Ms: median(rounds.map((round) => round.probe.p50Ms)),
    probeP99Ms: median(rounds.map((round) => round.probe.p99Ms)),
    errors: rounds.reduce((sum, round) => sum + round.load.errors + round.probe.errors, 0),
  };
}
