// The client as an integrator gets it: `npm pack ./client` makes a tarball of the built JavaScript,
// its types and its README (nothing of the service); installed into an empty project, the README's
// example type-checks against it with the repository's TypeScript and the newest on the registry,
// skipLibCheck off, in a CommonJS and an ES module project, and runs as the README says against the
// app; docs/webhooks.md's receiver compiles against its webhook types. The package's version is
// the API document's.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createIsolatedApp, listen, useTestDatabase } from './support/app';
import { createAffiliate, createBrand, createOrder } from './support/factories';
import { freePort } from './support/replica';

useTestDatabase();

const ROOT = path.join(__dirname, '..');
const CLIENT = path.join(ROOT, 'client');
const TSC = path.join(ROOT, 'node_modules', '.bin', 'tsc');
/** `npm view typescript version` when this was written; installed into the consumer's project. */
const NEWEST_TYPESCRIPT = '7.0.2';
const execFileAsync = promisify(execFile);
const versionOf = (name: string): string =>
  (
    JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

/** The first ```ts block of the client's README. */
function readmeExample(): string {
  const readme = readFileSync(path.join(CLIENT, 'README.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('client/README.md has no ts example');
  return block[1]!;
}

/** docs/webhooks.md's receiver: the ```ts block that handles every event the service sends. */
function webhookReceiverExample(): string {
  const page = readFileSync(path.join(ROOT, 'docs', 'webhooks.md'), 'utf8');
  const block = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].find(([, code]) =>
    code!.includes('function handle(event: Webhook)'),
  );
  if (!block) throw new Error('docs/webhooks.md has no receiver example');
  return block[1]!;
}

/** The README's tsconfig.json blocks: the ES module project's, then the CommonJS one's. */
function readmeTsconfigs(): [esm: string, commonjs: string] {
  const readme = readFileSync(path.join(CLIENT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map(([, json]) => json!);
  if (blocks.length !== 2) throw new Error('client/README.md has not two tsconfig.json blocks');
  return [blocks[0]!, blocks[1]!];
}

/** The commands of the README's block that runs the example. */
function readmeRunCommands(): string[] {
  const readme = readFileSync(path.join(CLIENT, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].find(([, code]) =>
    code!.includes('example.ts'),
  );
  if (!block) throw new Error('client/README.md says nowhere how to run example.ts');
  return block[1]!.trim().split('\n');
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

/** Node.js runs a .ts file itself from 22.18 (and 23.6) on. */
const nodeRunsTypeScript = (() => {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);
})();
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

  // An integrator's project: the client, Node's types, the newest TypeScript and tsx.
  writeFileSync(path.join(project, 'package.json'), '{ "name": "consumer", "private": true }\n');
  run(
    'npm',
    [
      'install',
      `./${tarball}`,
      `typescript@${NEWEST_TYPESCRIPT}`,
      `@types/node@${versionOf('@types/node')}`,
      `tsx@${versionOf('tsx')}`,
      `standardwebhooks@${versionOf('standardwebhooks')}`,
      ...['--prefer-offline', '--no-audit', '--no-fund'],
    ],
    project,
  );
  // The same example in a CommonJS project and in an ES module one.
  const esm = path.join(project, 'esm');
  mkdirSync(esm);
  writeFileSync(path.join(esm, 'package.json'), '{ "type": "module" }\n');
  for (const dir of [project, esm]) writeFileSync(path.join(dir, 'example.ts'), readmeExample());

  const newest = path.join(project, 'node_modules', '.bin', 'tsc');
  const checks: [compiler: string, dir: string, module: string][] = [
    [TSC, project, 'commonjs'],
    [TSC, esm, 'nodenext'],
    [newest, project, 'commonjs'],
    [newest, project, 'nodenext'],
    [newest, esm, 'nodenext'],
    [newest, esm, 'preserve'],
  ];
  for (const [compiler, dir, module] of checks) {
    run(
      compiler,
      [
        ...['--strict', '--skipLibCheck', 'false', '--noEmit', '--module', module],
        ...['--target', 'es2022', '--lib', 'es2023,dom', '--types', 'node', 'example.ts'],
      ],
      dir,
    );
  }
  // docs/webhooks.md's receiver switches over every event the client types: one the service
  // sends and the receiver misses does not compile.
  writeFileSync(path.join(project, 'receiver.ts'), webhookReceiverExample());
  run(
    newest,
    [
      ...['--strict', '--noEmit', '--module', 'commonjs', '--target', 'es2022'],
      ...['--types', 'node', 'receiver.ts'],
    ],
    project,
  );
  // And as the README sets a fresh project up: its tsconfig.json, `tsc -p .`.
  const [esmConfig, commonjsConfig] = readmeTsconfigs();
  for (const [dir, tsconfig] of [
    [esm, esmConfig],
    [project, commonjsConfig],
  ] as const) {
    writeFileSync(path.join(dir, 'tsconfig.json'), tsconfig);
    run(newest, ['-p', '.'], dir);
  }

  const { affiliateId, apiKey } = await createAffiliate();
  const brand = await createBrand({ websiteUrl: 'https://shop.example' });
  await createOrder(affiliateId, brand.id, { status: 'PAID', earningsMinor: 1234 });
  // The README's commands, pointed at this app: tsx, and node itself where it runs TypeScript.
  const commands = readmeRunCommands().filter((line) => line.includes('example.ts'));
  expect(commands.map((line) => line.replace(/#.*/, '').trim())).toEqual([
    'API_KEY=svc_test_demoaff1_DemoAffiliateSecret000000110HKnD npx tsx example.ts',
    'API_KEY=svc_test_demoaff1_DemoAffiliateSecret000000110HKnD node example.ts',
  ]);
  // tsx in both projects; node itself in the ES module one, as the README says.
  const runners: [dir: string, command: string, ...args: string[]][] = [
    [project, 'npx', 'tsx', 'example.ts'],
    [esm, 'npx', 'tsx', 'example.ts'],
  ];
  if (nodeRunsTypeScript) runners.push([esm, process.execPath, 'example.ts']);
  for (const [run, [dir, command, ...args]] of runners.entries()) {
    // Asynchronously: the app answering it runs in this process.
    const output = await execFileAsync(command, args, {
      cwd: dir,
      env: { ...process.env, API_KEY: apiKey, API_BASE_URL: server.base },
    });
    // Nothing of the example's own; npm's notices about this machine's configuration aside.
    expect(output.stderr.split('\n').filter((line) => line && !/^npm warn /.test(line))).toEqual(
      [],
    );
    const lines = output.stdout.trim().split('\n');
    expect(lines[0]).toBe('1 12.34');
    // The first run makes the short link; later ones find it.
    expect(lines.at(-1)).toMatch(/^https?:\/\/\S+\/s\/[0-9A-Za-z]{8} (true|false)$/);
    expect(lines.at(-1)!.endsWith(run === 0 ? ' true' : ' false')).toBe(true);
  }

  // Nothing listening: the client's own error, not fetch's TypeError.
  const nowhere = `http://127.0.0.1:${await freePort()}`;
  const unreachable = await execFileAsync('npx', ['tsx', 'example.ts'], {
    cwd: project,
    env: { ...process.env, API_KEY: apiKey, API_BASE_URL: nowhere },
  }).catch((error: { code: number; stderr: string }) => error);
  expect(unreachable).toMatchObject({ code: 1 });
  expect(unreachable.stderr).toContain(
    `NETWORK_ERROR (0): could not reach ${nowhere}: connect ECONNREFUSED`,
  );
  expect(unreachable.stderr).not.toContain('TypeError');
}, 300_000);

test('in a clone without npm install, packing says what to run first', () => {
  const clone = mkdtempSync(path.join(tmpdir(), 'client-clone-'));
  try {
    cpSync(CLIENT, clone, {
      recursive: true,
      filter: (source) => !/[/\\](node_modules|dist)$/.test(source),
    });
    const result = spawnSync('npm', ['pack', '--dry-run'], { cwd: clone, encoding: 'utf8' });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(
      "The client is built with the API repository's TypeScript: run `npm install` in the repository",
    );
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
});
