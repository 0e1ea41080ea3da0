// The soak: mixed traffic for minutes on the service (PostgreSQL + Redis), recording
// every 10 s the server's RSS (/proc/<pid>/status of the node process serving), its event-loop
// delay (measured inside the server by bench/support/serverProbe.cjs), requests/s, p99 and errors
// of that window, and, after the warm-up, its heap after a full GC. Verdict: the trend of that heap
// (bench/support/leakVerdict.ts) grows under 10 % over the run. Writes bench/results/soak.md.
// On demand, not in CI.
//
//   npm run soak                         # 10 minutes, 20 connections, scale data if seeded
//   npm run soak -- --minutes 2 --connections 20 --target demo
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { DEMO_SCHEMA, resetDemoSchema, SCALE_SCHEMA, schemaRows } from './support/database';
import { resolveFixtures } from './support/fixtures';
import {
  summarizeHeapProfile,
  type HeapSummary,
  type SamplingHeapProfile,
} from './support/heapProfile';
import { positiveNumber } from './support/cli';
import { autocannonOptions, LatencyLog, quantile } from './support/load';
import { currentCommit, describeMachine, machineLines } from './support/machine';
import { askProbe, startService, type Service } from './support/processes';
import { leakVerdict, MAX_RETAINED_GROWTH, type LeakVerdict } from './support/leakVerdict';
import { writeMarkdown } from './support/report';
import { soakMix } from './support/scenarios';

const WINDOW_S = 10;
const WARMUP_S = 60;

interface ProbeSample {
  eventLoop: { p50Ms: number; p99Ms: number; maxMs: number; meanMs: number };
  memory: { rss: number; heapUsed: number; heapTotal: number; external: number };
}

interface Sample {
  atS: number;
  rssMiB: number;
  heapUsedMiB: number;
  /** After a full GC; measured once the warm-up is over. */
  retainedMiB?: number;
  loopP50Ms: number;
  loopP99Ms: number;
  loopMaxMs: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

const MiB = 2 ** 20;

/** VmRSS of the process, from the kernel (not the process's own account). */
function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kB = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  if (!kB) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(kB) / 1024;
}

interface Verdict {
  retained: LeakVerdict;
  /** RSS over the windows after the warm-up: it moves with the young generation, a sawtooth. */
  rssMinMiB: number;
  rssMaxMiB: number;
}

function verdictOf(samples: Sample[]): Verdict | null {
  const after = samples.filter((sample) => sample.retainedMiB !== undefined);
  const retained = leakVerdict(after.map(({ atS, retainedMiB }) => ({ atS, mib: retainedMiB! })));
  if (!retained) return null;
  const rss = after.map((sample) => sample.rssMiB);
  return { retained, rssMinMiB: Math.min(...rss), rssMaxMiB: Math.max(...rss) };
}

async function soak(
  service: Service,
  minutes: number,
  connections: number,
  onSample: (sample: Sample) => void,
): Promise<SoakTotals> {
  const fixtures = await resolveFixtures(service.baseUrl);
  const spec = soakMix(fixtures);
  const latencies = new LatencyLog();
  const statusCounts: Record<number, number> = {};
  let windowErrors = 0;
  let errors = 0;
  let responses = 0;
  const instance = autocannon(
    autocannonOptions(service.baseUrl, spec, { connections, durationS: minutes * 60 }),
  );
  instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    latencies.add(responseTimeMs);
    responses++;
    statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
    if (!spec.expected.includes(statusCode)) windowErrors++;
  });
  instance.on('reqError', () => windowErrors++);
  // Starts the probe's window with the load.
  await askProbe<ProbeSample>(service, 'bench:sample');
  const started = performance.now();
  let windowStart = started;
  let heapStart: Promise<HeapReply> | undefined;
  const timer = setInterval(async () => {
    const now = performance.now();
    const sorted = latencies.drain();
    const windowS = (now - windowStart) / 1000;
    windowStart = now;
    const windowErrorCount = windowErrors;
    errors += windowErrors;
    windowErrors = 0;
    const warm = now - started >= WARMUP_S * 1000;
    const probe = await askProbe<ProbeSample>(service, 'bench:sample', { collect: warm });
    onSample({
      atS: Math.round((now - started) / 1000),
      rssMiB: rssMiB(service.pid),
      heapUsedMiB: probe.memory.heapUsed / MiB,
      retainedMiB: warm ? probe.memory.heapUsed / MiB : undefined,
      loopP50Ms: probe.eventLoop.p50Ms,
      loopP99Ms: probe.eventLoop.p99Ms,
      loopMaxMs: probe.eventLoop.maxMs,
      requestsPerSecond: sorted.length / windowS,
      p50Ms: quantile(sorted, 0.5),
      p99Ms: quantile(sorted, 0.99),
      errors: windowErrorCount,
    });
    // Once warm: a full GC, then the sampling heap profiler until the end.
    if (!heapStart && warm) {
      heapStart = askProbe<HeapReply>(service, 'bench:heap-start');
    }
  }, WINDOW_S * 1000);
  try {
    await instance;
  } finally {
    clearInterval(timer);
  }
  const retained = heapStart ? await retainedHeap(service, await heapStart) : undefined;
  return { responses, errors: errors + windowErrors, statusCounts, retained };
}

interface SoakTotals {
  responses: number;
  errors: number;
  statusCounts: Record<number, number>;
  /** Measured when the soak outlasted its warm-up. */
  retained?: RetainedHeap;
}

interface HeapReply {
  memory: { heapUsed: number };
}

interface RetainedHeap {
  startMiB: number;
  endMiB: number;
  live: HeapSummary;
}

/** Heap used after a full GC at the warm-up's end and at the end, and what the growth holds. */
async function retainedHeap(service: Service, start: HeapReply): Promise<RetainedHeap> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'soak-heap-'));
  try {
    const file = path.join(dir, 'live.heapprofile');
    const end = await askProbe<HeapReply>(service, 'bench:heap-stop', { file }, 120_000);
    const profile = JSON.parse(readFileSync(file, 'utf8')) as SamplingHeapProfile;
    return {
      startMiB: start.memory.heapUsed / MiB,
      endMiB: end.memory.heapUsed / MiB,
      live: summarizeHeapProfile(profile),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function retainedLines(retained: RetainedHeap | undefined): string[] {
  if (!retained) return [];
  const { startMiB, endMiB, live } = retained;
  const mib = (bytes: number) => (bytes / MiB).toFixed(1);
  const pct = (share: number) => `${(share * 100).toFixed(1)} %`;
  return [
    '## Retained heap',
    '',
    `Heap used after a full GC (inspector HeapProfiler.collectGarbage): ${startMiB.toFixed(1)} MiB at the`,
    `end of the warm-up, ${endMiB.toFixed(1)} MiB at the end (${endMiB >= startMiB ? '+' : ''}${(endMiB - startMiB).toFixed(1)} MiB).`,
    `Of what was allocated after the warm-up, V8's sampling heap profiler finds ${mib(live.bytes)} MiB`,
    'still alive after the final GC, allocated by (nearest frames outside node core, allocation first):',
    '',
    '| package | live MiB | share |',
    '| --- | --- | --- |',
    ...live.packages.map(
      (entry) => `| ${entry.name} | ${mib(entry.bytes)} | ${pct(entry.share)} |`,
    ),
    '',
    '| allocation stack | live MiB | share |',
    '| --- | --- | --- |',
    ...live.stacks.map(
      (entry) =>
        `| \`${entry.name.replace(/\|/g, '\\|')}\` | ${mib(entry.bytes)} | ${pct(entry.share)} |`,
    ),
    '',
  ];
}

function render(
  header: string[],
  samples: Sample[],
  verdict: Verdict | null,
  totals: SoakTotals,
): string {
  const row = (s: Sample) =>
    `| ${s.atS} | ${s.rssMiB.toFixed(1)} | ${s.heapUsedMiB.toFixed(1)} | ` +
    `${s.retainedMiB?.toFixed(1) ?? '-'} | ${s.loopP50Ms.toFixed(2)} | ` +
    `${s.loopP99Ms.toFixed(2)} | ${s.loopMaxMs.toFixed(1)} | ${Math.round(s.requestsPerSecond)} | ` +
    `${s.p50Ms.toFixed(2)} | ${s.p99Ms.toFixed(2)} | ${s.errors} |`;
  const statuses = Object.entries(totals.statusCounts)
    .map(([status, count]) => `${status}×${count}`)
    .join(', ');
  const verdictLines = verdict
    ? [
        `- Heap after a full GC, trend over the windows after the ${WARMUP_S} s warm-up: ` +
          `${verdict.retained.startMiB.toFixed(1)} MiB to ${verdict.retained.endMiB.toFixed(1)} MiB ` +
          `(${verdict.retained.slopeMiBPerMinute.toFixed(2)} MiB a minute), growth ` +
          `**${(verdict.retained.growth * 100).toFixed(1)} %**`,
        `- RSS after the warm-up: ${verdict.rssMinMiB.toFixed(1)} to ${verdict.rssMaxMiB.toFixed(1)} MiB`,
        `- Verdict: ${verdict.retained.met ? '**flat**' : '**growing**'} ` +
          `(target: retained growth under ${MAX_RETAINED_GROWTH * 100} %)`,
      ]
    : ['- Verdict: not enough windows after the warm-up (run at least 2 minutes)'];
  return [
    '# Soak results',
    '',
    'Generated by `npm run soak` (bench/soak.ts). Mixed traffic: each list route, the redirect,',
    'single GETs, GraphQL lists and shortener POSTs, cycled by every connection',
    '(`soakMix` in bench/support/scenarios.ts). RSS is VmRSS of the server process from',
    '/proc; event-loop delay is measured inside the server (perf_hooks.monitorEventLoopDelay,',
    '10 ms resolution) by bench/support/serverProbe.cjs; req/s, p50 and p99 are of that window.',
    '',
    ...header,
    '',
    '## Verdict',
    '',
    ...verdictLines,
    `- ${totals.responses.toLocaleString('en-US')} answers (${statuses}), ${totals.errors} errors`,
    '',
    ...retainedLines(totals.retained),
    '',
    `## Every ${WINDOW_S} s`,
    '',
    '| s | RSS MiB | heap used MiB | retained MiB | loop p50 ms | loop p99 ms | loop max ms | req/s | p50 ms | p99 ms | errors |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...samples.map(row),
    '',
  ].join('\n');
}

interface SoakOptions {
  minutes: number;
  connections: number;
  target?: 'demo' | 'scale';
}

function readOptions(args: string[]): SoakOptions {
  const { values } = parseArgs({
    args,
    options: {
      minutes: { type: 'string', default: '10' },
      connections: { type: 'string', default: '20' },
      target: { type: 'string' },
    },
  });
  const { target } = values;
  if (target !== undefined && target !== 'demo' && target !== 'scale') {
    throw new Error(`--target must be demo or scale, got "${target}"`);
  }
  return {
    minutes: positiveNumber('minutes', values.minutes),
    connections: positiveNumber('connections', values.connections),
    target,
  };
}

async function main(): Promise<void> {
  const { minutes, connections, ...options } = readOptions(process.argv.slice(2));
  const scaleRows = await schemaRows(SCALE_SCHEMA);
  const scaleSeeded = Boolean(scaleRows && !scaleRows.notAtScale);
  const target = options.target ?? (scaleSeeded ? 'scale' : 'demo');
  if (target === 'scale' && !scaleSeeded) throw new Error(`${SCALE_SCHEMA} is not seeded`);
  const schema = target === 'scale' ? SCALE_SCHEMA : DEMO_SCHEMA;
  if (target === 'demo') await resetDemoSchema();

  const date = new Date();
  const machine = await describeMachine();
  const service = await startService({ schema, withProbe: true });
  const samples: Sample[] = [];
  let totals;
  try {
    totals = await soak(service, minutes, connections, (sample) => {
      samples.push(sample);
      console.log(
        `${String(sample.atS).padStart(4)} s  RSS ${sample.rssMiB.toFixed(1)} MiB  heap ${sample.heapUsedMiB.toFixed(1)}  ` +
          `loop p99 ${sample.loopP99Ms.toFixed(1)} ms  ${Math.round(sample.requestsPerSecond)} req/s  ` +
          `p99 ${sample.p99Ms.toFixed(1)} ms  errors ${sample.errors}`,
      );
    });
  } finally {
    await service.stop();
  }
  const header = [
    `- Date: ${date.toISOString()}`,
    `- Commit: ${currentCommit().label}`,
    ...machineLines(machine),
    `- Settings: ${minutes} min, ${connections} connections, target ${target} (schema \`${schema}\`)` +
      (target === 'demo' && !scaleSeeded ? ` (${SCALE_SCHEMA} not seeded)` : ''),
  ];
  const verdict = verdictOf(samples);
  const file = path.join(__dirname, 'results', 'soak.md');
  await writeMarkdown(file, render(header, samples, verdict, totals));
  console.log(
    verdict
      ? `retained heap growth after warm-up ${(verdict.retained.growth * 100).toFixed(1)} %: ` +
          (verdict.retained.met ? 'flat' : 'GROWING')
      : 'too short for a verdict',
  );
  console.log(`results: ${path.relative(process.cwd(), file)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
