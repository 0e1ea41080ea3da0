// Reading GET /metrics in tests: the Prometheus text, and the value of one metric in it.
import { app, send, type App } from './app';

export async function scrape(target: App = app): Promise<string> {
  const answer = await send(target, '/metrics');
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return answer.text;
}

/** The sum of the samples of `name` whose labels include `labels`. */
export function valueOf(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample || sample[1] !== name) continue;
    const found = Object.fromEntries(
      [...(sample[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([label, value]) => found[label] === value)) {
      sum += Number(sample[3]);
    }
  }
  return sum;
}

/** The value of `name` (with `labels`) read now from `target`'s /metrics. */
export async function metricNow(
  name: string,
  labels: Record<string, string> = {},
  target: App = app,
): Promise<number> {
  return valueOf(await scrape(target), name, labels);
}
