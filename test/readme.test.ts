// The README's code blocks run as written, in order, in one shell, against a service started as
// `npm start` starts it (embedded database, demo data), its address in place of localhost:4000.
// A block the test cannot run says why in a comment right above it.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { openApiPath } from '../src/rest/openapi';
import { ROUTES } from '../src/rest/routes';
import { startReplica, type Replica } from './support/replica';

const ROOT = path.join(__dirname, '..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const NOT_RUN = /<!-- not run by test\/readme\.test\.ts: (.+) -->\n\n$/;
const SECRET = 'readme-test-dashboard-secret-0123456789';

interface Block {
  language: string;
  code: string;
  /** Why the test does not run it, if it says so. */
  notRun?: string;
}

function blocksOf(markdown: string): Block[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    language: match[1]!,
    code: match[2]!,
    notRun: NOT_RUN.exec(markdown.slice(0, match.index))?.[1],
  }));
}

const blocks = blocksOf(README);
const run = blocks.filter((block) => block.notRun === undefined);

test('the route table lists every route, the redirect and the probes', () => {
  const listed = [...README.matchAll(/^\| `(GET|POST) ([^`]+)`/gm)].map(
    ([, method, path]) => `${method} ${path}`,
  );
  const routes = ROUTES.map((route) => `${route.method} ${openApiPath(route.path)}`);
  expect(listed).toEqual(expect.arrayContaining([...routes, 'GET /s/{urlCode}', 'GET /healthz']));
});

test('every block is run, or says why not', () => {
  expect(blocks.length).toBeGreaterThan(3);
  for (const block of run) expect(block.language).toBe('sh');
});

describe('the blocks, run in one shell', () => {
  let replica: Replica;
  let output: { stdout: string; stderr: string };

  beforeAll(async () => {
    replica = await startReplica({
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      PGLITE_DATA_DIR: 'memory://',
      DASHBOARD_JWT_SECRET: SECRET,
      // The access log on the replica's output: every answer's status, whatever the blocks pipe
      // it through (CI points LOG_FILE elsewhere).
      LOG_LEVEL: 'info',
      LOG_FILE: undefined,
    });
    const script = [
      'set -eo pipefail',
      ...run.map((block) => block.code.replaceAll('http://localhost:4000', replica.base)),
      'printf "\\n== KEY=%s CODE=%s\\n" "$KEY" "$CODE"',
    ].join('\n');
    output = await promisify(execFile)('bash', ['-c', script], {
      cwd: ROOT,
      env: { ...process.env, DASHBOARD_JWT_SECRET: SECRET, LOG_LEVEL: 'silent' },
      maxBuffer: 16 * 1024 * 1024,
    });
  }, 120_000);

  afterAll(() => replica?.process.kill('SIGKILL'));

  test('they make a key and a short link, and the link redirects', () => {
    const [, key, code] = /^== KEY=(\S*) CODE=(\S*)$/m.exec(output.stdout) ?? [];
    expect(key).toMatch(/^svc_test_/);
    expect(code).toMatch(/^[0-9A-Za-z]{8}$/);
    expect(output.stdout).toContain('HTTP/1.1 302 Found');
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
    expect(output.stdout).not.toContain('"errors"');
  });
});
