// The markdown of a run: settings and machine, one table per target, the service beside the
// reference servers, growth, auth + quota, the redirect's click count, GraphQL equivalence, query
// plans and the CPU profile.
import { writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import type { RequestPlans } from './explain';
import type { LoadResult } from './load';
import { machineLines, type Commit, type Machine } from './machine';
import type { ProfileSummary } from './profile';
import type { Scenario } from './scenarios';
import { summaryOf, type SideBySide } from './sideBySide';
import { REFERENCES_ON_DEMO_ONLY, TARGETS, type TargetCheck, type Verdict } from './targets';

export type TargetName = 'demo' | 'scale';

export interface ClickCheck {
  urlCode: string;
  before: number;
  after: number;
  redirects: number;
  /** Distinct browsers that followed the link: each is one click (repeats in the window are not). */
  clients: number;
  exact: boolean;
}

export interface ScenarioOutcome {
  scenario: Scenario;
  result: LoadResult;
  /** requests/s over the ceiling's. */
  share: number;
  verdict: Verdict | null;
  clicks?: ClickCheck;
}

export interface AuthPairResult {
  path: string;
  withKey: LoadResult;
  withoutKey: LoadResult;
}

export interface TargetRun {
  target: TargetName;
  schema: string;
  /** How the data came to be, and its size. */
  dataNote: string;
  ceiling: LoadResult;
  /** yoga + Sofa + Pothos answering the ceiling's body: the most a list route can reach. */
  stackFloor: LoadResult;
  outcomes: ScenarioOutcome[];
  /** The service beside the peer and limit servers, per route. */
  sideBySide: SideBySide[];
  referenceChecks: TargetCheck[];
  /** The auth pairs measured with one connection (unloaded latency). */
  authSingleConnection: AuthPairResult[];
  graphqlDifferences: { route: string; difference: string | null }[];
  plans?: RequestPlans[];
  /** Where the full plans were written, from the repository root. */
  plansFile?: string;
  profile?: ProfileSummary;
}

export interface RunReport {
  date: Date;
  commit: Commit;
  machine: Machine;
  settings: {
    durationS: number;
    warmupS: number;
    connections: number;
    rounds: number;
    only?: string;
  };
  notes: string[];
  runs: TargetRun[];
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : '—');
const times = (ratio: number) => (Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : '—');
const rps = (value: number) => Math.round(value).toLocaleString('en-US');
const pct = (share: number) => `${(share * 100).toFixed(1)} %`;

function table(header: string[], rows: string[][]): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ];
}

function statusSummary(result: LoadResult): string {
  return Object.entries(result.statusCounts)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');
}

function verdictCell(verdict: Verdict | null): string {
  if (!verdict) return '—';
  return verdict.met ? 'yes' : `**no**: ${verdict.misses.join('; ')}`;
}

function referenceRow(name: string, result: LoadResult, ceiling: LoadResult): string[] {
  return [
    name,
    rps(result.requestsPerSecond),
    ms(result.p50Ms),
    ms(result.p99Ms),
    String(result.errors),
    pct(result.requestsPerSecond / ceiling.requestsPerSecond),
    '—',
    statusSummary(result),
  ];
}

function scenarioTable(run: TargetRun): string[] {
  const rows = [
    referenceRow('ceiling (bare node:http, fixed 20-item body)', run.ceiling, run.ceiling),
    referenceRow('stack floor (yoga + Sofa + Pothos, same body)', run.stackFloor, run.ceiling),
    ...run.outcomes.map(({ scenario, result, share, verdict }) => [
      `\`${scenario.name}\``,
      rps(result.requestsPerSecond),
      ms(result.p50Ms),
      ms(result.p99Ms),
      String(result.errors),
      pct(share),
      verdictCell(verdict),
      statusSummary(result),
    ]),
  ];
  return table(
    ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', '% of ceiling', 'target met?', 'statuses'],
    rows,
  );
}

function checkCell(met: boolean | null): string {
  return met === null ? '—' : met ? 'yes' : '**no**';
}

function referencesSection(run: TargetRun, settings: RunReport['settings']): string[] {
  if (run.target !== TARGETS.references.target) {
    return [
      `### The service beside the reference servers (${run.target})`,
      '',
      REFERENCES_ON_DEMO_ONLY,
      '',
    ];
  }
  if (!run.sideBySide.length) return [];
  const t = TARGETS.references;
  const rows = run.sideBySide.flatMap(({ route, outcomes }) =>
    outcomes.map((outcome) => {
      const summary = summaryOf(outcome);
      const label = [`\`GET ${route}\``, outcome.name];
      if (!summary) {
        const why = outcome.refusal ?? 'no rounds';
        return [...label, `not measured: ${why.replace(/\|/g, '\\|')}`, ...Array(11).fill('')];
      }
      const [low, high] = summary.requestsPerSecondRange;
      return [
        ...label,
        rps(summary.requestsPerSecond),
        `${rps(low)}-${rps(high)}`,
        ms(summary.p50Ms),
        ms(summary.p99Ms),
        ms(summary.cpuMsPerAnswer),
        ms(summary.postgresCpuMsPerAnswer),
        ms(summary.redisCpuMsPerAnswer),
        ms(summary.totalCpuMsPerAnswer),
        Math.round(summary.rssMiB).toString(),
        ms(summary.probeP50Ms),
        ms(summary.probeP99Ms),
        String(summary.errors),
      ];
    }),
  );
  const { rounds, warmupS, durationS, connections } = settings;
  return [
    `### The service beside the reference servers (${run.target})`,
    '',
    "- **peer**: Fastify 5 + the service's own Prisma client and adapter",
    '  (bench/references/peerServer.ts): the quota of the key and address in Redis (one script),',
    '  the key looked up by Prisma and remembered for 60 s, a count and a `findMany` with includes',
    "  loaded by joins (Prisma's `relationJoins`, as the service loads its relations), and an access",
    '  line (pino), as the service at its production log level. The targets are against it.',
    "- **default peer**: the same server with Prisma's default relation loading, a query per",
    '  relation. Context.',
    '- **limit**: `node:http` + `pg`, hand-written SQL (bench/references/limitServer.ts): the key,',
    '  the count, and the page with its relations as JSON, 3 statements. Context, not a target.',
    '- **cache hit**: the service alone with its response cache on, one key asking one URL.',
    '',
    ...comparedLines(run),
    'Every server runs as production runs it, on the same Node (the header), node alone: the',
    'service compiled by `npm run build` and started as `node dist/server.js`, the peer and the limit',
    'bundled by esbuild with the same flags.',
    '',
    `${rounds} rounds alternating service, peer, default peer, limit. Each turn: a ${warmupS} s warm-up; about ${durationS} s at`,
    `${connections} connections (closed loop, a fixed number of requests per connection, so none is in`,
    `flight at the end); then ${durationS} s at a fixed ${t.probeRatePerS} req/s (open loop: sent on schedule whatever`,
    'the answers, each timed from when it was due, so a server slower than the rate is charged',
    'for the queue). Figures are the medians of the rounds. CPU is user + system time from /proc',
    "over the closed loop, per answer: the server process's own, and beside it PostgreSQL's, every",
    'process of the server plus the backends that exited meanwhile (counted in the postmaster',
    "children's time), and Redis's; the total is the three together. PostgreSQL's and Redis's are",
    "the whole servers', so other clients of them on this machine count too.",
    '',
    ...table(
      [
        'route',
        'server',
        'req/s',
        'req/s, lowest-highest round',
        'p50 ms',
        'p99 ms',
        'CPU ms / answer',
        'PostgreSQL CPU ms / answer',
        'Redis CPU ms / answer',
        'total CPU ms / answer',
        'RSS MiB at the end',
        `p50 ms at ${t.probeRatePerS}/s`,
        `p99 ms at ${t.probeRatePerS}/s`,
        'errors',
      ],
      rows,
    ),
    '',
    ...table(
      ['route', 'target (the service)', 'measured', 'met?'],
      run.referenceChecks.map((check) => [
        `\`GET ${check.route}\``,
        check.target,
        check.measured,
        checkCell(check.met),
      ]),
    ),
    '',
  ];
}

/** Which answers the references gave byte for byte as the service, when any was compared. */
function comparedLines(run: TargetRun): string[] {
  const compared = run.sideBySide.find((measured) => measured.compared.length > 1)?.compared;
  if (!compared) return [];
  const otherQueries = compared.slice(1).map((path) => path.replace(/^[^?]*/, ''));
  return [
    "The references answer the service's bodies byte for byte, checked before measuring (the",
    `default query and \`${otherQueries.join('`, `')}\`; the service answers first, so the links it makes on`,
    'first need exist, then both are asked at the same moment, as campaign statuses follow the clock).',
    '',
  ];
}

function medianOf(run: TargetRun | undefined, kind: string, route: string): number | undefined {
  return run?.outcomes.find((o) => o.scenario.kind === kind && o.scenario.route === route)?.result
    .p50Ms;
}

function growthSection(runs: TargetRun[]): string[] {
  const demo = runs.find((run) => run.target === 'demo');
  const scale = runs.find((run) => run.target === 'scale');
  const lines = ['## Growth: median at scale over median on the demo data', ''];
  if (!demo || !scale) {
    return [...lines, 'Not measured: growth needs both targets in one run (`--target both`).', ''];
  }
  const routes = [
    ...new Set(
      scale.outcomes.filter((o) => o.scenario.kind === 'list').map((o) => o.scenario.route),
    ),
  ];
  const rows = routes.flatMap((route) =>
    (['list', 'page-500'] as const).flatMap((kind) => {
      const before = medianOf(demo, kind, route);
      const after = medianOf(scale, kind, route);
      if (before === undefined || after === undefined) return [];
      const ratio = after / before;
      const scaleFirstPage = medianOf(scale, 'list', route);
      const depth = kind === 'page-500' && scaleFirstPage ? times(after / scaleFirstPage) : '—';
      return [
        [
          `\`${route}\``,
          kind === 'list' ? 'first page' : 'page 500',
          ms(before),
          ms(after),
          times(ratio),
          // A load that answered nothing has no median.
          ratio <= TARGETS.growthRatio
            ? 'yes'
            : Number.isNaN(after)
              ? '**no**: no answer'
              : '**no**',
          depth,
        ],
      ];
    }),
  );
  return [
    ...lines,
    `Target: within ${TARGETS.growthRatio}x. Both medians are at the same connection count, so they`,
    'include queueing: the ratio is the ratio of per-request cost. Page 500 of the demo data is',
    'empty (it holds a few dozen rows per list), so it costs less than any page with rows; the last',
    'column compares like with like: page 500 over the first page, both at scale.',
    '',
    ...table(
      [
        'route',
        'page',
        'demo p50 ms',
        'scale p50 ms',
        'ratio',
        'within?',
        'scale: page 500 / first',
      ],
      rows,
    ),
    '',
  ];
}

function authSection(run: TargetRun, connections: number): string[] {
  const loaded = run.outcomes.filter((o) => o.scenario.kind === 'auth');
  const pairOf = (path: string) => ({
    withKey: loaded.find((o) => o.scenario.route === path && o.scenario.name.endsWith('with key')),
    without: loaded.find(
      (o) => o.scenario.route === path && o.scenario.name.endsWith('without key'),
    ),
  });
  const rows = run.authSingleConnection.map(({ path, withKey, withoutKey }) => {
    const delta = withKey.p50Ms - withoutKey.p50Ms;
    const pair = pairOf(path);
    const loadedDelta =
      pair.withKey && pair.without ? pair.withKey.result.p50Ms - pair.without.result.p50Ms : NaN;
    const costDelta =
      pair.withKey && pair.without
        ? 1000 / pair.withKey.result.requestsPerSecond -
          1000 / pair.without.result.requestsPerSecond
        : NaN;
    return [
      `\`GET ${path}\``,
      ms(withKey.p50Ms),
      ms(withoutKey.p50Ms),
      `**${ms(delta)}**`,
      delta < TARGETS.authDeltaMs ? 'yes' : '**no**',
      ms(loadedDelta),
      Number.isFinite(costDelta) ? costDelta.toFixed(3) : '—',
    ];
  });
  return [
    `### Auth + quota path (${run.target})`,
    '',
    `Target: under ${TARGETS.authDeltaMs} ms added to the median. Measured with 1 connection (the`,
    `latency one request gains); at ${connections} connections the median mostly measures the`,
    'queue (connections / throughput), shown beside it with the added service cost per request',
    '(1000 / req/s with key - 1000 / req/s without, ms of the whole machine).',
    '',
    `- \`GET /affiliate/bench-unrouted\` is the isolating pair: the facade answers 404 for an`,
    '  unrouted path under /affiliate/ before it authenticates, and both requests are counted (a key',
    "  per address, or the address's anonymous budget), so with a key the added work is the key's",
    '  verification.',
    '- `GET /affiliate/offers` is the cheapest routed path: 410 with a key (after auth and the',
    "  route's GraphQL execution), 401 without (the facade refuses before executing), so its delta",
    '  also holds a GraphQL execution.',
    '',
    ...table(
      [
        'pair',
        'p50 with key (1 conn)',
        'p50 without',
        'added ms',
        'under target?',
        `added p50 at ${connections} conn`,
        'added cost ms/request',
      ],
      rows,
    ),
    '',
  ];
}

function clickSection(run: TargetRun): string[] {
  const checks = run.outcomes.flatMap((o) => (o.clicks ? [o.clicks] : []));
  if (!checks.length) return [];
  return [
    `### Redirect click count (${run.target})`,
    '',
    'Measured phase run with a fixed number of requests per connection (nothing in flight at the',
    'end), each request from a browser of its own user agent; the count read with `pg` before and',
    'after. Exact: it rose by the number of distinct browsers (a repeat within the window is not a',
    'click, and every connection walks the same browsers).',
    '',
    ...table(
      ['urlCode', 'clickCount before', 'after', 'rise', 'browsers', '302 answers', 'exact?'],
      checks.map((check) => [
        check.urlCode,
        String(check.before),
        String(check.after),
        String(check.after - check.before),
        String(check.clients),
        String(check.redirects),
        check.exact ? 'yes' : '**no**',
      ]),
    ),
    '',
  ];
}

function equivalenceSection(run: TargetRun): string[] {
  if (!run.graphqlDifferences.length) return [];
  const differing = run.graphqlDifferences.filter((entry) => entry.difference);
  const verdict = differing.length
    ? differing.map((entry) => `\`${entry.route}\`: ${entry.difference}`).join('; ')
    : `all ${run.graphqlDifferences.length} list routes answer the same body on both`;
  return [
    `GraphQL equivalence (${run.target}): POST /graphql with the query Sofa runs for the route vs the`,
    `REST route, first page: ${verdict}.`,
    '',
  ];
}

const SCAN_NODE =
  /(Parallel )?(Seq Scan|Index Only Scan|Index Scan|Bitmap Heap Scan|Bitmap Index Scan)(?: Backward)?(?: using (\S+))? on (\S+).*?actual time=[\d.]+\.\.[\d.]+ rows=(\d+) loops=(\d+)/;

/** The scan nodes of a plan: which index or table, the rows each produced and filtered out. */
export function scanNodes(plan: string): string[] {
  // One block per plan node: its line and its detail lines, up to the next "->".
  const blocks = plan.split(/\n(?=\s*->)/);
  return blocks.flatMap((block) => {
    const match = SCAN_NODE.exec(block);
    if (!match) return [];
    const [, parallel, node, index, table, rows, loops] = match;
    const removed = /Rows Removed by (?:Filter|Index Recheck): (\d+)/.exec(block)?.[1];
    return [
      `${parallel ?? ''}${node} ${index ?? table} rows=${rows}${loops === '1' ? '' : `×${loops}`}` +
        (removed ? ` (${removed} filtered out${loops === '1' ? '' : ' per loop'})` : ''),
    ];
  });
}

/** What a statement is, briefly: `count "Order"`, `page "Order" LIMIT OFFSET`, `rows "OrderItem"`. */
export function statementSummary(query: string): string {
  const table = /\bFROM\s+(?:"[^"]+"\.)?("[^"]+")/i.exec(query)?.[1] ?? '?';
  if (/^\s*SELECT\s+COUNT\(/i.test(query)) return `count ${table}`;
  if (/^\s*(UPDATE|INSERT|DELETE)\b/i.test(query)) {
    const verb = query.trim().split(/\s+/)[0]!.toUpperCase();
    const target = /^\s*\w+\s+(?:INTO\s+|FROM\s+)?(?:"[^"]+"\.)?("[^"]+")/i.exec(query)?.[1] ?? '?';
    return `${verb.toLowerCase()} ${target}`;
  }
  // Prisma adds OFFSET to relation loads too; a page is what has a LIMIT.
  if (!/\bLIMIT\b/.test(query)) return `rows ${table}`;
  return `page ${table} LIMIT${/\bOFFSET\b/.test(query) ? ' OFFSET' : ''}`;
}

function plansSection(run: TargetRun): string[] {
  if (!run.plans) return [];
  const rows = run.plans.flatMap(({ label, status, statements }) =>
    statements.map((statement) => [
      `${label} (${status})`,
      `\`${statementSummary(statement.query)}\``,
      statement.durationMs.toFixed(3),
      scanNodes(statement.plan).join('<br>') || '—',
    ]),
  );
  return [
    `### Query plans (${run.target}), EXPLAIN ANALYZE of the statements the service ran`,
    '',
    `auto_explain (log_analyze, log_buffers) for a service instance connected as its own role; each`,
    `request's third call. Full plans: \`${run.plansFile}\` (written by each run, not committed).`,
    '',
    ...table(['request', 'statement', 'ms', 'scans (actual rows)'], rows),
    '',
  ];
}

export function plansDocument(run: TargetRun, header: string[]): string {
  const lines = [`# Query plans: ${run.target} (${run.schema})`, '', ...header, ''];
  for (const { label, path, status, statements } of run.plans ?? []) {
    lines.push(`## ${label}`, '', `\`GET ${path}\` answered ${status}.`, '');
    for (const statement of statements) {
      lines.push(
        `- ${statement.durationMs.toFixed(3)} ms: \`${statement.query.replace(/`/g, "'")}\``,
        '',
        '```',
        statement.plan,
        '```',
        '',
      );
    }
  }
  return lines.join('\n');
}

function profileSection(run: TargetRun): string[] {
  const profile = run.profile;
  if (!profile) return [];
  const busyShare = profile.busyMs / (profile.busyMs + profile.idleMs);
  return [
    `### CPU profile of the service (${run.target}): \`${profile.scenario}\``,
    '',
    `The slowest list route of this target, profiled by V8 in the server during the measured`,
    `load (${rps(profile.load.requestsPerSecond)} req/s, p50 ${ms(profile.load.p50Ms)} ms): the`,
    `server's main thread was busy ${pct(busyShare)} of the time. Self time, as a share of busy time:`,
    '',
    ...table(
      ['package / area', 'self ms', 'share'],
      profile.packages
        .slice(0, 12)
        .map((entry) => [entry.name, entry.ms.toFixed(0), pct(entry.share)]),
    ),
    '',
    ...table(
      ['function', 'self ms', 'share'],
      profile.functions
        .slice(0, 20)
        .map((entry) => [`\`${entry.name}\``, entry.ms.toFixed(0), pct(entry.share)]),
    ),
    '',
    ...allocationLines(profile),
  ];
}

/** What an answer allocates, from V8's sampling heap profiler (collected objects included). */
function allocationLines({ allocation: { heap, load } }: ProfileSummary): string[] {
  const perAnswer = (bytes: number) => (bytes / 1024 / load.responses).toFixed(1);
  return [
    `What an answer allocates, from a second load of the same settings under V8's sampling heap`,
    `profiler (${rps(load.requestsPerSecond)} req/s; a sample per ~32 KiB, collected ones kept):`,
    `${perAnswer(heap.bytes)} KiB per answer. By the nearest frame outside node core:`,
    '',
    ...table(
      ['package / area', 'KiB / answer', 'share'],
      heap.packages
        .slice(0, 8)
        .map((entry) => [entry.name, perAnswer(entry.bytes), pct(entry.share)]),
    ),
    '',
    ...table(
      ['allocation stack (allocation first)', 'KiB / answer', 'share'],
      heap.stacks
        .slice(0, 10)
        .map((entry) => [`\`${entry.name}\``, perAnswer(entry.bytes), pct(entry.share)]),
    ),
    '',
  ];
}

export function headerLines(report: RunReport): string[] {
  const { settings } = report;
  return [
    `- Date: ${report.date.toISOString()}`,
    `- Commit: ${report.commit.label}`,
    ...machineLines(report.machine),
    `- Settings: ${settings.connections} connections, ${settings.durationS} s per scenario after a ` +
      `${settings.warmupS} s warm-up (not recorded), autocannon 8 in the harness process; ` +
      `${settings.rounds} rounds beside the reference servers` +
      (settings.only ? `; only scenarios matching "${settings.only}"` : ''),
  ];
}

function referenceTargetLines(): string[] {
  const t = TARGETS.references;
  const routes = t.routes.map((route) => `\`GET ${route}\``).join(' and ');
  return [
    `- ${routes}, response cache off, beside the peer in the same run (demo data):`,
    `  - req/s at least ${times(t.minRateRatio)} the peer's;`,
    `  - p99 at a fixed ${t.probeRatePerS} req/s (open loop) no worse than the peer's;`,
    `  - the CPU of an answer, the service's, PostgreSQL's and Redis's together, at most ${times(t.maxTotalCpuRatio)} the peer's;`,
    `  - the service's resident memory at the end of the load at most ${times(t.maxRssRatio)} the peer's.`,
    `- a response-cache hit (the same key and URL): at most ${TARGETS.cacheHit.maxCpuMsPerAnswer} ms of the service's CPU per answer`,
    `- the cached mix: at least ${TARGETS.cachedMix.minLimitRatio.toFixed(1)}x the limit's req/s`,
  ];
}

export function renderReport(report: RunReport): string {
  const connections = report.settings.connections;
  const lines = [
    '# Benchmark results',
    '',
    'Generated by `npm run bench` (bench/run.ts); rerun to refresh. Latencies are per answer,',
    'measured by the harness (sub-millisecond); errors are transport errors and timeouts plus',
    'answers with a status the scenario does not expect.',
    '',
    ...headerLines(report),
    ...report.notes.map((note) => `- Note: ${note}`),
    '',
    '## Targets',
    '',
    ...referenceTargetLines(),
    `- the redirect: at least ${TARGETS.redirect.minCeilingShare * 100} % of the ceiling, click count exact`,
    `- auth + quota: under ${TARGETS.authDeltaMs} ms added to the median`,
    `- growth: median at scale within ${TARGETS.growthRatio}x of the demo median, first page and page 500`,
    '',
    'The **ceiling** (bare `node:http`, a fixed 20-item body) and the **stack floor** (yoga + Sofa +',
    'Pothos serving that body from memory: bench/references/stackFloorServer.ts, no key, quota,',
    "facade or database) are context: a list route of the service does all of the floor's work and",
    "more, so its share of the ceiling cannot exceed the floor's. The list routes' targets are",
    'against the **peer**, a server answering the same bodies from the same data; the **limit**,',
    'hand-written SQL answering them too, is context.',
    '',
  ];
  for (const run of report.runs) {
    lines.push(`## Target: ${run.target} (schema \`${run.schema}\`)`, '', run.dataNote, '');
    lines.push(...scenarioTable(run), '');
    lines.push(...equivalenceSection(run));
    lines.push(...referencesSection(run, report.settings));
  }
  lines.push(...growthSection(report.runs));
  for (const run of report.runs) {
    lines.push(
      ...authSection(run, connections),
      ...clickSection(run),
      ...plansSection(run),
      ...profileSection(run),
    );
  }
  return lines.join('\n').replace(/\n{3,}/g, '\n\n') + '\n';
}

/** Writes generated markdown as prettier would format it, so `npm run lint` accepts it. */
export async function writeMarkdown(file: string, markdown: string): Promise<void> {
  const options = (await resolveConfig(file)) ?? {};
  writeFileSync(file, await format(markdown, { ...options, filepath: file }));
}
