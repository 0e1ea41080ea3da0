// What a sampling heap profile says is still alive: V8 samples allocations (one per ~32 KiB) with
// their stacks and drops those collected; read after a full GC, the rest is what the process kept.
// Summed per package and per allocation stack (the nearest frames outside node core).
import {
  frameName,
  ownerOf,
  sourceFrame,
  sourceMapsBesideFiles,
  type CallFrame,
  type SourceMaps,
} from './profile';

interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}

export interface SamplingHeapProfile {
  head: HeapNode;
}

export interface LiveShare {
  name: string;
  bytes: number;
  share: number;
}

export interface LiveHeapSummary {
  bytes: number;
  packages: LiveShare[];
  stacks: LiveShare[];
}

const STACK_DEPTH = 4;

function isOwnCode(frame: CallFrame): boolean {
  return Boolean(frame.url) && !frame.url.startsWith('node:');
}

function top(totals: Map<string, number>, bytes: number, count: number): LiveShare[] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, size]) => ({ name, bytes: size, share: size / bytes }));
}

/** What is still alive, by package and by stack; frames of a bundle named by their sources. */
export function summarizeHeapProfile(
  profile: SamplingHeapProfile,
  count = 15,
  sourceMaps: SourceMaps = sourceMapsBesideFiles(),
): LiveHeapSummary {
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
