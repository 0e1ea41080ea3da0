// The real app on the real database, driven through `app.fetch` (no port), or over a real socket
// where the HTTP layer itself is under test.
import { createServer, request as httpRequest } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createApp, type AppOptions } from '../../src/app';
import { HTTP_STATUS_BY_CODE, type ErrorCode } from '../../src/platform/errors';
import { isEmbeddedDatabase, withSqlConnection } from '../../src/platform/db';
import { applyMigrations } from '../../src/platform/migrations';

export const app = createApp();

/** Migrates this file's database before its tests (test/support/lifecycle.ts drops it after). */
export function useTestDatabase(): void {
  beforeAll(() => applyMigrations());
}

/**
 * A database no migration was applied to, for the applier's own tests. On PostgreSQL the file's
 * schema is new; the embedded one starts from the run's migrated template
 * (test/support/databaseTemplate.ts), so its schema is emptied first.
 */
export function useEmptyDatabase(): void {
  beforeAll(async () => {
    if (!isEmbeddedDatabase) return;
    await withSqlConnection((connection) =>
      connection.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public'),
    );
  });
}

export type App = ReturnType<typeof createApp>;

/**
 * The real app with limits in this process's memory (not the shared Redis, which other test files
 * count in at the same time) and a failed-authentication allowance high enough for tests that
 * present thousands of bad keys from one client address on purpose.
 */
export function createIsolatedApp(options: AppOptions = {}): App {
  return createApp({
    redis: null,
    ...options,
    settings: { failedAuthMax: 1_000_000, ...options.settings },
  });
}

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** Fetches `path` from `target` with `init` as it is, and reads the answer whatever it is. */
export async function send(target: App, path: string, init: RequestInit = {}): Promise<RawAnswer> {
  const response = await target.fetch(`http://api.test${path}`, init);
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export interface CallOptions {
  method?: string;
  key?: string;
  token?: string;
  /** The client IP, as X-Forwarded-For (believed by an app with `trustProxy`). */
  ip?: string;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Sent as it is, with `Content-Type: application/json`, instead of `body`. */
  rawBody?: string;
}

export interface CallResult {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
}

/** Calls `target` like an HTTP client would and reads the JSON answer. */
export async function callApp(
  target: App,
  path: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['x-api-key'] = options.key;
  if (options.token !== undefined) headers['x-api-token'] = options.token;
  if (options.ip !== undefined) headers['x-forwarded-for'] = options.ip;
  if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
  const body =
    options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined || options.rawBody !== undefined)
    headers['content-type'] ??= 'application/json';
  const response = await target.fetch(`http://api.test${path}`, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : null,
  };
}

/**
 * Sends `body` as it is (a string, possibly not JSON) with `Content-Type: application/json`, as an
 * HTTP client would; `call()` sends JSON only.
 */
export function postRaw(
  path: string,
  body: string | undefined,
  options: { key?: string; headers?: Record<string, string> } = {},
): Promise<CallResult> {
  return callApp(app, path, { ...options, method: 'POST', rawBody: body });
}

/** Runs a GraphQL operation on `target` over HTTP. */
export function graphqlApp(
  target: App,
  query: string,
  variables: Record<string, unknown> = {},
  options: Omit<CallOptions, 'body' | 'method'> = {},
): Promise<CallResult> {
  return callApp(target, '/graphql', { ...options, method: 'POST', body: { query, variables } });
}

/** Serves `target` on a loopback port for the test; `close()` when done. */
export async function listen(target: App): Promise<{ base: string; close(): Promise<void> }> {
  const server = createServer(target);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One request on an open connection; the answer's body as JSON (null when empty). */
function requestOn(
  socket: Socket,
  url: string,
  options: { method: string; headers: Record<string, string | number>; body?: string },
): Promise<CallResult> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        method: options.method,
        path: new URL(url).pathname,
        headers: options.headers,
        createConnection: () => socket,
      },
      (response) => {
        let answer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (answer += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            headers: new Headers(response.headers as Record<string, string>),
            body: answer ? JSON.parse(answer) : null,
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/**
 * POSTs each request's JSON body to its URL at once, as clients elsewhere with their connections
 * open would: every connection is opened and taken in by its server first (a `/healthz` on each),
 * then every request is written in the same tick, so each server can read all of them before it
 * answers the first. (Sent with fetch from this process, a request would leave, and a new
 * connection be accepted, only as this process's event loop, which the servers share, got to it:
 * on the embedded database, one after another's answer.)
 */
export async function postAtOnce(
  requests: { url: string; body: unknown }[],
  headers: Record<string, string>,
): Promise<CallResult[]> {
  const sockets = await Promise.all(
    requests.map(({ url }) => {
      const { hostname, port } = new URL(url);
      return new Promise<Socket>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => resolve(socket));
        socket.once('error', reject);
      });
    }),
  );
  await Promise.all(
    requests.map(({ url }, n) =>
      requestOn(sockets[n]!, new URL('/healthz', url).href, {
        method: 'GET',
        headers: { connection: 'keep-alive' },
      }),
    ),
  );
  return Promise.all(
    requests.map(({ url, body }, n) => {
      const text = JSON.stringify(body);
      return requestOn(sockets[n]!, url, {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          connection: 'close',
        },
        body: text,
      });
    }),
  );
}

/** Calls this file's app. */
export const call = (path: string, options?: CallOptions) => callApp(app, path, options);

/** Runs a GraphQL operation on this file's app. */
export const graphql = (
  query: string,
  variables?: Record<string, unknown>,
  options?: Omit<CallOptions, 'body' | 'method'>,
) => graphqlApp(app, query, variables, options);

/**
 * Asserts an error answer in the contract's shape: the code's status and `{ success: false,
 * message, code, requestId }`, 404s with `error` and `statusCode` too. `message`: the exact text, a
 * pattern, an asymmetric matcher, or any message when left out.
 */
export function expectError(
  answer: { status: number; body: unknown },
  code: ErrorCode,
  message?: string | RegExp | ReturnType<typeof expect.stringContaining>,
): void {
  const status = HTTP_STATUS_BY_CODE[code];
  expect(answer).toMatchObject({ status });
  expect(answer.body).toEqual({
    success: false,
    code,
    requestId: expect.any(String),
    message:
      message instanceof RegExp ? expect.stringMatching(message) : (message ?? expect.any(String)),
    ...(status === 404 && { error: 'Not Found', statusCode: 404 }),
  });
}

/**
 * One test per query string of `cases`: `list` answers 400 with a message naming the parameter.
 * `list(query)` sends the request (the route's path, its key).
 */
export function refusesParameters(
  list: (query: string) => Promise<{ status: number; body: unknown }>,
  cases: [query: string, parameter: string][],
): void {
  test.each(cases)('?%s answers 400 naming %s', async (query, parameter) => {
    expectError(await list(query), 'BAD_REQUEST', expect.stringContaining(parameter));
  });
}
