// What a sampling heap profile holds: V8 samples allocations (one per ~32 KiB) with their stacks.
// By default it drops those collected, so read after a full GC the rest is what the process kept;
// told to keep them (the probe's `collected`), it is everything allocated meanwhile. Summed per
// package and per allocation stack (the nearest frames outside node core).
import {
  frameName,
  ownerOf,
  sourceFrame,
  sourceMapsBesideFiles,
  type CallFrame,
  type SourceMaps,
} from './frames';

interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}

export interface SamplingHeapProfile {
  head: HeapNode;
}

export interface HeapShare {
  name: string;
  bytes: number;
  share: number;
}

export interface HeapSummary {
  bytes: number;
  packages: HeapShare[];
  stacks: HeapShare[];
}

const STACK_DEPTH = 4;

function isOwnCode(frame: CallFrame): boolean {
  return Boolean(frame.url) && !frame.url.startsWith('node:');
}

function top(totals: Map<string, number>, bytes: number, count: number): HeapShare[] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, size]) => ({ name, bytes: size, share: size / bytes }));
}

/** The sampled bytes by package and by stack; frames of a bundle named by their sources. */
export function summarizeHeapProfile(
  profile: SamplingHeapProfile,
  count = 15,
  sourceMaps: SourceMaps = sourceMapsBesideFiles(),
): HeapSummary {
  const byPackage = new Map<string, number>();
  const byStack = new Map<string, number>();
  let bytes = 0;
  const visit = (node: HeapNode, path: CallFrame[]) => {
    const stack = [...path, sourceFrame(node.callFrame, sourceMaps)];
    if (node.selfSize > 0) {
      bytes += node.selfSize;
      const frames = stack.filter(isOwnCode).slice(-STACK_DEPTH).reverse();
      const owner = frames[0] ? ownerOf(frames[0].url) : '(native / V8)';
      byPackage.set(owner, (byPackage.get(owner) ?? 0) + node.selfSize);
      const key = frames.map(frameName).join(' ← ') || frameName(node.callFrame);
      byStack.set(key, (byStack.get(key) ?? 0) + node.selfSize);
    }
    for (const child of node.children) visit(child, stack);
  };
  visit(profile.head, []);
  return { bytes, packages: top(byPackage, bytes, count), stacks: top(byStack, bytes, count) };
}
