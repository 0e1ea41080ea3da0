// A real tracker for postback tests: an HTTP server on 127.0.0.1 that records every request (its
// method, path, query as the tracker parses it, headers and body) and answers as the test says.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPostback {
  method: string;
  /** The path and query as they arrived. */
  target: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the tracker answers: a status and a body, or 'hold' (never answer). */
export type TrackerAnswer = (
  postback: ReceivedPostback,
) => { status: number; body: string } | 'hold';

export interface Tracker {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Every request, in arrival order. */
  received: ReceivedPostback[];
  answer: TrackerAnswer;
  /** Stops listening (connections refused) until `open()`. */
  close(): Promise<void>;
  open(): Promise<void>;
}

/** Keitaro's answer with `return=OK`. */
export const ANSWER_OK: TrackerAnswer = () => ({ status: 200, body: 'OK' });

export async function startTracker(): Promise<Tracker> {
  const held: ServerResponse[] = [];
  let port = 0;
  const tracker: Tracker = {
    url: '',
    received: [],
    answer: ANSWER_OK,
    close: async () => {
      for (const response of held.splice(0)) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    open: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
  };
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const target = request.url ?? '/';
      const parsed = new URL(target, 'http://tracker');
      const postback: ReceivedPostback = {
        method: request.method ?? '',
        target,
        path: parsed.pathname,
        query: parsed.searchParams,
        headers: request.headers,
        body,
      };
      tracker.received.push(postback);
      const answer = tracker.answer(postback);
      if (answer === 'hold') {
        held.push(response);
        return;
      }
      response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  tracker.url = `http://127.0.0.1:${port}`;
  return tracker;
}
