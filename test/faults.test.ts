// Faults against real servers: the service runs as its own processes on a PostgreSQL server of the
// test's own (test/support/privatePostgres.ts), which the test stops and starts; replicas are
// killed with SIGKILL. The machine's shared PostgreSQL is never touched. Redis outages:
// test/redis-outage.test.ts.
import pg from 'pg';
import { DEMO } from '../prisma/seed/demo';
import { signDashboardToken } from '../src/auth/dashboardToken';
import {
  createPrivatePostgres,
  postgresBinaries,
  type PrivatePostgres,
} from './support/privatePostgres';
import { runScript, startReplica, type Replica } from './support/replica';
import { until } from './support/wait';

// CI has the server binaries; a laptop without them skips (CI would fail, not skip).
const withPostgresServer = postgresBinaries() || process.env.CI ? describe : describe.skip;

const PORT = 5491;
const REQUEST_TIMEOUT_MS = 10_000;
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0';
/** DEMO.brands.favorite's site: custom links must stay on it. */
const FAVORITE_BRAND_SITE = 'https://northwind-apparel.example';
const AFFILIATE = { 'x-api-key': DEMO.keys.affiliate };
const PARTNER = { 'x-api-key': DEMO.keys.partner };

interface Answer {
  status: number;
  body: unknown;
  retryAfter: string | null;
  ms: number;
}

/** One request; a connection failure (a killed replica) is `null`: nothing was acknowledged. */
async function send(url: string, init: RequestInit = {}): Promise<Answer | null> {
  const started = performance.now();
  try {
    const response = await fetch(url, { redirect: 'manual', ...init });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? JSON.parse(text) : null,
      retryAfter: response.headers.get('retry-after'),
      ms: performance.now() - started,
    };
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fault's recovery on a busy machine: the bound of each wait here (it only turns a hang into a failure). */
const RECOVERY_BOUND_MS = 60_000;

const count = (answers: Answer[], status: number) =>
  answers.filter((answer) => answer.status === status).length;

/** Runs `request` from `workers` loops until `stop()` is called; collects every answer. */
function traffic(workers: number, request: (turn: number) => Promise<Answer | null>) {
  let running = true;
  const answers: Answer[] = [];
  let turn = 0;
  const loops = Array.from({ length: workers }, async () => {
    while (running) {
      const answer = await request(turn++);
      if (answer) answers.push(answer);
      else await sleep(20);
    }
  });
  return {
    answers,
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return answers;
    },
  };
}

withPostgresServer('faults on real servers', () => {
  let database: PrivatePostgres;
  const replicas: Replica[] = [];

  const replica = async () => {
    const started = await startReplica({
      DATABASE_URL: database.url,
      DATABASE_SCHEMA: 'public',
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      // The clicks below come from many people, each at an address of their own (X-Forwarded-For).
      TRUST_PROXY: 'true',
    });
    replicas.push(started);
    return started;
  };

  beforeAll(async () => {
    database = createPrivatePostgres(PORT);
    await runScript('scripts/seed.ts', { DATABASE_URL: database.url, DATABASE_SCHEMA: 'public' });
  }, 120_000);

  afterAll(() => {
    replicas.forEach((started) => started.process.kill('SIGKILL'));
    database?.destroy();
  });

  test('PostgreSQL stopped during traffic -> 503 SERVICE_UNAVAILABLE within the request timeout, no crash, full recovery', async () => {
    const { base, process: child } = await replica();
    const routes: Array<() => Promise<Answer | null>> = [
      () => send(`${base}/affiliate/brands`, { headers: AFFILIATE }),
      () => send(`${base}/affiliate/orders`, { headers: AFFILIATE }),
      () => send(`${base}/api/partner/campaigns`, { headers: PARTNER }),
      () =>
        send(`${base}/s/${DEMO.shortUrlCodes.brandPage}`, { headers: { 'user-agent': BROWSER } }),
      () =>
        send(`${base}/affiliate/shortener/url`, {
          method: 'POST',
          headers: { ...AFFILIATE, 'content-type': 'application/json' },
          body: JSON.stringify({ organizationId: DEMO.brands.favorite }),
        }),
    ];
    const dashboardToken = await signDashboardToken(DEMO.users.affiliate);
    const load = traffic(8, (turn) => routes[turn % routes.length]!());

    await until(
      () => count(load.answers, 200) >= 10,
      'traffic answered before the outage',
      RECOVERY_BOUND_MS,
    );
    database.stop();
    await until(
      () => count(load.answers, 503) >= 10,
      'traffic answered 503 during the outage',
      RECOVERY_BOUND_MS,
    );
    const duringOutage = {
      live: await send(`${base}/healthz`),
      ready: await send(`${base}/readyz`),
      // The dashboard's GraphQL: the token needs no database, the resolver does.
      graphql: await send(`${base}/graphql`, {
        method: 'POST',
        headers: { 'x-api-token': dashboardToken, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ listApiKeys { id } }' }),
      }),
      // A key this replica has not seen: the edge cannot verify it, 503 before GraphQL runs.
      graphqlWithKey: await send(`${base}/graphql`, {
        method: 'POST',
        headers: { 'x-api-key': DEMO.keys.legacyAffiliate, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ affiliateBrands { pagination { total } } }' }),
      }),
    };
    database.start();
    // Recovered: the pool reconnects on its own; wait for the first success, then keep going.
    await until(
      async () => (await send(`${base}/affiliate/brands`, { headers: AFFILIATE }))?.status === 200,
      'recovery',
      RECOVERY_BOUND_MS,
    );
    const recoveryStart = load.answers.length;
    await until(
      () => load.answers.length >= recoveryStart + 50,
      'traffic after the recovery',
      RECOVERY_BOUND_MS,
    );
    const answers = await load.stop();

    expect(child.exitCode).toBeNull();
    expect(duringOutage.live?.status).toBe(200);
    expect(duringOutage.ready).toMatchObject({
      status: 503,
      body: { status: 'unavailable', checks: { database: 'unreachable' } },
    });
    expect(duringOutage.graphql).toMatchObject({
      status: 200,
      body: { errors: [{ extensions: { code: 'SERVICE_UNAVAILABLE' } }] },
    });
    expect(duringOutage.graphqlWithKey).toMatchObject({
      status: 503,
      body: { success: false, code: 'SERVICE_UNAVAILABLE' },
    });

    const unavailable = answers.filter((answer) => answer.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const answer of unavailable) {
      expect(answer.body).toEqual({
        success: false,
        code: 'SERVICE_UNAVAILABLE',
        message: 'The service is temporarily unavailable; retry shortly',
        requestId: expect.any(String),
      });
      expect(answer.retryAfter).toBe('5');
    }
    // Nothing else went wrong, and nothing waited out the deadline.
    expect(answers.filter((answer) => ![200, 201, 302, 503].includes(answer.status))).toEqual([]);
    expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(REQUEST_TIMEOUT_MS);
    expect(answers.slice(recoveryStart).filter((answer) => answer.status === 503)).toEqual([]);
  }, 90_000);

  test('a replica killed mid-burst loses no acknowledged short link or click', async () => {
    const [doomed, survivor] = await Promise.all([replica(), replica()]);
    const bases = [doomed.base, survivor.base];
    const created: string[] = [];
    const clicksAcknowledged = new Map<string, number>();
    const codes = [DEMO.shortUrlCodes.brandPage, DEMO.shortUrlCodes.urlOffer];

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const clicksOf = async () => {
        const { rows } = await client.query<{ urlCode: string; clickCount: number }>(
          'SELECT "urlCode", "clickCount" FROM "ShortUrl" WHERE "urlCode" = ANY($1)',
          [codes],
        );
        return new Map(rows.map((row) => [row.urlCode, row.clickCount]));
      };
      const clicksBefore = await clicksOf();
      const burst = traffic(16, async (turn) => {
        const base = bases[turn % 2]!;
        if (turn % 3 === 0) {
          const answer = await send(`${base}/affiliate/shortener/url`, {
            method: 'POST',
            headers: { ...AFFILIATE, 'content-type': 'application/json' },
            body: JSON.stringify({
              organizationId: DEMO.brands.favorite,
              originalUrl: `${FAVORITE_BRAND_SITE}/burst/${turn}`,
            }),
          });
          if (answer?.status === 201)
            created.push((answer.body as { data: { urlCode: string } }).data.urlCode);
          return answer;
        }
        const code = codes[turn % codes.length]!;
        // A client of its own each time, at an address of its own: a client's repeat within the
        // window is not counted, nor are one address's clients past the bound.
        const answer = await send(`${base}/s/${code}`, {
          headers: {
            'user-agent': `${BROWSER} burst/${turn}`,
            'x-forwarded-for': `198.51.${Math.floor(turn / 250) % 250}.${turn % 250}`,
          },
        });
        if (answer?.status === 302)
          clicksAcknowledged.set(code, (clicksAcknowledged.get(code) ?? 0) + 1);
        return answer;
      });
      const acknowledged = () =>
        created.length + codes.reduce((sum, code) => sum + (clicksAcknowledged.get(code) ?? 0), 0);

      // Killed in the middle of the burst: after both kinds of writes were acknowledged...
      await until(
        () => created.length >= 3 && codes.every((code) => clicksAcknowledged.get(code)! >= 3),
        'links and clicks acknowledged before the kill',
        RECOVERY_BOUND_MS,
      );
      doomed.process.kill('SIGKILL');
      expect(await doomed.exited).toBeNull();
      // ... and the burst goes on against the survivor.
      const beforeKill = acknowledged();
      await until(
        () => acknowledged() >= beforeKill + 20,
        'writes acknowledged after the kill',
        RECOVERY_BOUND_MS,
      );
      const answers = await burst.stop();

      expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
      expect(created.length).toBeGreaterThan(0);
      const { rows } = await client.query<{ urlCode: string }>(
        'SELECT "urlCode" FROM "ShortUrl" WHERE "urlCode" = ANY($1)',
        [created],
      );
      expect(rows.map((row) => row.urlCode).sort()).toEqual([...created].sort());

      // Every acknowledged click is counted; a click cut off before its answer may count too.
      const clicksAfter = await clicksOf();
      for (const code of codes) {
        const acknowledged = clicksAcknowledged.get(code) ?? 0;
        expect(acknowledged).toBeGreaterThan(0);
        expect(clicksAfter.get(code)! - clicksBefore.get(code)!).toBeGreaterThanOrEqual(
          acknowledged,
        );
      }
      // The survivor kept serving after the kill.
      expect(survivor.process.exitCode).toBeNull();
    } finally {
      await client.end();
    }
  }, 90_000);
});
