// `npm run build` and its output: node alone runs dist/server.js in production mode (no tsx, no
// TypeScript at run time), migrates, answers readiness and authenticated routes, and exits 0 on
// SIGTERM. The same path CI checks outside a container with production dependencies only
// (scripts/check-production-path.sh).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { config } from '../src/config';
import { useTestDatabase } from './support/app';
import { createApiKey } from './support/factories';
import { startReplica } from './support/replica';

useTestDatabase();

const ROOT = path.join(__dirname, '..');

beforeAll(() => {
  const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, encoding: 'utf8' });
  expect(build.status).toBe(0);
}, 60_000);

test('the build needs no TypeScript tooling at run time', () => {
  const bundle = readFileSync(path.join(ROOT, 'dist/server.js'), 'utf8');
  expect(bundle).not.toMatch(/require\("(tsx|typescript|esbuild)["/]/);
});

test('node runs dist/server.js: ready, keys checked, SIGTERM exits 0', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'production-build-'));
  const database = config.databaseUrl
    ? { DATABASE_URL: config.databaseUrl, DATABASE_SCHEMA: config.databaseSchema }
    : { DATABASE_URL: undefined, ALLOW_EMBEDDED_DATABASE: '1', PGLITE_DATA_DIR: dataDir };
  const server = await startReplica(
    {
      NODE_ENV: 'production',
      DASHBOARD_JWT_SECRET: 'p'.repeat(32),
      PUBLIC_BASE_URL: 'https://api.example.com',
      REDIS_URL: config.redisUrl,
      ...database,
    },
    'dist/server.js',
  );
  try {
    expect((await fetch(`${server.base}/readyz`)).status).toBe(200);
    // On PostgreSQL the service shares this test's schema: a key made here opens the catalog there.
    // The embedded database is the child's own and holds no key: a key is refused.
    const { apiKey } = config.databaseUrl
      ? await createApiKey('partner')
      : { apiKey: 'svc_live_nokey001_NoSuchSecret00000000000000000' };
    const answer = await fetch(`${server.base}/api/partner/organizations`, {
      headers: { 'x-api-key': apiKey },
    });
    expect(answer.status).toBe(config.databaseUrl ? 200 : 401);
    server.process.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  } finally {
    server.process.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);
