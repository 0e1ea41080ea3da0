// `npm run postback:listen`, the stand-in tracker for trying postbacks locally, as its own process:
// it prints each request's method, path, parameters and body, and answers 200 OK. The whole recipe
// against a real service: test/readme.test.ts (docs/postbacks.md).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { runToExit } from '../support/replica';
import { until } from '../support/wait';

const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'postback-listen.ts');

let listener: ChildProcessWithoutNullStreams;
let output = '';
let url: string;

beforeAll(async () => {
  listener = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    env: { ...process.env, POSTBACK_LISTEN_PORT: '0' },
  });
  listener.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  listener.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await until(() => /Listening for postbacks on (\S+):/.test(output), 'the listener', 30_000);
  url = /Listening for postbacks on (\S+):/.exec(output)![1]!;
}, 40_000);

afterAll(() => listener?.kill());

test('listens on 127.0.0.1', () => {
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
});

test('a GET is answered 200 OK and printed with each parameter decoded', async () => {
  const response = await fetch(`${url}key-1/postback?subid=a%26b&status=sale&payout=12.50`);
  expect([response.status, await response.text()]).toEqual([200, 'OK']);
  await until(() => output.includes('payout = "12.50"'), 'the printed postback');
  expect(output).toMatch(
    /--> GET \/key-1\/postback\n {2}subid = "a&b"\n {2}status = "sale"\n {2}payout = "12\.50"\n/,
  );
});

test('a HEAD, the readiness probe of the docs, is answered and not printed', async () => {
  const before = output;
  expect((await fetch(url, { method: 'HEAD' })).status).toBe(200);
  // A GET after it is printed: had the HEAD been, it would show first.
  await fetch(`${url}after-the-probe`);
  await until(() => output.includes('--> GET /after-the-probe'), 'the GET');
  expect(output.slice(before.length)).not.toContain('--> HEAD');
});

test('a POST prints its form or JSON body', async () => {
  await fetch(`${url}form`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'clickid=c1&sum=5.00',
  });
  await fetch(`${url}json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"clickid":"c2"}',
  });
  await until(() => output.includes('"clickid": "c2"'), 'both bodies');
  expect(output).toMatch(/--> POST \/form\nform:\n {2}clickid = "c1"\n {2}sum = "5\.00"\n/);
  expect(output).toMatch(/--> POST \/json\njson:\n\{\n {2}"clickid": "c2"\n\}/);
});

test('will not start on a port that is no port', async () => {
  const { code, output: said } = await runToExit(SCRIPT, { POSTBACK_LISTEN_PORT: 'eighty' });
  expect(code).toBe(2);
  expect(said).toContain('POSTBACK_LISTEN_PORT must be a port number, got "eighty"');
});
