// The client as an integrator gets it: `npm pack ./client` makes a tarball of the built JavaScript,
// its types and its README (nothing of the service); installed into an empty project, the README's
// example type-checks against it and runs against the app. The package's version is the API
// document's.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createIsolatedApp, listen, useTestDatabase } from './support/app';
import { createAffiliate, createBrand, createOrder } from './support/factories';

useTestDatabase();

const ROOT = path.join(__dirname, '..');
const CLIENT = path.join(ROOT, 'client');
const TSC = path.join(ROOT, 'node_modules', '.bin', 'tsc');
const execFileAsync = promisify(execFile);

/** The first ```ts block of the client's README. */
function readmeExample(): string {
  const readme = readFileSync(path.join(CLIENT, 'README.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('client/README.md has no ts example');
  return block[1]!;
}

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: process.env });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')}: ${result.status}\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

let project: string;
let server: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  project = mkdtempSync(path.join(tmpdir(), 'client-consumer-'));
  server = await listen(createIsolatedApp());
}, 60_000);

afterAll(async () => {
  await server.close();
  rmSync(project, { recursive: true, force: true });
});

test('its version is the API document version', async () => {
  const document = (await (await fetch(`${server.base}/openapi.json`)).json()) as {
    info: { version: string };
  };
  const pkg = JSON.parse(readFileSync(path.join(CLIENT, 'package.json'), 'utf8')) as {
    version: string;
  };
  expect(pkg.version).toBe(document.info.version);
});

test('packed, installed and used as its README shows', async () => {
  const tarball = run('npm', ['pack', '--silent', '--pack-destination', project], CLIENT)
    .trim()
    .split('\n')
    .at(-1)!;
  const files = execFileSync('tar', ['-tzf', path.join(project, tarball)], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .sort();
  expect(files).toEqual([
    'package/README.md',
    'package/dist/index.d.ts',
    'package/dist/index.js',
    'package/dist/openapi.gen.d.ts',
    'package/dist/openapi.gen.js',
    'package/package.json',
  ]);

  writeFileSync(path.join(project, 'package.json'), '{ "name": "consumer", "private": true }\n');
  run('npm', ['install', `./${tarball}`, '--prefer-offline', '--no-audit', '--no-fund'], project);

  // The README's example, pointed at this app, checked by the compiler and then run.
  const example = readmeExample().replace('https://api.example.com', server.base);
  writeFileSync(path.join(project, 'example.ts'), example);
  run(
    TSC,
    [
      ...['--strict', '--module', 'commonjs', '--target', 'es2022', '--lib', 'es2023,dom'],
      // An integrator's project has Node's types; this one borrows the service's.
      ...['--typeRoots', path.join(ROOT, 'node_modules', '@types'), '--types', 'node'],
      'example.ts',
    ],
    project,
  );
  const { affiliateId, apiKey } = await createAffiliate();
  const brand = await createBrand({ websiteUrl: 'https://shop.example' });
  await createOrder(affiliateId, brand.id, { status: 'PAID', earningsMinor: 1234 });
  // Asynchronously: the app answering it runs in this process.
  const output = await execFileAsync(process.execPath, ['example.js'], {
    cwd: project,
    env: { ...process.env, API_KEY: apiKey },
  });
  expect(output.stderr).toBe('');
  const lines = output.stdout.trim().split('\n');
  expect(lines[0]).toBe('1 12.34');
  expect(lines.at(-1)).toMatch(/^https?:\/\/\S+\/s\/[0-9A-Za-z]{8} true$/);
}, 180_000);
