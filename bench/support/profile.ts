// A CPU profile of the service under the load of one scenario, summed by self time per function and
// per package, and what its answers allocate. The probe in the server (serverProbe.cjs) starts V8's
// profilers after the warm-up and stops them after the measured load, so start-up (module loading,
// migrations) stays out. The service runs compiled (dist/server.js): its frames are named by their
// source files again through the build's source map.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  frameName,
  ownerOf,
  sourceFrame,
  sourceMapsBesideFiles,
  type CallFrame,
  type SourceMaps,
} from './frames';
import { summarizeHeapProfile, type HeapSummary, type SamplingHeapProfile } from './heapProfile';
import { runLoad, type LoadResult, type LoadSettings } from './load';
import { askProbe, startService } from './processes';
import type { Scenario } from './scenarios';

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
  /** What an answer allocates: a second load, under V8's sampling heap profiler. */
  allocation: { load: LoadResult; heap: HeapSummary };
  /** Sampled time the process was busy (not idle); shares are of this. */
  busyMs: number;
  idleMs: number;
  functions: SelfTime[];
  packages: SelfTime[];
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

/**
 * Profiles the service while `scenario` loads it for the given settings: its CPU, then in a second
 * load what it allocates, collected objects included (the sampler slows the service, so the two
 * loads are apart).
 */
export async function profileScenario(
  schema: string,
  scenario: Scenario,
  settings: LoadSettings,
): Promise<ProfileSummary> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-cpu-'));
  const file = path.join(dir, 'service.cpuprofile');
  const heapFile = path.join(dir, 'service.heapprofile');
  try {
    const service = await startService({ schema, withProbe: true });
    let load: LoadResult;
    let allocationLoad: LoadResult;
    try {
      await runLoad(service.baseUrl, scenario.spec, { ...settings, durationS: 2 });
      await askProbe(service, 'bench:profile-start');
      load = await runLoad(service.baseUrl, scenario.spec, settings);
      await askProbe(service, 'bench:profile-stop', { file });
      await askProbe(service, 'bench:heap-start', { collected: true });
      allocationLoad = await runLoad(service.baseUrl, scenario.spec, settings);
      await askProbe(service, 'bench:heap-stop', { file: heapFile });
    } finally {
      await service.stop();
    }
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    const heap = summarizeHeapProfile(
      JSON.parse(readFileSync(heapFile, 'utf8')) as SamplingHeapProfile,
    );
    const allocation = { load: allocationLoad, heap };
    return { scenario: scenario.name, load, allocation, ...summarizeProfile(profile) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
