// A real webhook receiver for tests: a loopback server (./loopbackServer.ts) that verifies every
// request with the `standardwebhooks` library, as an integrator's would, and answers as the test
// says.
import { Webhook } from 'standardwebhooks';
import { startLoopbackServer } from './loopbackServer';

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

export async function startReceiver(path = '/webhooks'): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    attempts: [],
    rejected: [],
    secrets: [],
    answer: () => 204,
    close: () => server.close(),
    open: () => server.open(),
  };
  const server = await startLoopbackServer(({ headers: sent, body: raw }) => {
    const headers = {
      'webhook-id': String(sent['webhook-id']),
      'webhook-timestamp': String(sent['webhook-timestamp']),
      'webhook-signature': String(sent['webhook-signature']),
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
      return { status: 400, body: '' };
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
    if (answer === 'hold') return 'hold';
    // Only what the receiver accepted counts as received.
    if (answer >= 200 && answer < 300) receiver.received.push(webhook);
    return { status: answer, body: `answered ${answer}` };
  });
  receiver.port = server.port;
  receiver.url = `${server.origin}${path}`;
  return receiver;
}
