// The bench's measures (bench/support): CPU time from /proc, the PostgreSQL server's share of it,
// the list-route and cache-hit targets, and the reference servers built with the service's flags.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { esbuildFlags } from '../../bench/support/build';
import {
  parseProcStat,
  postgresTicks,
  residentMiBOf,
  type ProcStat,
} from '../../bench/support/cpuTime';
import { sameAnswer, type ContenderSummary } from '../../bench/support/sideBySide';
import { cacheHitCheck, referenceChecks } from '../../bench/support/targets';

describe('parseProcStat', () => {
  test('reads the parent and the times after a command name holding spaces and parentheses', () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime ...
    const line =
      '4242 (postgres: a (b) c) S 2212 2212 2212 0 -1 4194304 10 0 0 0 150 25 900 80 20 0 1 0';
    expect(parseProcStat(line)).toEqual({
      pid: 4242,
      command: 'postgres: a (b) c',
      parentPid: 2212,
      ownTicks: 175,
      reapedChildrenTicks: 980,
    });
  });

  test('reads this process as /proc shows it', () => {
    const stat = parseProcStat(readFileSync('/proc/self/stat', 'utf8'));
    expect(stat.pid).toBe(process.pid);
    expect(stat.parentPid).toBe(process.ppid);
    expect(stat.ownTicks).toBeGreaterThan(0);
  });
});

describe('postgresTicks', () => {
  const stat = (pid: number, parentPid: number, ownTicks: number, reaped = 0): ProcStat => ({
    pid,
    command: 'postgres',
    parentPid,
    ownTicks,
    reapedChildrenTicks: reaped,
  });

  test("the postmaster, its live children, and the children it reaped; not another server's", () => {
    const processes = [
      stat(1, 0, 99_999),
      stat(100, 1, 7, 1_000),
      stat(101, 100, 30),
      stat(102, 100, 40),
      stat(200, 1, 5, 600),
      stat(201, 200, 1_000),
    ];
    expect(postgresTicks(100, processes)).toBe(7 + 1_000 + 30 + 40);
  });

  test('a backend that exited between two readings still counts, in the reaped time', () => {
    const before = [stat(100, 1, 7, 1_000), stat(101, 100, 30), stat(102, 100, 40)];
    const after = [stat(100, 1, 8, 1_000 + 55), stat(101, 100, 45)];
    expect(postgresTicks(100, after) - postgresTicks(100, before)).toBe(1 + 55 + 15 - 40);
  });

  test('refuses a postmaster that is gone', () => {
    expect(() => postgresTicks(100, [stat(101, 100, 30)])).toThrow('the postmaster (100) is gone');
  });
});

function summary(figures: Partial<ContenderSummary>): ContenderSummary {
  return {
    requestsPerSecond: 1_000,
    requestsPerSecondRange: [1_000, 1_000],
    p50Ms: 1,
    p99Ms: 2,
    cpuMsPerAnswer: 1,
    postgresCpuMsPerAnswer: 0.5,
    redisCpuMsPerAnswer: 0.1,
    totalCpuMsPerAnswer: 1.6,
    rssMiB: 200,
    probeP50Ms: 1,
    probeP99Ms: 10,
    errors: 0,
    ...figures,
  };
}

describe('referenceChecks: the service beside the peer', () => {
  const route = '/affiliate/campaigns';
  const verdicts = (service: Partial<ContenderSummary>, peer: Partial<ContenderSummary> = {}) =>
    referenceChecks(route, summary(service), summary(peer)).map((check) => check.met);

  test('at the bounds, every target is met', () => {
    expect(
      verdicts({
        requestsPerSecond: 1250,
        probeP99Ms: 10,
        totalCpuMsPerAnswer: 1.2,
        rssMiB: 300,
      }),
    ).toEqual([true, true, true, true]);
  });

  test('past each bound, that target alone is missed', () => {
    const met = { requestsPerSecond: 1250, totalCpuMsPerAnswer: 1.2 };
    expect(verdicts({ ...met, requestsPerSecond: 1249 })).toEqual([false, true, true, true]);
    expect(verdicts({ ...met, probeP99Ms: 10.1 })).toEqual([true, false, true, true]);
    expect(verdicts({ ...met, totalCpuMsPerAnswer: 1.21 })).toEqual([true, true, false, true]);
    expect(verdicts({ ...met, rssMiB: 301 })).toEqual([true, true, true, false]);
  });

  test('reads the resident memory of this process', () => {
    const rss = residentMiBOf(process.pid);
    expect(rss).toBeGreaterThan(10);
    expect(rss * 1024 * 1024).toBeLessThanOrEqual(process.memoryUsage.rss() * 1.1);
  });

  test('says the ratio and both figures', () => {
    const [rate, , cpu] = referenceChecks(
      route,
      summary({ totalCpuMsPerAnswer: 1.62, requestsPerSecond: 520 }),
      summary({ totalCpuMsPerAnswer: 1.05, requestsPerSecond: 818 }),
    );
    expect(cpu).toMatchObject({
      target: "CPU per answer (server + PostgreSQL + Redis) ≤ 0.75x the peer's",
      measured: '1.54x (1.62 / 1.05 ms)',
      met: false,
    });
    expect(rate).toMatchObject({
      target: "req/s ≥ 1.25x the peer's",
      measured: '0.64x (520 / 818 req/s)',
      met: false,
    });
  });

  test('a peer not measured, or one that answered nothing, leaves every target unmeasured', () => {
    for (const peer of [null, summary({ requestsPerSecond: 0 })]) {
      const [rate] = referenceChecks(route, summary({}), peer);
      expect(rate).toMatchObject({ measured: 'not measured', met: null });
    }
    expect(referenceChecks(route, summary({}), null).map((check) => check.met)).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('cacheHitCheck', () => {
  test('at most 0.25 ms of service CPU per answer', () => {
    expect(cacheHitCheck('/affiliate/orders', summary({ cpuMsPerAnswer: 0.25 }))).toMatchObject({
      measured: '0.250 ms',
      met: true,
    });
    expect(cacheHitCheck('/affiliate/orders', summary({ cpuMsPerAnswer: 0.26 })).met).toBe(false);
    expect(cacheHitCheck('/affiliate/orders', null).met).toBeNull();
  });
});

describe('esbuildFlags: the reference servers are bundled as the service is built', () => {
  test("package.json's build script, without its entry points and output folder", () => {
    const { scripts } = JSON.parse(
      readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'),
    ) as { scripts: { build: string } };
    const flags = esbuildFlags(scripts.build);
    expect(flags).toEqual(expect.arrayContaining(['--bundle', '--platform=node', '--format=cjs']));
    // The service is bundled whole but for its runtime dependencies: the references alike.
    expect(flags).toContain('--external:@electric-sql/pglite');
    expect(flags.every((flag) => flag.startsWith('--'))).toBe(true);
    expect(flags.some((flag) => flag.startsWith('--outdir='))).toBe(false);
  });

  test('refuses a script it cannot reuse word by word', () => {
    expect(() => esbuildFlags('tsc -p .')).toThrow('not a plain esbuild command');
    expect(() => esbuildFlags('esbuild src/server.ts --define:X="a b"')).toThrow(
      'not a plain esbuild command',
    );
  });
});

describe('sameAnswer: a reference answers as the service does', () => {
  const page = (finalThrough: string, total = 30) =>
    Buffer.from(`{"data":[],"meta":{"total":${total}},"finalThrough":"${finalThrough}"}`);

  test('byte for byte, or but for a watermark within a second of the other', () => {
    expect(sameAnswer(page('2026-11-27T07:01:15.000Z'), page('2026-11-27T07:01:15.000Z'))).toBe(
      true,
    );
    expect(sameAnswer(page('2026-11-27T07:01:14.997Z'), page('2026-11-27T07:01:15.040Z'))).toBe(
      true,
    );
  });

  test('a watermark a second apart, or any other difference, is a different answer', () => {
    expect(sameAnswer(page('2026-11-27T07:01:14.000Z'), page('2026-11-27T07:01:15.000Z'))).toBe(
      false,
    );
    expect(
      sameAnswer(page('2026-11-27T07:01:15.000Z', 30), page('2026-11-27T07:01:15.000Z', 31)),
    ).toBe(false);
    expect(sameAnswer(Buffer.from('{"a":1}'), Buffer.from('{"a":2}'))).toBe(false);
  });
});
