// What only a real server shows. Node's own refusals (headers or URL over its limit) answer in the
// contract's error shape. The logs tell a client's mistakes from the service's: an oversized
// chunked body and a request its client abandoned are logged as what they are, at info, with the
// request id; nothing is an unexpected error (level 50) with a stack.
import { connect } from 'node:net';
import { DEMO } from '../prisma/seed/demo';
import { config } from '../src/platform/config';
import { startReplica, type Replica } from './support/replica';
import { until } from './support/wait';

// A replica of its own on an embedded database with the demo data; the logging is the same on any.
const onPglite = config.databaseUrl ? describe.skip : describe;

let replica: Replica;
const affiliateKey = DEMO.keys.affiliate;

interface LogLine {
  level: number;
  msg: string;
  requestId?: string;
  status?: number;
  err?: unknown;
}

function logLines(): LogLine[] {
  return replica
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

async function untilLogged(find: (line: LogLine) => boolean): Promise<LogLine> {
  await until(() => logLines().some(find), 'the log line');
  return logLines().find(find)!;
}

onPglite('a real server', () => {
  beforeAll(async () => {
    replica = await startReplica({ LOG_LEVEL: 'info' });
  }, 180_000);
  afterAll(() => replica.process.kill('SIGKILL'));

  test('an oversized chunked body: 413, logged at info with its request id, no error', async () => {
    const chunk = new Uint8Array(256 * 1024).fill(97);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 6) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(`${replica.base}/affiliate/shortener/url`, {
      method: 'POST',
      headers: { 'x-api-key': affiliateKey, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    const requestId = response.headers.get('x-request-id');
    const line = await untilLogged(
      (entry) => entry.requestId === requestId && entry.msg === 'request',
    );
    expect(line).toMatchObject({ level: 30, status: 413 });
    expect(logLines().filter((entry) => entry.level >= 50)).toEqual([]);
  });

  test('a request its client abandons: logged as abandoned (499) at info, no error', async () => {
    const requestId = 'abandoned-by-its-client';
    const socket = connect(Number(new URL(replica.base).port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.write(
      [
        'POST /affiliate/shortener/url HTTP/1.1',
        'Host: localhost',
        `x-api-key: ${affiliateKey}`,
        `x-request-id: ${requestId}`,
        'content-type: application/json',
        'content-length: 100',
        'expect: 100-continue',
        '',
        '',
      ].join('\r\n'),
    );
    // The service has the request; it gets part of the body, then the client is gone.
    await until(() => received.includes('100 Continue'), 'the interim 100 Continue');
    socket.write(`{"organizationId":"${DEMO.brands.favorite}`);
    socket.destroy();
    const line = await untilLogged((entry) => entry.requestId === requestId);
    expect(line).toMatchObject({ level: 30, status: 499, msg: 'request abandoned by the client' });
    expect(logLines().filter((entry) => entry.level >= 50)).toEqual([]);
  });

  test.each([
    ['headers', { headers: { 'x-padding': 'x'.repeat(20_000) } }, '/healthz'],
    ['a URL', {}, `/api/partner/brands?search=${'x'.repeat(20_000)}`],
  ])('%s over the limit: 431 in the contract error shape', async (_what, init, path) => {
    const response = await fetch(`${replica.base}${path}`, init);
    expect(response.status).toBe(431);
    // A request id like every answer, in the header, the body and the log.
    const requestId = response.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.json()).toEqual({
      success: false,
      code: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
      message: 'The request URL or headers are too large',
      requestId,
    });
    expect(await untilLogged((entry) => entry.requestId === requestId)).toMatchObject({
      status: 431,
      msg: 'request refused by the HTTP parser',
    });
  });
});
