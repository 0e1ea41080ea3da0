// The README's and the docs pages' code blocks run as written, in order (the README first, then
// docs/*.md by name), in one shell, against a service started as `npm start` starts it (embedded
// database, demo data), its address in place of localhost:4000. A block the test cannot run says
// why in a comment right above it. Every relative link leads to a file and heading that exist.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { POSTBACK_LISTENER_URL } from '../src/modules/postbacks/graphiql';
import { WEBHOOK_LISTENER_URL } from '../src/modules/webhooks/graphiql';
import { openApiPath } from '../src/rest/openapi';
import { ROUTES } from '../src/modules';
import { freePort, startReplica, type Replica } from './support/replica';
import type { WebhookBody } from '../src/modules/webhooks/eventTypes';
import { until } from './support/wait';

const ROOT = path.join(__dirname, '..');
const PAGES = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];
const text = (page: string) => readFileSync(path.join(ROOT, page), 'utf8');
const README = text('README.md');
const NOT_RUN = /<!-- not run by test\/readme\.test\.ts: (.+) -->\n\n$/;
const SECRET = 'readme-test-dashboard-secret-0123456789';

interface Block {
  page: string;
  language: string;
  code: string;
  /** Why the test does not run it, if it says so. */
  notRun?: string;
}

function blocksOf(page: string): Block[] {
  const markdown = text(page);
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    page,
    language: match[1]!,
    code: match[2]!,
    notRun: NOT_RUN.exec(markdown.slice(0, match.index))?.[1],
  }));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

const anchorsOf = (page: string) =>
  [...text(page).matchAll(/^#+ (.+)$/gm)].map(([, heading]) => anchorOf(heading!));

const blocks = PAGES.flatMap(blocksOf);
const run = blocks.filter((block) => block.notRun === undefined);

test('the README is a front door: a table of contents, at most 250 lines', () => {
  expect(README).toMatch(/^## Contents$/m);
  expect(README.split('\n').length).toBeLessThanOrEqual(250);
});

test.each(PAGES)('every relative link of %s leads to a file and heading that exist', (page) => {
  const broken = [...text(page).matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target!)
    .filter((target) => !/^[a-z]+:/.test(target))
    .filter((target) => {
      const [file, anchor] = target.split('#');
      const resolved = file ? path.join(path.dirname(page), file) : page;
      if (!existsSync(path.join(ROOT, resolved))) return true;
      return anchor !== undefined && !anchorsOf(resolved).includes(anchor);
    });
  expect(broken).toEqual([]);
});

test("the quick start says which of npm install's warnings on Node 20 is harmless", () => {
  const quickStart = README.slice(
    README.indexOf('## Quick start'),
    README.indexOf('## The first hour'),
  );
  expect(quickStart).toMatch(/`EBADENGINE`\s+for\s+`@prisma\/streams-local`[^.]*harmless/);
});

test('the route table lists every route, the redirect and the probes', () => {
  const listed = [...README.matchAll(/^\| `(GET|POST) ([^`]+)`/gm)].map(
    ([, method, path]) => `${method} ${path}`,
  );
  const routes = ROUTES.map((route) => `${route.method} ${openApiPath(route.path)}`);
  expect(listed).toEqual(expect.arrayContaining([...routes, 'GET /s/{urlCode}', 'GET /healthz']));
});

test('every block is run, or says why not', () => {
  expect(run.length).toBeGreaterThan(3);
  expect(run.filter((block) => block.language !== 'sh')).toEqual([]);
});

describe('the blocks, run in one shell', () => {
  let replica: Replica;
  let shell: ChildProcess;
  let stdout = '';
  let stderr = '';

  beforeAll(async () => {
    replica = await startReplica({
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      PGLITE_DATA_DIR: 'memory://',
      DASHBOARD_JWT_SECRET: SECRET,
      // As docs/webhooks.md starts it for the local webhook recipe.
      WEBHOOK_ALLOW_PRIVATE_URLS: '1',
      // The access log on the replica's output: every answer's status, whatever the blocks pipe
      // it through.
      LOG_LEVEL: 'info',
    });
    const listenerPort = await freePort();
    const postbackListenerPort = await freePort();
    const script = [
      'set -eo pipefail',
      ...run.map((block) =>
        block.code
          .replaceAll('http://localhost:4000', replica.base)
          .replaceAll(WEBHOOK_LISTENER_URL, `http://127.0.0.1:${listenerPort}/webhooks`)
          .replaceAll(POSTBACK_LISTENER_URL, `http://127.0.0.1:${postbackListenerPort}/`),
      ),
      'printf "\\n== KEY=%s CODE=%s ENDPOINT_ID=%s\\n" "$KEY" "$CODE" "$ENDPOINT_ID"',
    ].join('\n');
    // A process group of its own: the blocks leave the listeners running in the background.
    shell = spawn('bash', ['-c', script], {
      cwd: ROOT,
      detached: true,
      env: {
        ...process.env,
        DASHBOARD_JWT_SECRET: SECRET,
        // `npm run trigger` calls the service on PORT, as the docs' service listens.
        PORT: new URL(replica.base).port,
        LOG_LEVEL: 'silent',
        WEBHOOK_LISTEN_PORT: String(listenerPort),
        POSTBACK_LISTEN_PORT: String(postbackListenerPort),
      },
    });
    shell.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    shell.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => shell.on('exit', resolve));
    if (code !== 0) throw new Error(`the blocks exited with ${code}:\n${stdout}\n${stderr}`);
    // A bound against a hang only: each block's `npm run` starts tsx anew, minutes on a busy machine.
  }, 300_000);

  afterAll(() => {
    if (shell?.pid) process.kill(-shell.pid, 'SIGTERM');
    replica?.process.kill('SIGKILL');
  });

  test('they make a key and a short link, and the link redirects', () => {
    const [, key, code] = /^== KEY=(\S*) CODE=(\S*)/m.exec(stdout) ?? [];
    expect(key).toMatch(/^svc_test_/);
    expect(code).toMatch(/^[0-9A-Za-z]{8}$/);
    expect(stdout).toContain('HTTP/1.1 302 Found');
    expect(stdout).toMatch(/^location: https?:\/\/\S+[?&]aff=\S+/im);
  });

  test('a tagged follow takes its sub-IDs to the brand, and the report by sub1 counts it', () => {
    expect(stdout).toMatch(/^https?:\/\/\S+[?&]aff=\S+&sub1=newsletter&sub2=hero$/m);
    expect(stdout).toMatch(/^\{"subId":"newsletter","currency":[^,]+,"clicks":[1-9]/m);
  });

  test("the webhook listener prints the test event, verified with the endpoint's secret", async () => {
    const [, endpointId] = /ENDPOINT_ID=(\S+)$/m.exec(stdout) ?? [];
    expect(endpointId).toMatch(/^[0-9a-f-]{36}$/);
    await until(() => /^\}$/m.test(stdout.slice(stdout.indexOf('--> webhook.test'))), 'the event');
    const printed = stdout.slice(stdout.indexOf('--> webhook.test'));
    expect(printed).toMatch(/^--> webhook\.test \[[0-9a-f-]{36}\]\n\{/);
    const body = JSON.parse(printed.slice(printed.indexOf('{'), printed.search(/^\}$/m) + 1));
    expect(body).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { endpointId },
    });
    expect(stdout).not.toContain('refused');
  }, 60_000);

  /** The orders `npm run trigger -- order.created` recorded, in the order the blocks ran it. */
  const triggeredOrders = () =>
    [
      ...stdout.matchAll(
        /^order\.created: order \S+ of .+ recorded, PENDING, .+ \(id ([0-9a-f-]{36})\)$/gm,
      ),
    ].map(([, id]) => id!);

  /** The bodies the webhook listeners printed for one type, in the order they were printed. */
  const printedWebhooks = (type: string): WebhookBody[] =>
    stdout
      .split(`--> ${type} [`)
      .slice(1)
      .flatMap((rest) => {
        const end = rest.search(/^\}$/m);
        return end < 0 ? [] : [JSON.parse(rest.slice(rest.indexOf('{'), end + 1)) as WebhookBody];
      });

  test('a triggered order reaches the webhook listener, signed, then its status change', async () => {
    // integrating.md's walk triggers one, postbacks.md one before webhooks.md makes its endpoint;
    // that endpoint hears the last.
    expect(triggeredOrders()).toHaveLength(3);
    const orderId = triggeredOrders().at(-1);
    expect(stdout).toMatch(
      new RegExp(
        `^order\\.status_changed: order \\S+ PENDING -> APPROVED \\(id ${orderId}\\)$`,
        'm',
      ),
    );
    const printed = (type: string) =>
      printedWebhooks(type).find((body) => (body.data.order as { id: string }).id === orderId) ??
      null;
    await until(() => printed('order.status_changed') !== null, 'the order events');
    expect(printed('order.created')).toMatchObject({
      type: 'order.created',
      data: { order: { id: orderId } },
    });
    expect(printed('order.status_changed')).toMatchObject({
      type: 'order.status_changed',
      data: { order: { id: orderId }, previousStatus: 'PENDING' },
    });
    expect(stdout).not.toContain('refused');
    // Each at its first attempt: the block waits until the listener answers before sending.
    const attempts = async (outcome: string) => {
      const metrics = await (await fetch(`${replica.base}/metrics`)).text();
      const line = new RegExp(
        `^webhook_delivery_attempts_total\\{outcome="${outcome}"\\} (\\d+)$`,
        'm',
      );
      return Number(line.exec(metrics)?.[1] ?? 0);
    };
    await until(async () => (await attempts('delivered')) >= 3, 'three deliveries');
    expect(await attempts('failed')).toBe(0);
  }, 60_000);

  test("the postback listener prints the test send and the replayed orders, in Keitaro's format", async () => {
    const sent = () => stdout.split('--> GET /demo-key/postback\n').slice(1);
    // The test send, and at least one of Ana's orders of the last 30 days.
    await until(() => sent().length >= 2, 'the test send and a replayed order');
    expect(sent()[0]).toMatch(
      /^ {2}subid = "sample-click-id"\n {2}tid = "[0-9a-f-]{36}"\n {2}status = "sale"\n {2}payout = "12\.50"\n {2}currency = "EUR"\n {2}sub_id_2 = "newsletter"\n {2}sub_id_3 = ""\n {2}sub_id_4 = ""\n {2}sub_id_5 = ""\n {2}return = "OK"\n/,
    );
    // The answer shows the request with its postback key redacted, and the listener's OK.
    expect(stdout).toMatch(
      /^\{"sendTestPostback":\{"request":\{"url":"http:\/\/127\.0\.0\.1:\d+\/REDACTED\/postback\?subid=sample-click-id&[^"]+"\},"statusCode":200,"responseBody":"OK","delivered":true\}\}$/m,
    );
    expect(stdout).toMatch(/^\{"replayPostbacks":\{"queued":[1-9]\d*\}\}$/m);
    // The order postbacks.md triggers, of the link it followed, fires the postback by itself with
    // the click's sub-ID and the order's first status.
    const triggered = triggeredOrders().at(-2);
    await until(
      () => sent().some((request) => request.includes(`tid = "${triggered}"`)),
      'the triggered order',
    );
    const request = sent().find((each) => each.includes(`tid = "${triggered}"`));
    expect(request).toContain('subid = "clk-demo-1"');
    expect(request).toContain('status = "lead"');
  }, 60_000);

  test("integrating.md's walk from click to payout: the order of the click, its webhooks and postbacks, then PAID by a payout, in its history and the balance", async () => {
    const walked = triggeredOrders()[0]!;
    expect(stdout).toMatch(/^302 https?:\/\/\S+[?&]sub1=clk-walk-1$/m);
    expect(stdout).toMatch(
      new RegExp(
        `^order\\.created: order \\S+ of .+ \\(link \\w{8}, sub1 clk-walk-1\\) recorded, PENDING, .+ \\(id ${walked}\\)$`,
        'm',
      ),
    );
    const postbacks = stdout.split('--> GET /walk-key/postback\n').slice(1);
    await until(
      () => postbacks.length >= 3 || stdout.split('--> GET /walk-key/postback\n').length > 3,
      "the walk's postbacks",
    );
    const sent = stdout.split('--> GET /walk-key/postback\n').slice(1);
    expect(sent[0]).toMatch(
      /^ {2}subid = "clk-walk-1"\n {2}tid = "[0-9a-f-]{36}"\n {2}status = "lead"\n/,
    );
    expect(sent.some((request) => request.includes('status = "sale"'))).toBe(true);
    // The listener prints each delivery as it arrives, after the blocks that caused it.
    const walkedWebhook = (type: string) =>
      printedWebhooks(type).some((body) => (body.data.order as { id: string }).id === walked);
    const types = ['order.created', 'order.status_changed', 'order.adjusted', 'order.locked'];
    await until(
      () => types.every(walkedWebhook) && printedWebhooks('payout.paid').length > 0,
      "the walk's webhooks and its payout.paid",
    );
    const order = JSON.parse(stdout.match(/^\{"orderNumber":.+\}$/m)![0]);
    expect(order).toMatchObject({
      status: 'PAID',
      sub1: 'clk-walk-1',
      payoutId: expect.any(String),
    });
    expect(order.earnings).toBeLessThan(order.originalEarnings);
    const history = [...stdout.matchAll(/^\{"type":"(\w+)","status":"(\w+)"/gm)].map(
      ([, type, status]) => `${type} ${status}`,
    );
    expect(history).toEqual([
      'CREATED PENDING',
      'STATUS_CHANGED APPROVED',
      'ADJUSTED APPROVED',
      'LOCKED APPROVED',
      'STATUS_CHANGED PAID',
      'PAID PAID',
    ]);
    expect(stdout).toMatch(
      /^\{"status":"PAID","currency":"[A-Z]{3}","amount":[\d.]+,"orders":\d+,"paidAt":"[^"]+"\}$/m,
    );
  }, 60_000);

  test("order-lifecycle.md's sync loop sees finalThrough move once the network pays the oldest approved order", () => {
    const marks = [...stdout.matchAll(/^final before: (\S+)$/gm)].map(([, at]) => Date.parse(at!));
    expect(marks).toHaveLength(2);
    expect(marks.every(Number.isFinite)).toBe(true);
    expect(marks[1]).toBeGreaterThan(marks[0]!);
    expect(stdout).toMatch(/^payout\.paid: payout TRIG-PAYOUT-\w+ of [\d.]+ BHD paid/m);
  });

  test('each answer they print ends its line: no answer runs into what is printed next', () => {
    // A JSON answer on one line (compact, as jq -c writes it) is all of its line.
    const answers = stdout.split('\n').filter((line) => line.startsWith('{"'));
    expect(answers.length).toBeGreaterThan(3);
    expect(answers.filter((line) => !line.endsWith('}'))).toEqual([]);
  });

  test('every request they send is answered 2xx or 3xx, GraphQL without errors', () => {
    const answered = replica
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"request"'))
      .map((line) => JSON.parse(line) as { method: string; path: string; status: number })
      .filter((line) => line.path !== '/readyz');
    expect(answered.length).toBeGreaterThan(5);
    expect(answered.filter((line) => line.status >= 400)).toEqual([]);
    expect(stdout).not.toContain('"errors"');
  });
});
