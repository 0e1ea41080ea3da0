// An OTLP/HTTP collector on a loopback port: what a service sends it, as `METHOD path body` lines.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from './webhookReceiver';

export interface Collector {
  endpoint: string;
  received: string[];
  /** Resolves with the first request whose line contains `text`. */
  requestWith(text: string): Promise<string>;
  close(): void;
}

export async function startCollector(): Promise<Collector> {
  const received: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('latin1')));
    request.on('end', () => {
      received.push(`${request.method} ${request.url} ${body}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    received,
    async requestWith(text) {
      const withText = () => received.find((request) => request.includes(text));
      await until(() => withText() !== undefined, `a request with "${text}"`);
      return withText()!;
    },
    close: () => server.close(),
  };
}
