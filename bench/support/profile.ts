// A CPU profile of the service under the load of one scenario, summed by self time per function and
// per package. The probe in the server (serverProbe.cjs) starts V8's profiler after the warm-up
// and stops it after the measured load, so start-up (module loading, migrations) stays out. The
// service runs compiled (dist/server.js): its frames are named by their source files again through
// the build's source map.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLoad, type LoadResult, type LoadSettings } from './load';
import { askProbe, REPO_ROOT, startService } from './processes';
import type { Scenario } from './scenarios';

export interface CallFrame {
  functionName: string;
  url: string;
  /** Zero-based, as V8 counts. */
  lineNumber: number;
  columnNumber: number;
}

interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame }[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  scenario: string;
  load: LoadResult;
  /** Sampled time the process was busy (not idle); shares are of this. */
  busyMs: number;
  idleMs: number;
  functions: SelfTime[];
  packages: SelfTime[];
}

/** Where a function lives: a package of node_modules, the service's own code, or node itself. */
export function ownerOf(url: string): string {
  if (!url) return '(native / V8)';
  // The only WebAssembly the service runs on PostgreSQL (PGlite is never started there).
  if (url.startsWith('wasm://')) return 'Prisma query compiler (wasm)';
  if (url.startsWith('node:')) return 'node core';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1]!;
  const local = url.replace(/^file:\/\//, '');
  return local.startsWith(REPO_ROOT) ? path.relative(REPO_ROOT, local).split('/')[0]! : local;
}

export function frameName({ functionName, url, lineNumber }: CallFrame): string {
  const where = url
    ? `${url.replace(/^file:\/\//, '').replace(`${REPO_ROOT}/`, '')}:${lineNumber + 1}`
    : '';
  return `${functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
}

/** The source map beside a compiled file (`<file>.map`), read once; null when it has none. */
export type SourceMaps = (file: string) => SourceMap | null;

export function sourceMapsBesideFiles(): SourceMaps {
  const maps = new Map<string, SourceMap | null>();
  return (file) => {
    if (!maps.has(file)) {
      const mapFile = `${file}.map`;
      maps.set(
        file,
        existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))) : null,
      );
    }
    return maps.get(file)!;
  };
}

/** The frame at its place in the source, when it ran from a bundle with a source map. */
export function sourceFrame(frame: CallFrame, sourceMaps: SourceMaps): CallFrame {
  if (!frame.url || frame.url.includes('node_modules') || !/^(file:\/\/)?\//.test(frame.url)) {
    return frame;
  }
  const file = frame.url.startsWith('file:') ? fileURLToPath(frame.url) : frame.url;
  const entry = sourceMaps(file)?.findEntry(frame.lineNumber, frame.columnNumber);
  if (!entry || !('originalSource' in entry)) return frame;
  return {
    ...frame,
    url: path.resolve(path.dirname(file), entry.originalSource),
    lineNumber: entry.originalLine,
    columnNumber: entry.originalColumn,
  };
}

function top(totals: Map<string, number>, totalMs: number, count: number): SelfTime[] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => ({ name, ms, share: ms / totalMs }));
}

/** Self time per function and per package, as shares of busy time; GC keeps V8's name. */
export function summarizeProfile(
  profile: CpuProfile,
  count = 20,
  sourceMaps: SourceMaps = sourceMapsBesideFiles(),
) {
  const frames = new Map(
    profile.nodes.map((node) => [node.id, sourceFrame(node.callFrame, sourceMaps)]),
  );
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let busyMs = 0;
  let idleMs = 0;
  profile.samples.forEach((nodeId, index) => {
    // The first delta runs from the profiler's start, not from a sample (on Node 24, a few hundred
    // ms charged to the inspector's `post` that started it).
    if (index === 0) return;
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const frame = frames.get(nodeId);
    if (!frame) return;
    if (frame.functionName === '(idle)') {
      idleMs += ms;
      return;
    }
    busyMs += ms;
    const name = frameName(frame);
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    const owner = frame.url ? ownerOf(frame.url) : frame.functionName || '(native / V8)';
    byPackage.set(owner, (byPackage.get(owner) ?? 0) + ms);
  });
  return {
    busyMs,
    idleMs,
    functions: top(byFunction, busyMs, count),
    packages: top(byPackage, busyMs, count),
  };
}

/** Profiles the service while `scenario` loads it for the given settings. */
export async function profileScenario(
  schema: string,
  scenario: Scenario,
  settings: LoadSettings,
): Promise<ProfileSummary> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-cpu-'));
  const file = path.join(dir, 'service.cpuprofile');
  try {
    const service = await startService({ schema, withProbe: true });
    let load: LoadResult;
    try {
      await runLoad(service.baseUrl, scenario.spec, { ...settings, durationS: 2 });
      await askProbe(service, 'bench:profile-start');
      load = await runLoad(service.baseUrl, scenario.spec, settings);
      await askProbe(service, 'bench:profile-stop', { file });
    } finally {
      await service.stop();
    }
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    return { scenario: scenario.name, load, ...summarizeProfile(profile) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
