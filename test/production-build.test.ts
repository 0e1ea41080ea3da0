// `npm run build` and its output: node alone runs dist/server.js in production mode (no tsx, no
// TypeScript at run time), migrates, answers readiness and authenticated routes, and exits 0 on
// SIGTERM. The same path CI checks outside a container with production dependencies only
// (scripts/check-production-path.sh).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { esbuildFlags } from '../bench/support/build';
import { config } from '../src/platform/config';
import { useTestDatabase } from './support/app';
import { startCollector } from './support/collector';
import { createApiKey } from './support/factories';
import { startReplica } from './support/replica';
import { until } from './support/wait';

useTestDatabase();

const ROOT = path.join(__dirname, '..');

beforeAll(() => {
  const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, encoding: 'utf8' });
  expect(build.status).toBe(0);
}, 180_000);

const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: { build: string };
};

/** The package an import path belongs to: `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
function packageOf(importPath: string): string {
  const parts = importPath.split('/');
  return importPath.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

test("the build targets the Node.js production runs (.nvmrc), and the type check uses that Node's types", () => {
  const major = readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim().split('.')[0];
  expect(packageJson.scripts.build.split(/\s+/)).toContain(`--target=node${major}`);
  expect(packageJson.devDependencies['@types/node']!.split('.')[0]).toBe(major);
});

test('the build bundles every package but the dependencies, the only ones production installs', () => {
  const outdir = mkdtempSync(path.join(tmpdir(), 'build-'));
  try {
    // package.json's build, word for word, into a folder of its own, with esbuild's metafile.
    const entries = packageJson.scripts.build
      .split(/\s+/)
      .slice(1)
      .filter((word) => !word.startsWith('--'));
    const build = spawnSync(
      path.join(ROOT, 'node_modules', '.bin', 'esbuild'),
      [
        ...entries,
        ...esbuildFlags(packageJson.scripts.build),
        `--outdir=${outdir}`,
        `--metafile=${path.join(outdir, 'meta.json')}`,
        '--log-level=warning',
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect({ status: build.status, stderr: build.stderr }).toEqual({ status: 0, stderr: '' });
    const metafile = JSON.parse(readFileSync(path.join(outdir, 'meta.json'), 'utf8')) as Metafile;
    const external = new Set(
      Object.values(metafile.outputs)
        .flatMap((output) => output.imports)
        .filter((entry) => entry.external)
        .map((entry) => entry.path.replace(/^node:/, ''))
        // pg's native binding is required only when pg.native is asked for, and never installed.
        .filter((name) => !builtinModules.includes(name) && name !== 'pg-native')
        .map(packageOf),
    );
    // PGlite and Swagger UI read their own files, GraphiQL's page is loaded when it is served;
    // nothing else is left to node_modules.
    const runtime = Object.keys(packageJson.dependencies);
    expect(runtime).toEqual([
      '@electric-sql/pglite',
      '@graphql-yoga/render-graphiql',
      'swagger-ui-dist',
    ]);
    expect([...external].sort()).toEqual(runtime);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}, 180_000);

test('the postinstall of a production install has nothing to generate', () => {
  // Outside the repository, where no development dependency (tsx) can be resolved.
  const dir = mkdtempSync(path.join(tmpdir(), 'postinstall-'));
  try {
    copyFileSync(path.join(ROOT, 'scripts/postinstall.cjs'), path.join(dir, 'postinstall.cjs'));
    const run = spawnSync(process.execPath, ['postinstall.cjs'], { cwd: dir, encoding: 'utf8' });
    expect({ status: run.status, stdout: run.stdout }).toEqual({
      status: 0,
      stdout: 'postinstall: development dependencies not installed, nothing to generate\n',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the build needs no TypeScript tooling at run time', () => {
  const bundle = readFileSync(path.join(ROOT, 'dist/server.js'), 'utf8');
  expect(bundle).not.toMatch(/require\("(tsx|typescript|esbuild)["/]/);
});

test('node runs dist/server.js: ready, keys checked, spans exported, SIGTERM exits 0', async () => {
  const collector = await startCollector();
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
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '50',
      ...database,
    },
    'dist/server.js',
  );
  try {
    // Ready once its connections are up: Redis's starts with the app, just before it listens.
    await until(
      async () => (await fetch(`${server.base}/readyz`)).status === 200,
      'the service to be ready',
    );
    // The banner says where it listens (every interface, in production) and its public address.
    const port = new URL(server.base).port;
    expect(server.output()).toContain(
      `Affiliate network API listening on [::]:${port}, public address https://api.example.com\n` +
        '  GraphQL:         https://api.example.com/graphql\n' +
        '  API reference:   https://api.example.com/docs',
    );
    // On PostgreSQL the service shares this test's schema: a key made here opens the catalog there
    // (a live key: production takes live keys). The embedded database is the child's own and holds
    // no key: a key is refused.
    const { apiKey } = config.databaseUrl
      ? await createApiKey('partner', { env: 'live' })
      : { apiKey: 'svc_live_nokey001_NoSuchSecret00000000000000000' };
    const answer = await fetch(`${server.base}/api/partner/organizations`, {
      headers: { 'x-api-key': apiKey },
    });
    expect(answer.status).toBe(config.databaseUrl ? 200 : 401);
    // Bundled, the route's server span and Prisma's spans of its key lookup reach the collector.
    expect(await collector.requestWith('GET /api/partner/organizations')).toMatch(
      /^POST \/v1\/traces /,
    );
    expect(await collector.requestWith('prisma:client:operation')).toMatch(/^POST \/v1\/traces /);
    server.process.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  } finally {
    server.process.kill('SIGKILL');
    collector.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);
