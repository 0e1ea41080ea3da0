// `npm run build` (and `npm pack`): compiles src/ into dist/ with the TypeScript of the repository
// the client lives in, which `npm install` there brings; without it, says so rather than "tsc: not
// found".
const { execFileSync } = require('node:child_process');

let tsc;
try {
  tsc = require.resolve('typescript/bin/tsc');
} catch {
  console.error(
    "The client is built with the API repository's TypeScript: run `npm install` in the repository, " +
      'then `npm pack ./client` again.',
  );
  process.exit(1);
}
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: __dirname, stdio: 'inherit' });
