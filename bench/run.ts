// The benchmark harness: the service on PostgreSQL + Redis, loaded by autocannon scenario by
// scenario beside the machine's ceiling and the stack's floor (context), on the two affiliate
// lists side by side with the reference servers (bench/references: the peer, Fastify + Prisma,
// which holds the list-route targets; the limit, node:http + pg, context), and on a response-cache
// hit. Every server is compiled and runs on the production Node, node alone (support/build.ts).
// Writes bench/results/latest.md, and under bench/results/local/ (not committed) a copy of it, the
// query plans and the servers' bundles. On demand.
//
//   npm run bench                                   # demo and scale (scale if bench_scale is seeded)
//   npm run bench -- --target demo --duration 5 --only orders
//
// Options: --target demo|scale|both (default both), --duration S per scenario and per open-loop
// probe (10), --warmup S (2), --connections N (50), --rounds N beside the references (3),
// --only <substring of scenario names; "cache hit" for the cache hits alone>, --no-explain (skip
// the query plans), --no-profile (skip the CPU profile), --pg-log <file>.
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  clickCountOf,
  DEMO_SCHEMA,
  issueAffiliateKeys,
  resetDemoSchema,
  SCALE_SCHEMA,
  schemaRows,
  type SchemaRows,
} from './support/database';
import { capturePlans, defaultLogFile, type ExplainRequest } from './support/explain';
import { positiveNumber } from './support/cli';
import { resolveFixtures } from './support/fixtures';
import { differenceFromRest } from './support/graphqlEquivalent';
import {
  runLoad,
  type LoadRequest,
  type LoadResult,
  type LoadSettings,
  type LoadSpec,
} from './support/load';
import { currentCommit, describeMachine } from './support/machine';
import {
  REPO_ROOT,
  startCeilingServer,
  startLimitServer,
  startPeerServer,
  startService,
  startStackFloorServer,
  type FixedBodyServer,
  type Service,
} from './support/processes';
import { profileScenario } from './support/profile';
import {
  headerLines,
  plansDocument,
  renderReport,
  type AuthPairResult,
  type RunReport,
  type ScenarioOutcome,
  type TargetName,
  type TargetRun,
  writeMarkdown,
} from './support/report';
import { authPairs, buildScenarios, keyFor, listRoutes, type Scenario } from './support/scenarios';
import {
  measureSideBySide,
  summaryOf,
  type Contender,
  type ContenderName,
  type Round,
  type SideBySide,
  type SideBySideSettings,
  type Workload,
} from './support/sideBySide';
import {
  cacheHitCheck,
  cachedMixCheck,
  referenceChecks,
  TARGETS,
  verdictOf,
  type TargetCheck,
} from './support/targets';
import { DEMO_USERS } from '../src/auth/demoIdentities';

const RESULTS_DIR = path.join(__dirname, 'results');
/** Each run's copy and its query plans: kept on this machine, not committed (.gitignore). */
const LOCAL_DIR = path.join(RESULTS_DIR, 'local');

interface Options {
  targets: TargetName[];
  durationS: number;
  warmupS: number;
  connections: number;
  rounds: number;
  only?: string;
  explain: boolean;
  profile: boolean;
  pgLog?: string;
}

function readOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    allowNegative: true,
    options: {
      target: { type: 'string', default: 'both' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '3' },
      only: { type: 'string' },
      explain: { type: 'boolean', default: true },
      profile: { type: 'boolean', default: true },
      'pg-log': { type: 'string' },
    },
  });
  const { target } = values;
  if (target !== 'demo' && target !== 'scale' && target !== 'both') {
    throw new Error(`--target must be demo, scale or both, got "${target}"`);
  }
  return {
    targets: target === 'both' ? ['demo', 'scale'] : [target],
    durationS: positiveNumber('duration', values.duration),
    warmupS: positiveNumber('warmup', values.warmup),
    connections: positiveNumber('connections', values.connections),
    rounds: positiveNumber('rounds', values.rounds),
    only: values.only,
    explain: values.explain,
    profile: values.profile,
    pgLog: values['pg-log'],
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function selected(name: string, only: string | undefined): boolean {
  return !only || name.toLowerCase().includes(only.toLowerCase());
}

function progress(target: string, name: string, result: LoadResult): void {
  console.log(
    `[${target}] ${name.padEnd(72)} ${Math.round(result.requestsPerSecond).toString().padStart(6)} req/s` +
      `  p50 ${result.p50Ms.toFixed(2)}  p99 ${result.p99Ms.toFixed(2)} ms  errors ${result.errors}`,
  );
}

const SETTLED_MS = 50;

/**
 * Waits until the service has worked off what the previous scenario left queued (requests still
 * running after autocannon hung up): /readyz runs SELECT 1 through the same pool, so it answers
 * quickly only once the pool is free. Up to two minutes.
 */
async function settle(baseUrl: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}/readyz`).catch(() => null);
    await response?.arrayBuffer();
    if (response?.ok && performance.now() - started < SETTLED_MS) return;
    await sleep(250);
  }
}

/** Warm-up (not recorded), then the measured load. */
async function measure(baseUrl: string, spec: LoadSpec, options: Options): Promise<LoadResult> {
  const settings: LoadSettings = { connections: options.connections, durationS: options.warmupS };
  await runLoad(baseUrl, spec, settings);
  return runLoad(baseUrl, spec, { ...settings, durationS: options.durationS });
}

const BROWSER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/**
 * The spec's request as sent by many browsers, each its own client to the click counter and at an
 * address of its own (X-Forwarded-For; the service trusts it): one address's clients count only
 * up to a bound.
 */
function browsers(spec: LoadSpec, phase: string): LoadSpec {
  const [request] = spec.requests;
  const requests = Array.from({ length: 1_000 }, (_, n) => ({
    ...request!,
    headers: {
      ...request!.headers,
      'user-agent': `${BROWSER_AGENT} ${phase}/${n}`,
      'x-forwarded-for': `198.51.${Math.floor(n / 250)}.${n % 250}`,
    },
  }));
  return { ...spec, requests };
}

let redirectScenarios = 0;

/**
 * The redirect, with its click count checked: the measured phase makes a fixed number of requests
 * per connection (sized from the warm-up's rate), so none is in flight when the count is read.
 */
async function measureRedirect(
  baseUrl: string,
  schema: string,
  scenario: Scenario,
  options: Options,
): Promise<Pick<ScenarioOutcome, 'result' | 'clicks'>> {
  const { connections, durationS, warmupS } = options;
  // Visitors of their own for each redirect scenario: a visitor of the previous one is a repeat.
  redirectScenarios += 1;
  const warm = await runLoad(baseUrl, browsers(scenario.spec, `visitor-a${redirectScenarios}`), {
    connections,
    durationS: warmupS,
  });
  // The warm-up's last requests may still be counting their clicks.
  await settle(baseUrl);
  const urlCode = scenario.clickCode!;
  const before = await clickCountOf(schema, urlCode);
  const requestsPerConnection = Math.max(
    1,
    Math.round((warm.requestsPerSecond * durationS) / connections),
  );
  const measured = browsers(scenario.spec, `visitor-b${redirectScenarios}`);
  const result = await runLoad(baseUrl, measured, {
    connections,
    durationS,
    requestsPerConnection,
  });
  const after = await clickCountOf(schema, urlCode);
  const redirects = result.statusCounts[302] ?? 0;
  // Every connection walks the same browsers in order: the first `requestsPerConnection` of them
  // reached the link, each counted once (a repeat within the window is not a click).
  const clients = Math.min(measured.requests.length, requestsPerConnection);
  return {
    result,
    clicks: { urlCode, before, after, redirects, clients, exact: after - before === clients },
  };
}

/** The auth pairs again with one connection: the latency a single request gains. */
async function measureAuthUnloaded(baseUrl: string, options: Options): Promise<AuthPairResult[]> {
  const single = { ...options, connections: 1 };
  const scenarios = authPairs();
  const results: AuthPairResult[] = [];
  for (let i = 0; i < scenarios.length; i += 2) {
    const withKey = await measure(baseUrl, scenarios[i]!.spec, single);
    const withoutKey = await measure(baseUrl, scenarios[i + 1]!.spec, single);
    results.push({ path: scenarios[i]!.route, withKey, withoutKey });
  }
  return results;
}

function dataNoteOf(target: TargetName, seedLine: string | null, rows: SchemaRows | null): string {
  const estimates = rows
    ? Object.entries(rows.estimates)
        .map(([table, count]) => `${table} ≈ ${count.toLocaleString('en-US')}`)
        .join(', ')
    : 'unknown';
  return target === 'demo'
    ? `Demo data, dropped and seeded fresh for this run (\`scripts/seed.ts\`): ${seedLine}.`
    : `Scale data (\`npm run seed:scale\`), planner row estimates: ${estimates}.`;
}

/** The plans worth reading: each list route's first page, page 500 and filter families. */
function explainRequests(scenarios: Scenario[]): ExplainRequest[] {
  const explained = new Set(['list', 'page-500', 'filter']);
  return scenarios
    .filter((scenario) => explained.has(scenario.kind))
    .map((scenario) => {
      const request = scenario.spec.requests[0]!;
      return {
        label: scenario.name,
        path: request.path,
        apiKey: request.headers?.['x-api-key'] ?? keyFor(request.path),
      };
    });
}

interface FixedBodyServers {
  ceiling: FixedBodyServer;
  stackFloor: FixedBodyServer;
}

/** The ceiling's or the floor's body under the same load as the scenarios. */
async function measureFixedBody(server: FixedBodyServer, options: Options): Promise<LoadResult> {
  return measure(
    server.baseUrl,
    { requests: [{ method: 'GET', path: server.path }], expected: [200] },
    options,
  );
}

function roundProgress(target: string, route: string, name: ContenderName, round: Round): void {
  const { load, cpuMsPerAnswer, postgresCpuMsPerAnswer, redisCpuMsPerAnswer, rssMiB, probe } =
    round;
  console.log(
    `[${target}] GET ${route} ${name.padEnd(12)} ${Math.round(load.requestsPerSecond).toString().padStart(6)} req/s` +
      `  p50 ${load.p50Ms.toFixed(2)}  p99 ${load.p99Ms.toFixed(2)} ms` +
      `  CPU ${cpuMsPerAnswer.toFixed(2)} ms/answer, PostgreSQL ${postgresCpuMsPerAnswer.toFixed(2)},` +
      ` Redis ${redisCpuMsPerAnswer.toFixed(3)}` +
      `  RSS ${Math.round(rssMiB)} MiB` +
      `  at ${TARGETS.references.probeRatePerS}/s: p50 ${probe.p50Ms.toFixed(2)}  p99 ${probe.p99Ms.toFixed(2)} ms` +
      `  errors ${load.errors + probe.errors}`,
  );
}

function printCheck(target: string, check: TargetCheck): void {
  const verdict = check.met === null ? 'not measured' : check.met ? 'met' : 'NOT met';
  console.log(
    `[${target}] target GET ${check.route}: ${check.target}: ${check.measured}, ${verdict}`,
  );
}

function sideBySideSettings(options: Options): SideBySideSettings {
  return {
    connections: options.connections,
    durationS: options.durationS,
    warmupS: options.warmupS,
    rounds: options.rounds,
    probeRatePerS: TARGETS.references.probeRatePerS,
  };
}

/** The reference routes asked by several keys of two affiliates, at several pages and limits. */
async function cachedMixWorkload(schema: string): Promise<Workload> {
  const { keysPerAffiliate, pages, limits } = TARGETS.cachedMix;
  const { routes } = TARGETS.references;
  const keys = await issueAffiliateKeys(
    schema,
    [DEMO_USERS.affiliate, DEMO_USERS.secondAffiliate],
    keysPerAffiliate,
  );
  const load = routes.flatMap((route) =>
    keys.flatMap((key) =>
      pages.flatMap((page) =>
        limits.map((limit) => ({
          method: 'GET' as const,
          path: `${route}?page=${page}&limit=${limit}`,
          headers: { 'x-api-key': key },
        })),
      ),
    ),
  );
  return {
    route:
      `${routes.join(' + ')}: ${load.length} requests (${keys.length} keys, pages ` +
      `${pages.join(', ')}, limits ${limits.join(', ')}), cache on`,
    load,
    compared: load,
  };
}

type Measured = Pick<TargetRun, 'sideBySide' | 'referenceChecks'>;

/** A reference route's default page, asked with the demo key of its surface. */
function firstPageRequest(route: string): LoadRequest {
  return { method: 'GET', path: route, headers: { 'x-api-key': keyFor(route) } };
}

const summaryIn = (measured: SideBySide, name: ContenderName) =>
  summaryOf(measured.outcomes.find((outcome) => outcome.name === name));

/** The cached service alone, one key asking one URL of each selected reference route. */
async function measureCacheHits(
  target: TargetName,
  service: Service,
  routes: string[],
  options: Options,
): Promise<Measured> {
  const result: Measured = { sideBySide: [], referenceChecks: [] };
  for (const route of routes) {
    const request = firstPageRequest(route);
    const workload = {
      route: `${route}, one key and URL, cache on`,
      load: [request],
      compared: [],
    };
    const measured = await measureSideBySide(
      [{ name: 'service', server: service }],
      workload,
      sideBySideSettings(options),
      (name, round) => roundProgress(target, `${route} cache hit`, name, round),
    );
    const check = cacheHitCheck(route, summaryIn(measured, 'service'));
    printCheck(target, check);
    result.sideBySide.push(measured);
    result.referenceChecks.push(check);
  }
  return result;
}

/** The cached service beside the limit, on a repeating mix. */
async function measureCachedMix(
  target: TargetName,
  schema: string,
  service: Service,
  options: Options,
): Promise<Measured> {
  const workload = await cachedMixWorkload(schema);
  const limit = await startLimitServer(schema);
  try {
    const contenders: Contender[] = [
      { name: 'service', server: service },
      { name: 'limit', server: limit },
    ];
    const measured = await measureSideBySide(
      contenders,
      workload,
      sideBySideSettings(options),
      (name, round) => roundProgress(target, 'cached mix', name, round),
    );
    const check = cachedMixCheck(
      workload.route,
      summaryIn(measured, 'service'),
      summaryIn(measured, 'limit'),
    );
    printCheck(target, check);
    return { sideBySide: [measured], referenceChecks: [check] };
  } finally {
    await limit.stop();
  }
}

/** The service with its response cache on (the default TTL): cache hits, then the cached mix. */
async function measureWithCacheOn(
  target: TargetName,
  schema: string,
  options: Options,
): Promise<Measured> {
  const hitRoutes = TARGETS.references.routes.filter((route) =>
    selected(`cache hit GET ${route}`, options.only),
  );
  const mix = selected('cached mix', options.only);
  if (target !== TARGETS.references.target || (!hitRoutes.length && !mix)) {
    return { sideBySide: [], referenceChecks: [] };
  }
  const service = await startService({
    schema,
    responseCacheTtlSeconds: TARGETS.cachedMix.ttlSeconds,
  });
  try {
    const hits = await measureCacheHits(target, service, hitRoutes, options);
    const mixed = mix
      ? await measureCachedMix(target, schema, service, options)
      : { sideBySide: [], referenceChecks: [] };
    return {
      sideBySide: [...hits.sideBySide, ...mixed.sideBySide],
      referenceChecks: [...hits.referenceChecks, ...mixed.referenceChecks],
    };
  } finally {
    await service.stop();
  }
}

/** The service beside the peer and the limit on the target routes that `--only` selects. */
async function measureBesideReferences(
  target: TargetName,
  schema: string,
  service: Service,
  options: Options,
): Promise<Measured> {
  const routes = TARGETS.references.routes.filter((route) =>
    selected(`GET ${route}`, options.only),
  );
  if (target !== TARGETS.references.target || !routes.length) {
    return { sideBySide: [], referenceChecks: [] };
  }
  const [peer, defaultPeer, limit] = await Promise.all([
    startPeerServer(schema, 'join'),
    startPeerServer(schema, 'query'),
    startLimitServer(schema),
  ]);
  const contenders: Contender[] = [
    { name: 'service', server: service },
    { name: 'peer', server: peer },
    { name: 'default peer', server: defaultPeer },
    { name: 'limit', server: limit },
  ];
  const settings = sideBySideSettings(options);
  const result: Measured = { sideBySide: [], referenceChecks: [] };
  try {
    for (const route of routes) {
      const request = firstPageRequest(route);
      const workload = {
        route,
        load: [request],
        compared: [request, { ...request, path: `${route}?page=2` }],
      };
      const measured = await measureSideBySide(contenders, workload, settings, (name, round) =>
        roundProgress(target, route, name, round),
      );
      const checks = referenceChecks(
        route,
        summaryIn(measured, 'service'),
        summaryIn(measured, 'peer'),
      );
      checks.forEach((check) => printCheck(target, check));
      result.sideBySide.push(measured);
      result.referenceChecks.push(...checks);
    }
  } finally {
    await Promise.all([peer.stop(), defaultPeer.stop(), limit.stop()]);
  }
  return result;
}

async function runTarget(
  target: TargetName,
  fixedBody: FixedBodyServers,
  options: Options,
): Promise<TargetRun> {
  const schema = target === 'demo' ? DEMO_SCHEMA : SCALE_SCHEMA;
  const seedLine = target === 'demo' ? await resetDemoSchema() : null;
  const dataNote = dataNoteOf(target, seedLine, await schemaRows(schema));
  console.log(`[${target}] ${dataNote}`);

  const service = await startService({ schema });
  const outcomes: ScenarioOutcome[] = [];
  let scenarios: Scenario[];
  let ceilingResult: LoadResult;
  let stackFloorResult: LoadResult;
  let authSingleConnection: AuthPairResult[] = [];
  let graphqlDifferences: TargetRun['graphqlDifferences'];
  let besideReferences: Measured;
  try {
    const fixtures = await resolveFixtures(service.baseUrl);
    scenarios = buildScenarios(fixtures).filter((scenario) =>
      selected(scenario.name, options.only),
    );
    // One route at a time: a campaign list makes Url offers' links on first need, which would
    // change a short-link list read at the same time between its REST and GraphQL answers.
    graphqlDifferences = [];
    for (const route of listRoutes()) {
      const difference = await differenceFromRest(service.baseUrl, route, keyFor(route.path));
      graphqlDifferences.push({ route: route.path, difference });
    }
    ceilingResult = await measureFixedBody(fixedBody.ceiling, options);
    progress(target, 'ceiling', ceilingResult);
    stackFloorResult = await measureFixedBody(fixedBody.stackFloor, options);
    progress(target, 'stack floor', stackFloorResult);
    besideReferences = await measureBesideReferences(target, schema, service, options);
    for (const scenario of scenarios) {
      const measured =
        scenario.kind === 'redirect'
          ? await measureRedirect(service.baseUrl, schema, scenario, options)
          : { result: await measure(service.baseUrl, scenario.spec, options) };
      const share = measured.result.requestsPerSecond / ceilingResult.requestsPerSecond;
      const verdict = verdictOf(
        scenario.kind,
        measured.result,
        ceilingResult.requestsPerSecond,
        measured.clicks?.exact,
      );
      outcomes.push({ scenario, ...measured, share, verdict });
      progress(target, scenario.name, measured.result);
      await settle(service.baseUrl);
    }
    if (scenarios.some((scenario) => scenario.kind === 'auth')) {
      authSingleConnection = await measureAuthUnloaded(service.baseUrl, options);
    }
  } finally {
    await service.stop();
  }
  const cacheOn = await measureWithCacheOn(target, schema, options);

  const run: TargetRun = {
    target,
    schema,
    dataNote,
    ceiling: ceilingResult,
    stackFloor: stackFloorResult,
    outcomes,
    sideBySide: [...besideReferences.sideBySide, ...cacheOn.sideBySide],
    referenceChecks: [...besideReferences.referenceChecks, ...cacheOn.referenceChecks],
    authSingleConnection,
    graphqlDifferences,
  };
  const requests = explainRequests(scenarios);
  if (options.explain && requests.length) {
    const logFile = options.pgLog ?? (await defaultLogFile());
    run.plans = await capturePlans(schema, requests, logFile);
    run.plansFile = path.relative(REPO_ROOT, path.join(LOCAL_DIR, `plans-${target}.md`));
    console.log(`[${target}] plans of ${requests.length} requests captured`);
  }
  const lists = outcomes.filter((o) => o.scenario.kind === 'list');
  if (options.profile && lists.length) {
    const slowest = lists.reduce((a, b) =>
      b.result.requestsPerSecond < a.result.requestsPerSecond ? b : a,
    );
    run.profile = await profileScenario(schema, slowest.scenario, {
      connections: options.connections,
      durationS: options.durationS,
    });
    console.log(`[${target}] CPU profile of ${slowest.scenario.name} taken`);
  }
  return run;
}

function timestamp(date: Date): string {
  return date.toISOString().slice(0, 16).replace(/:/g, '');
}

/** How busy the machine is: other processes' load slows every server measured. */
function loadNote(when: string): string {
  const [load1 = 0] = os.loadavg();
  const cores = os.cpus().length;
  return (
    `1-minute load average ${when}: ${load1.toFixed(2)} on ${cores} cores` +
    (load1 > cores / 2
      ? ': other processes were busy on this machine, so absolute numbers understate every server' +
        ' (servers measured side by side share that load)'
      : '')
  );
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const notes = [loadNote('at the start')];
  if (options.targets.includes('scale')) {
    const rows = await schemaRows(SCALE_SCHEMA);
    const why = rows ? rows.notAtScale : 'it does not exist';
    if (why) {
      options.targets = options.targets.filter((target) => target !== 'scale');
      notes.push(
        `schema ${SCALE_SCHEMA} is not usable (${why}; run \`npm run seed:scale\`): the scale ` +
          'target was not run, so the full-scale targets and growth are not measured',
      );
      console.warn(notes.at(-1));
    }
  }
  if (!options.targets.length) throw new Error('no target to run');

  const date = new Date();
  const report: RunReport = {
    date,
    commit: currentCommit(),
    machine: await describeMachine(),
    settings: {
      durationS: options.durationS,
      warmupS: options.warmupS,
      connections: options.connections,
      rounds: options.rounds,
      only: options.only,
    },
    notes,
    runs: [],
  };
  const fixedBody = {
    ceiling: await startCeilingServer(),
    stackFloor: await startStackFloorServer(),
  };
  try {
    for (const target of options.targets) {
      report.runs.push(await runTarget(target, fixedBody, options));
    }
  } finally {
    await Promise.all([fixedBody.ceiling.stop(), fixedBody.stackFloor.stop()]);
  }

  notes.push(loadNote('at the end'));
  const markdown = renderReport(report);
  mkdirSync(LOCAL_DIR, { recursive: true });
  await writeMarkdown(path.join(RESULTS_DIR, 'latest.md'), markdown);
  const copy = path.join(LOCAL_DIR, `${timestamp(date)}-${report.commit.short}.md`);
  await writeMarkdown(copy, markdown);
  for (const run of report.runs) {
    if (run.plansFile) {
      const plans = plansDocument(run, headerLines(report));
      await writeMarkdown(path.join(REPO_ROOT, run.plansFile), plans);
    }
  }
  console.log(`results: bench/results/latest.md, ${path.relative(REPO_ROOT, copy)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
