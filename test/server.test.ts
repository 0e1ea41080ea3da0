// `npm start` on a fresh machine: an empty embedded database is migrated and gets the demo data,
// the service answers on its port, and SIGTERM shuts it down cleanly. In production it refuses the
// embedded database unless told, and never loads or prints the public demo keys.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO, seedDemoData } from '../prisma/seed/demo';
import { config } from '../src/platform/config';
import { prisma } from '../src/platform/db';
import { runToExit, startReplica, type Replica } from './support/replica';
import { until } from './support/wait';

const onPglite = config.databaseUrl ? test.skip : test;

/** Resolves once `replica` has printed `text`. */
function untilPrinted(replica: Replica, text: string): Promise<void> {
  return until(
    async () => {
      if (replica.output().includes(text)) return true;
      if ((await Promise.race([replica.exited, null])) !== null) {
        throw new Error(`exited before printing "${text}": ${replica.output()}`);
      }
      return false;
    },
    `"${text}" printed`,
    180_000,
  );
}

/**
 * Sends a request's head with `Expect: 100-continue` and waits for the server's 100 Continue: from
 * then on the request is in the server's hands. `finish` sends the body and reads the answer.
 */
async function startedRequest(base: string, requestPath: string, headers: Record<string, string>) {
  const { port } = new URL(base);
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  const head = [
    `POST ${requestPath} HTTP/1.1`,
    `Host: localhost:${port}`,
    'Expect: 100-continue',
    'Connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  while (!received.includes('100 Continue')) await new Promise((r) => setTimeout(r, 10));
  return {
    finish(body: string): Promise<{ status: number; body: unknown }> {
      socket.end(body);
      return new Promise((resolve) =>
        socket.on('close', () => {
          const answer = received.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
          // The body may come chunked: the JSON is what lies between the outer braces.
          const json = answer.slice(answer.indexOf('{'), answer.lastIndexOf('}') + 1);
          resolve({ status: Number(answer.slice(9, 12)), body: JSON.parse(json) });
        }),
      );
    },
  };
}

onPglite(
  'starts on an empty data folder, serves the demo data, finishes in-flight requests on SIGTERM and exits 0',
  async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pglite-start-'));
    const server = await startReplica({
      DATABASE_URL: undefined,
      PGLITE_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    });
    try {
      const response = await fetch(`${server.base}/api/partner/brands?limit=1`, {
        headers: { 'x-api-key': DEMO.keys.partner },
      });
      expect(response.status).toBe(200);
      expect((await response.json()).meta.total).toBe(DEMO.brands.visibleCount);

      // A request the server has taken when SIGTERM comes is finished, then the process exits 0.
      const body = JSON.stringify({ organizationId: DEMO.brands.favorite });
      const inFlight = await startedRequest(server.base, '/affiliate/shortener/url', {
        'x-api-key': DEMO.keys.affiliate,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      });
      server.process.kill('SIGTERM');
      await untilPrinted(server, 'shutting down');
      const answer = await inFlight.finish(body);
      expect([200, 201]).toContain(answer.status);
      expect((answer.body as { data: { organizationId: string } }).data.organizationId).toBe(
        DEMO.brands.favorite,
      );
      expect(await server.exited).toBe(0);
    } finally {
      server.process.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
  180_000,
);

test('a port in use: npm start and the production server say so in one line, no stack', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as AddressInfo;
  try {
    for (const script of ['scripts/start.ts', 'src/server.ts']) {
      const { code, output } = await runToExit(script, {
        PORT: String(port),
        HOST: '127.0.0.1',
        PGLITE_DATA_DIR: 'memory://',
      });
      expect(code).toBe(1);
      expect(output.trim().split('\n').at(-1)).toBe(
        `Port ${port} is in use: stop what listens there, or start with another PORT (PORT=${port + 1} npm start)`,
      );
      expect(output).not.toMatch(/^\s+at /m);
    }
  } finally {
    taken.close();
  }
  // Two services that each open an embedded database before they find the port taken.
}, 180_000);

describe('in production', () => {
  const production = {
    NODE_ENV: 'production',
    DASHBOARD_JWT_SECRET: 'p'.repeat(32),
    PUBLIC_BASE_URL: 'https://api.example.com',
  };

  test('without DATABASE_URL the service refuses to start and says what to set', async () => {
    const { code, output } = await runToExit('src/server.ts', {
      ...production,
      DATABASE_URL: undefined,
    });
    expect(code).toBe(1);
    expect(output).toContain('NODE_ENV=production needs DATABASE_URL');
    expect(output).toContain('ALLOW_EMBEDDED_DATABASE=1');
  });

  test('npm run seed refuses, says why, and touches no database', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'seed-production-'));
    const database = path.join(dataDir, 'pglite');
    try {
      const { code, output } = await runToExit('scripts/seed.ts', {
        ...production,
        DATABASE_URL: undefined,
        ALLOW_EMBEDDED_DATABASE: '1',
        PGLITE_DATA_DIR: database,
      });
      expect(code).toBe(1);
      expect(output).toContain('The demo data is never loaded with NODE_ENV=production');
      // The refusal alone: no stack trace.
      expect(output).not.toMatch(/^\s+at /m);
      // Not even migrated: the embedded database was never opened.
      expect(existsSync(database)).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('the demo data refuses to be written by any other way in (seed:scale, a script)', async () => {
    const isProduction = config.isProduction;
    Object.assign(config, { isProduction: true });
    try {
      await expect(seedDemoData(prisma)).rejects.toThrow(
        'The demo data is never loaded with NODE_ENV=production',
      );
    } finally {
      Object.assign(config, { isProduction });
    }
  });

  onPglite(
    'an allowed embedded database gets no demo data, and the banner shows no demo key',
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'pglite-production-'));
      const server = await startReplica({
        ...production,
        DATABASE_URL: undefined,
        ALLOW_EMBEDDED_DATABASE: '1',
        PGLITE_DATA_DIR: dataDir,
      });
      try {
        const response = await fetch(`${server.base}/api/partner/brands`, {
          headers: { 'x-api-key': DEMO.keys.partner },
        });
        expect(response.status).toBe(401);
        expect(server.output()).not.toContain(DEMO.keys.partner);
        expect(server.output()).not.toContain('x-api-key');
      } finally {
        server.process.kill('SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    180_000,
  );
});

test('the production entry point carries no demo data (only `npm start` loads it)', async () => {
  const loaded =
    "Object.keys(require.cache).filter((file) => file.includes('prisma/seed/demo.ts'))";
  const { output } = await runToExit(
    ['-e', `require('./src/server'); console.log(${loaded}.length)`],
    {},
  );
  expect(output.trim().split('\n').at(-1)).toBe('0');
});
