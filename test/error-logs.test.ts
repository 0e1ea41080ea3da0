// What the logs say of errors (docs/hardening.md, "Logs"): a client's error is no error of the
// service, whatever it was met by (/graphql or REST, the route or a resolver); a fault of the
// service is logged once at error level, with its request id and its cause, never with the
// client's document.
import { prisma } from '../src/platform/db';
import { call, graphql, useTestDatabase } from './support/app';
import { signDashboardToken } from '../src/auth/dashboardToken';
import { createApiKey, createUser } from './support/factories';
import { captureLogs, parsedLines } from './support/logs';

useTestDatabase();

// A text only the client's document holds: no log line may repeat it.
const MARKER = 'clientText7f3a';

let affiliateKey: string;
let channelsOnlyKey: string;
beforeAll(async () => {
  ({ apiKey: affiliateKey } = await createApiKey('affiliate'));
  ({ apiKey: channelsOnlyKey } = await createApiKey('affiliate', { scopes: ['channels:read'] }));
});

const errorLines = (text: string) => parsedLines(text).filter((line) => line.level >= 50);

describe.each([
  ['401', 'UNAUTHORIZED', `{ ${MARKER}: affiliateChannels { count } }`, undefined],
  ['403', 'FORBIDDEN', `{ ${MARKER}: affiliateOrders { meta { total } } }`, 'channels'],
  [
    '404',
    'NOT_FOUND',
    `{ ${MARKER}: affiliateBrand(brandId: "00000000-0000-4000-8000-000000000000") { data { id } } }`,
    'affiliate',
  ],
  ['410', 'GONE', `{ ${MARKER}: affiliateOffers { meta { total } } }`, 'affiliate'],
])('a %s inside a /graphql execution', (_status, code, query, key) => {
  test(`is answered ${code} and logged as no error, without the client's document`, async () => {
    let answer: Awaited<ReturnType<typeof graphql>> | undefined;
    const logs = await captureLogs(async () => {
      const apiKey = key === 'channels' ? channelsOnlyKey : key ? affiliateKey : undefined;
      answer = await graphql(query, {}, { key: apiKey });
    });
    expect(answer!.body.errors[0].extensions.code).toBe(code);
    expect(errorLines(logs)).toEqual([]);
    expect(logs).not.toContain(MARKER);
  });
});

test('a REST 404 is no error either', async () => {
  const logs = await captureLogs(async () => {
    expect((await call('/affiliate/brands/not-a-brand', { key: affiliateKey })).status).toBe(404);
  });
  expect(errorLines(logs)).toEqual([]);
});

test('a refused webhook URL is no error either', async () => {
  const token = await signDashboardToken((await createUser('AFFILIATE')).id);
  let answer: Awaited<ReturnType<typeof graphql>> | undefined;
  const logs = await captureLogs(async () => {
    answer = await graphql(
      `mutation { createWebhookEndpoint(input: { url: "http://127.0.0.1:4001/${MARKER}", events: ["order.created"] }) { secret } }`,
      {},
      { token },
    );
  });
  expect(answer!.body.errors[0]).toMatchObject({
    message: expect.stringMatching(/^url must be https/),
    extensions: { code: 'BAD_REQUEST' },
  });
  expect(errorLines(logs)).toEqual([]);
  expect(logs).not.toContain(MARKER);
});

test("a fault inside a /graphql execution: one error line, with the request id and the cause, not the client's document", async () => {
  const fault = jest
    .spyOn(prisma.channel, 'findMany')
    .mockRejectedValueOnce(new Error('disk on fire'));
  let requestId: string | null = null;
  let answer: Awaited<ReturnType<typeof graphql>> | undefined;
  const logs = await captureLogs(async () => {
    answer = await graphql(`{ ${MARKER}: affiliateChannels { count } }`, {}, { key: affiliateKey });
    requestId = answer.headers.get('x-request-id');
  });
  fault.mockRestore();
  expect(answer!.body.errors[0].message).toBe('Unexpected error.');
  const errors = errorLines(logs);
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatchObject({
    requestId,
    msg: 'unexpected error',
    err: { message: 'disk on fire' },
  });
  expect(logs).not.toContain(MARKER);
});
