// `npm run webhook:listen`, the receiver for trying webhooks locally, as its own process: it prints
// a request signed with the endpoint's secret, refuses one that is not, and will not start without
// a secret. The whole recipe against a real service: test/readme.test.ts (docs/webhooks.md).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { runToExit } from '../support/replica';
import { until } from '../support/wait';

const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'webhook-listen.ts');
const SECRET = `whsec_${Buffer.from('a local test secret, 32 bytes!!!').toString('base64')}`;

let listener: ChildProcessWithoutNullStreams;
let output = '';
let url: string;

beforeAll(async () => {
  listener = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    env: { ...process.env, WEBHOOK_SECRET: SECRET, WEBHOOK_LISTEN_PORT: '0' },
  });
  listener.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  listener.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await until(() => /Listening for webhooks on (\S+):/.test(output), 'the listener', 30_000);
  url = /Listening for webhooks on (\S+):/.exec(output)![1]!;
}, 40_000);

afterAll(() => listener?.kill());

function post(body: string, id: string, signature?: string): Promise<Response> {
  const at = new Date();
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature ?? new Webhook(SECRET).sign(id, at, body),
    },
    body,
  });
}

test('listens on 127.0.0.1 at /webhooks', () => {
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
});

test('a request signed with the secret is answered 204 and its event printed', async () => {
  const body = JSON.stringify({
    type: 'webhook.test',
    timestamp: 'now',
    data: { endpointId: 'e1' },
  });
  expect((await post(body, 'a-first-event')).status).toBe(204);
  await until(() => output.includes('"endpointId": "e1"'), 'the printed event');
  expect(output).toMatch(/--> webhook\.test \[a-first-event\]\n\{\n {2}"type": "webhook\.test",/);
});

test('a retry of an event already printed is acknowledged and said to be one', async () => {
  const body = JSON.stringify({ type: 'order.created', timestamp: 'now', data: {} });
  expect((await post(body, 'a-retried-event')).status).toBe(204);
  expect((await post(body, 'a-retried-event')).status).toBe(204);
  await until(() => output.includes('[a-retried-event] (a retry'), 'the retry');
});

test('a request whose signature does not verify is answered 400, its body not printed', async () => {
  const body = JSON.stringify({ type: 'order.created', data: { forged: true } });
  const forged = new Webhook(`whsec_${Buffer.from('another secret').toString('base64')}`);
  const response = await post(
    body,
    'a-forged-event',
    forged.sign('a-forged-event', new Date(), body),
  );
  expect(response.status).toBe(400);
  await until(() => output.includes('refused /webhooks'), 'the refusal');
  expect(output).not.toContain('forged');
});

test('will not start without the endpoint secret', async () => {
  const { code, output: said } = await runToExit(SCRIPT, { WEBHOOK_SECRET: '' });
  expect(code).toBe(2);
  expect(said).toContain('WEBHOOK_SECRET must be the endpoint\'s signing secret ("whsec_...")');
});
