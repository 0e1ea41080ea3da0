// `npm start` on a fresh machine: an empty embedded database is migrated and gets the demo data,
// the service answers on its port, and SIGTERM shuts it down cleanly.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO } from '../prisma/seed/demo';
import { config } from '../src/config';
import { startReplica } from './support/replica';

const onPglite = config.databaseUrl ? test.skip : test;

onPglite(
  'starts on an empty data folder, serves the demo data, finishes in-flight requests on SIGTERM and exits 0',
  async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pglite-start-'));
    const server = await startReplica({
      DATABASE_URL: undefined,
      PGLITE_DATA_DIR: dataDir,
    });
    try {
      const response = await fetch(`${server.base}/api/partner/brands?limit=1`, {
        headers: { 'x-api-key': DEMO.keys.partner },
      });
      expect(response.status).toBe(200);
      expect((await response.json()).meta.total).toBe(DEMO.brands.visibleCount);

      // A request still arriving when SIGTERM comes is finished, then the process exits 0.
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
      const inFlight = fetch(`${server.base}/affiliate/shortener/url`, {
        method: 'POST',
        headers: { 'x-api-key': DEMO.keys.affiliate, 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);
      await new Promise((resolve) => setTimeout(resolve, 200));
      server.process.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      sendRest();
      const answer = await inFlight;
      expect([200, 201]).toContain(answer.status);
      expect((await answer.json()).data.organizationId).toBe(DEMO.brands.favorite);
      expect(await server.exited).toBe(0);
    } finally {
      server.process.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
  60_000,
);
