// A page of another origin calls the API with its key, in a real browser (headless Chromium,
// test/support/browser.ts): the preflight and the answer carry each CORS field once, so the browser
// lets the page read the answer and the headers it exposes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { describeInChromium, launchChromium } from './support/browser';

/** Serves one empty page: the origin the calls come from. */
function pageServer(): Server {
  return createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>an integrator</title>');
  });
}

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describeInChromium('test/cors-browser.test.ts')('a browser page of another origin', () => {
  let api: Server;
  let site: Server;
  let apiOrigin: string;
  let siteOrigin: string;
  let browser: Browser;
  let partnerKey: string;

  beforeAll(async () => {
    // Imported here: the app opens the database, which a skipped file would leave opening.
    const { app } = await import('./support/app');
    const { applyMigrations } = await import('../src/platform/migrations');
    const { createApiKey } = await import('./support/factories');
    await applyMigrations();
    ({ apiKey: partnerKey } = await createApiKey('partner'));
    api = createServer(app);
    site = pageServer();
    [apiOrigin, siteOrigin] = await Promise.all([listening(api), listening(site)]);
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all(
      [api, site].map((server) => new Promise((resolve) => server?.close(resolve))),
    );
  });

  it('reads an answer to a request with x-api-key, and its exposed quota headers', async () => {
    const page = await browser.newPage();
    await page.goto(siteOrigin);
    const answer = await page.evaluate(
      async ({ url, key }) => {
        try {
          const response = await fetch(url, { headers: { 'x-api-key': key } });
          const body = (await response.json()) as { meta?: unknown };
          return {
            status: response.status,
            limit: response.headers.get('x-ratelimit-limit'),
            requestId: response.headers.get('x-request-id'),
            hasMeta: body.meta !== undefined,
          };
        } catch (error) {
          return { blocked: String(error) };
        }
      },
      { url: `${apiOrigin}/api/partner/organizations`, key: partnerKey },
    );
    expect(answer).toEqual({
      status: 200,
      limit: expect.any(String),
      requestId: expect.any(String),
      hasMeta: true,
    });
    await page.close();
  }, 60_000);

  it('answers the preflight with each CORS field once', async () => {
    const preflight = await fetch(`${apiOrigin}/api/partner/organizations`, {
      method: 'OPTIONS',
      headers: {
        origin: siteOrigin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-api-key');
  });
});
