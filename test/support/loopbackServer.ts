// The shell of the tests' receivers (webhook receiver, postback tracker, trace collector): an HTTP
// server on 127.0.0.1 that reads each request whole and answers as its handler says, or holds the
// answer (never answers), and that closes and opens again on the same port.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { config } from '../../src/platform/config';

export interface IncomingCall {
  method: string;
  /** The path and query as they arrived. */
  target: string;
  headers: IncomingHttpHeaders;
  /** The body's bytes, and as UTF-8 text. */
  raw: Buffer;
  body: string;
}

/** A status with its text body, or 'hold' (never answer). */
export type Reply = { status: number; body: string; contentType?: string } | 'hold';

export interface LoopbackServer {
  port: number;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Stops listening (connections refused), dropping held answers, until `open()`. */
  close(): Promise<void>;
  /** Listens again on the same port. */
  open(): Promise<void>;
}

export async function startLoopbackServer(
  handle: (call: IncomingCall) => Reply,
): Promise<LoopbackServer> {
  const held: ServerResponse[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const reply = handle({
        method: request.method ?? '',
        target: request.url ?? '/',
        headers: request.headers,
        raw,
        body: raw.toString('utf8'),
      });
      if (reply === 'hold') {
        held.push(response);
        return;
      }
      response
        .writeHead(reply.status, { 'content-type': reply.contentType ?? 'text/plain' })
        .end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const response of held.splice(0)) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    open: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
  };
}

/**
 * WEBHOOK_ALLOW_PRIVATE_URLS as the webhook and postback mutations read it: on, the service takes
 * and calls these servers' 127.0.0.1 addresses, as in development.
 */
export function allowPrivateUrls(allowed: boolean): void {
  Object.assign(config, { webhookAllowPrivateUrls: allowed });
}
