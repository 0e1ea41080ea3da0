// Whether a process's memory grows as a leak would. RSS is a sawtooth under load (the young
// generation fills and empties, the allocator keeps freed pages for a while), so comparing two of
// its windows says more about when the last collection ran than about what is kept. The heap after
// a full collection moves only with what is retained: its trend over the run is the verdict.

/** The heap after a full collection, at a time of the run. */
export interface HeapPoint {
  atS: number;
  mib: number;
}

export interface LeakVerdict {
  /** The trend's value at the first and the last point. */
  startMiB: number;
  endMiB: number;
  slopeMiBPerMinute: number;
  /** endMiB / startMiB - 1 */
  growth: number;
  met: boolean;
}

/** Retained growth over a run that still counts as flat. */
export const MAX_RETAINED_GROWTH = 0.1;

/** The least-squares line through the points: a few noisy windows move it little. */
function trendOf(points: readonly HeapPoint[]): { slope: number; intercept: number } {
  const n = points.length;
  const meanT = points.reduce((sum, p) => sum + p.atS, 0) / n;
  const meanM = points.reduce((sum, p) => sum + p.mib, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const { atS, mib } of points) {
    covariance += (atS - meanT) * (mib - meanM);
    variance += (atS - meanT) ** 2;
  }
  const slope = variance === 0 ? 0 : covariance / variance;
  return { slope, intercept: meanM - slope * meanT };
}

/** Null with fewer than six points: too few for a trend. */
export function leakVerdict(points: readonly HeapPoint[]): LeakVerdict | null {
  if (points.length < 6) return null;
  const { slope, intercept } = trendOf(points);
  const startMiB = intercept + slope * points[0]!.atS;
  const endMiB = intercept + slope * points.at(-1)!.atS;
  const growth = endMiB / startMiB - 1;
  return {
    startMiB,
    endMiB,
    slopeMiBPerMinute: slope * 60,
    growth,
    met: growth < MAX_RETAINED_GROWTH,
  };
}
