// GET /docs in a real browser: headless Chromium (test/support/browser.ts) loads the reference page
// from a real port and finds every route of the table on it, with nothing fetched from anywhere
// but the server.
import { config } from '../src/platform/config';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { openApiPath } from '../src/rest/openapi';
import { webhookDocumentation } from '../src/modules/webhooks/openapi';
import { ROUTES } from '../src/modules';
import { describeInChromium, launchChromium } from './support/browser';

describeInChromium('test/docs-page.test.ts')('GET /docs in headless Chromium', () => {
  let server: Server;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    // Imported here: the app opens the database, which a skipped file would leave opening.
    const { app } = await import('./support/app');
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('renders every route of the table, from this server only', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const foreign: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) {
        foreign.push(request.url());
      }
    });
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') {
        problems.push(message.text());
      }
    });
    page.on('pageerror', (error) => problems.push(error.message));

    const response = await page.goto(`${origin}/docs`);
    expect(response?.status()).toBe(200);
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
    // Wait until every tag's operations are rendered (the list is expanded by default).
    await page.waitForFunction(
      (count) => document.querySelectorAll('.opblock').length >= count,
      ROUTES.length,
      { timeout: 30_000 },
    );

    const rendered = await page.$$eval('.opblock', (blocks) =>
      blocks.map((block) => {
        const method = block.querySelector('.opblock-summary-method')?.textContent ?? '';
        const pathElement = block.querySelector(
          '.opblock-summary-path, .opblock-summary-path__deprecated',
        );
        const path = pathElement?.getAttribute('data-path') ?? pathElement?.textContent ?? '';
        return `${method.trim().toUpperCase()} ${path.replace(/\u200b/g, '').trim()}`;
      }),
    );
    for (const route of ROUTES) {
      expect(rendered).toContain(`${route.method} ${openApiPath(route.path)}`);
    }
    // The public redirect and the probes are documented beside the route table, each GET with its
    // HEAD, and so are the webhooks the service sends (the document's `webhooks` section).
    const openApi = (await (await fetch(`${origin}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.entries(openApi.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations).toEqual(expect.arrayContaining(['GET /s/{urlCode}', 'HEAD /healthz']));
    const webhooks = Object.keys(webhookDocumentation().webhooks);
    expect(rendered.sort()).toEqual(
      [...operations, ...webhooks.map((name) => `POST ${name}`)].sort(),
    );
    // The campaign lists opened, as a reader would: their parameters include a list of ids.
    const opened = ['/api/partner/campaigns', '/affiliate/campaigns'];
    for (const path of opened) {
      await page.locator(`.opblock-summary:has([data-path="${path}"])`).first().click();
    }
    await page.waitForFunction(
      (count) => document.querySelectorAll('.opblock-body .parameters').length >= count,
      opened.length,
      { timeout: 30_000 },
    );
    await expect(page.title()).resolves.toBe('Affiliate network API reference');
    expect(await page.textContent('body')).toContain('x-api-key');
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);

    await page.close();
  }, 60_000);

  it('is authorized with the demo keys, so "Try it out" answers 200 at once', async () => {
    const { seedDemoData } = await import('../prisma/seed/demo');
    const { prisma } = await import('../src/platform/db');
    const { applyMigrations } = await import('../src/platform/migrations');
    await applyMigrations();
    await seedDemoData(prisma);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // The document names PUBLIC_BASE_URL as its server; its requests are answered by this server.
    await page.route(`${config.publicBaseUrl}/**`, async (route) => {
      const sent = new URL(route.request().url());
      const answer = await fetch(`${origin}${sent.pathname}${sent.search}`, {
        headers: route.request().headers(),
      });
      await route.fulfill({ status: answer.status, body: await answer.text() });
    });
    await page.goto(`${origin}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
    const path = '/api/partner/organizations';
    await page.locator(`.opblock-summary:has([data-path="${path}"])`).first().click();
    await page.locator('.opblock.is-open .try-out__btn').click();
    const answered = page.waitForResponse((response) => response.url().includes(path));
    await page.locator('.opblock.is-open .execute').click();
    expect((await answered).status()).toBe(200);
    await page.close();
  }, 60_000);

  it('serves the renderer with a strict content security policy', async () => {
    const page = await fetch(`${origin}/docs`);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'self'");
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      const answer = await fetch(`${origin}${asset}`);
      expect({ asset, status: answer.status }).toEqual({ asset, status: 200 });
    }
  });
});
