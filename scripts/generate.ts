// npm run generate (and the postinstall): `prisma generate`, the client and the Pothos types.
import { spawnSync } from 'node:child_process';

// Prisma 7's CLI downloads its native schema engine before any command unless this names an
// existing file; generate never runs it, so this script stands in and nothing is downloaded.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ||= __filename;

const cli = require.resolve('prisma/build/index.js');
const { status, error } = spawnSync(process.execPath, [cli, 'generate', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
if (error) throw error;
process.exit(status ?? 1);
