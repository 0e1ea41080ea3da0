// What the harness runs is built as production builds it, and run as production runs it: on the
// production Node (scripts/production-node.sh), node alone. The service is compiled by the
// checkout's own `npm run build` (dist/server.js, dist/migrate.js); the reference servers
// (bench/references) are bundled by esbuild with that script's own flags into
// bench/results/local/build/ (not committed; packages still resolve from the repository's
// node_modules). Each is built once per harness process, when first started.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.join(__dirname, '..', '..');
const REFERENCES_DIR = path.join(REPO_ROOT, 'bench', 'references');
export const REFERENCE_BUILD_DIR = path.join(REPO_ROOT, 'bench', 'results', 'local', 'build');

/** The servers of bench/references, each an entry of the bundle. */
export const REFERENCE_SERVERS = [
  'ceilingServer',
  'stackFloorServer',
  'peerServer',
  'limitServer',
] as const;
export type ReferenceServer = (typeof REFERENCE_SERVERS)[number];

function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout}${stderr}`);
  }
}

let productionNodePath: string | undefined;

/** The Node.js binary production runs (the version in .nvmrc), fetched once if need be. */
export function productionNode(): string {
  productionNodePath ??= run('bash', ['scripts/production-node.sh'], REPO_ROOT).trim();
  return productionNodePath;
}

/** Its version, as `node --version` prints it. */
export function productionNodeVersion(): string {
  return run(productionNode(), ['--version'], REPO_ROOT).trim();
}

/**
 * The flags of the esbuild command of package.json's "build" script, without its entry points and
 * output folder, so the reference servers are bundled exactly as the service is.
 */
export function esbuildFlags(buildScript: string): string[] {
  const [command, ...words] = buildScript.trim().split(/\s+/);
  if (command !== 'esbuild' || words.some((word) => /['"\\$;&|]/.test(word))) {
    throw new Error(`the "build" script is not a plain esbuild command: ${buildScript}`);
  }
  return words.filter((word) => word.startsWith('--') && !word.startsWith('--outdir='));
}

const built = new Set<string>();

/** `npm run build` in the checkout, once; the path of the compiled server, from the checkout. */
export function buildService(dir: string): string {
  if (!built.has(dir)) {
    run('npm', ['run', '--silent', 'build'], dir);
    built.add(dir);
  }
  return path.join('dist', 'server.js');
}

/** The reference servers bundled, once; the path of the one asked for. */
export function referenceBundle(server: ReferenceServer): string {
  if (!built.has(REFERENCE_BUILD_DIR)) {
    const { scripts } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: { build: string };
    };
    const entries = REFERENCE_SERVERS.map((name) => path.join(REFERENCES_DIR, `${name}.ts`));
    const esbuild = path.join(REPO_ROOT, 'node_modules', '.bin', 'esbuild');
    const flags = [...esbuildFlags(scripts.build), `--outdir=${REFERENCE_BUILD_DIR}`];
    run(esbuild, [...entries, ...flags, '--log-level=warning'], REPO_ROOT);
    built.add(REFERENCE_BUILD_DIR);
  }
  return path.join(REFERENCE_BUILD_DIR, `${server}.js`);
}
