// GraphiQL in a real browser, as a newcomer meets it after `npm start`: the first tab's Play runs
// its first example with the header editor as prefilled, and shows data. Headless Chromium
// (Debian's, driven by playwright-core) against a service started on an embedded database with
// the demo data; skipped without Chromium outside CI, as test/docs-page.test.ts is.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { startReplica, type Replica } from './support/replica';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM) || Boolean(process.env.CI);

(hasChromium ? describe : describe.skip)('GraphiQL in headless Chromium', () => {
  let replica: Replica;
  let browser: Browser;

  beforeAll(async () => {
    replica = await startReplica({
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      PGLITE_DATA_DIR: 'memory://',
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    replica?.process.kill('SIGKILL');
  });

  it("the first tab's Play answers data with the prefilled partner key", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${replica.base}/graphql`);
    await page.locator('.graphiql-execute-button').waitFor({ timeout: 60_000 });
    await page.locator('.graphiql-execute-button').click();
    // The tab holds several operations: GraphiQL asks which one to run.
    await page.getByRole('menuitem', { name: 'PartnerCatalog' }).click();
    const result = page.locator('.result-window');
    await result.getByText('"partnerBrands"').waitFor({ timeout: 30_000 });
    // The editor lays the answer out with non-breaking spaces.
    const text = (await result.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('"partnerBrands": { "data": [ { "id": "');
    expect(text).not.toContain('UNAUTHORIZED');
    await page.close();
  }, 120_000);

  it('titles the tabs after the surfaces', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${replica.base}/graphql`);
    await page.locator('.graphiql-tab').first().waitFor({ timeout: 60_000 });
    expect(await page.locator('.graphiql-tab').allInnerTexts()).toEqual([
      'PartnerCatalog',
      'AffiliateSurface',
      'KeyManagement',
      'OrderWebhooks',
      'TrackerPostbacks',
      'SubIds',
      'Payouts',
    ]);
    await page.close();
  }, 120_000);
});
