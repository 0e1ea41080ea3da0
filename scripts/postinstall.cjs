// The postinstall: generates the Prisma client and the Pothos types (scripts/generate.ts) for
// development. A production install (`npm ci --omit=dev`) has nothing to generate: dist/ carries
// the client, bundled at build time, and the generator (the Prisma CLI, tsx) is not installed.
const { spawnSync } = require('node:child_process');

let tsx;
try {
  tsx = require.resolve('tsx/cli');
} catch {
  console.log('postinstall: development dependencies not installed, nothing to generate');
  process.exit(0);
}
const { status, error } = spawnSync(process.execPath, [tsx, 'scripts/generate.ts'], {
  stdio: 'inherit',
});
if (error) throw error;
process.exit(status ?? 1);
