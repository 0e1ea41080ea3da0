// A real webhook receiver for tests: an HTTP server on 127.0.0.1 that verifies every request with
// the `standardwebhooks` library, as an integrator's would, and answers as the test says.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  id: string;
  timestamp: number;
  signature: string;
  raw: string;
  /** The verified body. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
}

/** How the receiver answers a verified request: a status, or 'hold' (never answer). */
export type Answer = (webhook: ReceivedWebhook) => number | 'hold';

export interface Receiver {
  url: string;
  port: number;
  /** Verified requests the receiver accepted (2xx), in arrival order. */
  received: ReceivedWebhook[];
  /** Every verified request, whatever the answer, in arrival order. */
  attempts: ReceivedWebhook[];
  /** Requests whose signature did not verify. */
  rejected: string[];
  /** The secret(s) the receiver verifies with (any one must verify). */
  secrets: string[];
  answer: Answer;
  /** Stops listening (connections refused) until `open()`. */
  close(): Promise<void>;
  /** Listens again on the same port. */
  open(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

export async function startReceiver(path = '/webhooks'): Promise<Receiver> {
  const held: ServerResponse[] = [];
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    attempts: [],
    rejected: [],
    secrets: [],
    answer: () => 204,
    close: async () => {
      for (const response of held.splice(0)) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    open: () => new Promise<void>((resolve) => server.listen(receiver.port, '127.0.0.1', resolve)),
  };
  const server = createServer(async (request, response) => {
    const raw = await readBody(request);
    const headers = {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    };
    const body = receiver.secrets
      .map((secret) => {
        try {
          return { verified: new Webhook(secret).verify(raw, headers) };
        } catch {
          return null;
        }
      })
      .find((result) => result !== null)?.verified;
    if (body === undefined) {
      receiver.rejected.push(raw);
      response.writeHead(400).end();
      return;
    }
    const webhook: ReceivedWebhook = {
      id: headers['webhook-id'],
      timestamp: Number(headers['webhook-timestamp']),
      signature: headers['webhook-signature'],
      raw,
      body,
    };
    receiver.attempts.push(webhook);
    const answer = receiver.answer(webhook);
    if (answer === 'hold') {
      held.push(response);
      return;
    }
    // Only what the receiver accepted counts as received.
    if (answer >= 200 && answer < 300) receiver.received.push(webhook);
    response.writeHead(answer, { 'content-type': 'text/plain' }).end(`answered ${answer}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}${path}`;
  return receiver;
}

/** Polls `condition` until it holds (every 25 ms, up to `timeoutMs`). */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
