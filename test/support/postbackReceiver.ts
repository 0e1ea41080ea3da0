// A real tracker for postback tests: a loopback server (./loopbackServer.ts) that records every
// request (its method, path, query as the tracker parses it, headers and body) and answers as the
// test says.
import type { IncomingHttpHeaders } from 'node:http';
import { startLoopbackServer } from './loopbackServer';

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
  const tracker: Tracker = {
    url: '',
    received: [],
    answer: ANSWER_OK,
    close: () => server.close(),
    open: () => server.open(),
  };
  const server = await startLoopbackServer(({ method, target, headers, body }) => {
    const parsed = new URL(target, 'http://tracker');
    const postback: ReceivedPostback = {
      method,
      target,
      path: parsed.pathname,
      query: parsed.searchParams,
      headers,
      body,
    };
    tracker.received.push(postback);
    return tracker.answer(postback);
  });
  tracker.url = server.origin;
  return tracker;
}
