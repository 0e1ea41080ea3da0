// An OTLP/HTTP collector on a loopback port: what a service sends it, as `METHOD path body` lines.
import { startLoopbackServer } from './loopbackServer';
import { until } from './wait';

export interface Collector {
  endpoint: string;
  received: string[];
  /** Resolves with the first request whose line contains `text`. */
  requestWith(text: string): Promise<string>;
  close(): void;
}

export async function startCollector(): Promise<Collector> {
  const received: string[] = [];
  const server = await startLoopbackServer(({ method, target, raw }) => {
    received.push(`${method} ${target} ${raw.toString('latin1')}`);
    return { status: 200, body: '{}', contentType: 'application/json' };
  });
  return {
    endpoint: server.origin,
    received,
    async requestWith(text) {
      const withText = () => received.find((request) => request.includes(text));
      await until(() => withText() !== undefined, `a request with "${text}"`);
      return withText()!;
    },
    close: () => void server.close(),
  };
}
