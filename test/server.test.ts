// `npm start` on a fresh machine: an empty embedded database is migrated and gets the demo data,
// the service answers on its port, and SIGTERM shuts it down cleanly.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO } from '../prisma/seed/demo';
import { config } from '../src/config';

const onPglite = config.databaseUrl ? test.skip : test;

onPglite(
  'starts on an empty data folder, serves the demo data, finishes in-flight requests on SIGTERM and exits 0',
  async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pglite-start-'));
    const { DATABASE_URL: _unused, ...inherited } = process.env;
    // Node itself, not an npx/tsx wrapper, so the signal reaches the server.
    const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: path.join(__dirname, '..'),
      env: { ...inherited, PGLITE_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' },
    });
    try {
      const base = await new Promise<string>((resolve, reject) => {
        let output = '';
        server.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const found = /listening on (http:\/\/localhost:\d+)/.exec(output);
          if (found) resolve(found[1]!);
        });
        server.on('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
      });
      const response = await fetch(`${base}/api/partner/brands?limit=1`, {
        headers: { 'x-api-key': DEMO.keys.partner },
      });
      expect(response.status).toBe(200);
      expect((await response.json()).meta.total).toBe(DEMO.brands.visibleCount);

      // A request still arriving when SIGTERM comes is finished, then the process exits 0.
      const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
      const encoder = new TextEncoder();
      let sendRest!: () => void;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode('{"organizationId":'));
          sendRest = () => {
            controller.enqueue(encoder.encode(JSON.stringify(DEMO.brands.favorite) + '}'));
            controller.close();
          };
        },
      });
      const inFlight = fetch(`${base}/affiliate/shortener/url`, {
        method: 'POST',
        headers: { 'x-api-key': DEMO.keys.affiliate, 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);
      await new Promise((resolve) => setTimeout(resolve, 200));
      server.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      sendRest();
      const answer = await inFlight;
      expect([200, 201]).toContain(answer.status);
      expect((await answer.json()).data.organizationId).toBe(DEMO.brands.favorite);
      expect(await exited).toBe(0);
    } finally {
      server.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
  60_000,
);
