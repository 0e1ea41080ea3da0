// The targets, as pure checks of one scenario's measurement against the ceiling.
import type { LoadResult } from './load';
import type { ScenarioKind } from './scenarios';

export const TARGETS = {
  /** Authenticated list routes at default limit, at full scale. */
  list: { minCeilingShare: 0.1, maxP99Ms: 25 },
  redirect: { minCeilingShare: 0.3 },
  /** Added to the median by auth + quota. */
  authDeltaMs: 0.3,
  /** Median at scale over median on the demo data, first page and page 500. */
  growthRatio: 1.5,
} as const;

export interface Verdict {
  met: boolean;
  /** What missed, empty when met. */
  misses: string[];
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

/** The verdict for a scenario kind that has a target; null for the others. */
export function verdictOf(
  kind: ScenarioKind,
  result: LoadResult,
  ceilingRps: number,
  clicksExact?: boolean,
): Verdict | null {
  const share = result.requestsPerSecond / ceilingRps;
  const misses: string[] = [];
  if (kind === 'list') {
    if (share < TARGETS.list.minCeilingShare) {
      misses.push(`${percent(share)} < ${percent(TARGETS.list.minCeilingShare)}`);
    }
    if (!(result.p99Ms < TARGETS.list.maxP99Ms)) {
      misses.push(`p99 ${result.p99Ms.toFixed(1)} ms >= ${TARGETS.list.maxP99Ms} ms`);
    }
    if (result.errors > 0) misses.push(`${result.errors} errors`);
  } else if (kind === 'redirect') {
    if (share < TARGETS.redirect.minCeilingShare) {
      misses.push(`${percent(share)} < ${percent(TARGETS.redirect.minCeilingShare)}`);
    }
    if (clicksExact === false) misses.push('click count not exact');
    if (result.errors > 0) misses.push(`${result.errors} errors`);
  } else {
    return null;
  }
  return { met: misses.length === 0, misses };
}
