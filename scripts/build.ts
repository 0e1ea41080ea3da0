// `npm run build`: compiles the service into dist/ (server.js, migrate.js) with esbuild, bundling
// every package it imports except the `dependencies` of package.json: the packages that read their
// own files at run time (PGlite's WebAssembly and data files, Swagger UI's assets), which
// production installs with `npm ci --omit=dev`. Everything else, Prisma's client and yoga
// included, is bundled and therefore a devDependency, so a production install brings neither the
// Prisma CLI nor TypeScript (optional peers of @prisma/client) nor tsx.
import { builtinModules } from 'node:module';
import { build, type Metafile } from 'esbuild';
import packageJson from '../package.json';

/** The packages dist/ loads from node_modules at run time. */
export const RUNTIME_PACKAGES = Object.keys(packageJson.dependencies);

/** Required only when asked for, and never installed: pg's native binding (`pg.native`). */
const OPTIONAL_IMPORTS = ['pg-native'];

/** The package an import path belongs to: `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
export function packageOf(importPath: string): string {
  const parts = importPath.split('/');
  return importPath.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The build's imports from outside it that a production install would not satisfy. */
export function missingAtRunTime(metafile: Metafile): string[] {
  const external = Object.values(metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((entry) => entry.external)
    .map((entry) => entry.path.replace(/^node:/, ''));
  return [...new Set(external)]
    .filter(
      (path) =>
        !builtinModules.includes(path) &&
        !RUNTIME_PACKAGES.includes(packageOf(path)) &&
        !OPTIONAL_IMPORTS.includes(path),
    )
    .sort();
}

export async function buildService(outdir = 'dist'): Promise<Metafile> {
  const { metafile } = await build({
    entryPoints: ['src/server.ts', 'scripts/migrate.ts'],
    entryNames: '[name]',
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: [...RUNTIME_PACKAGES.flatMap((name) => [name, `${name}/*`]), ...OPTIONAL_IMPORTS],
    // Maps for `node --enable-source-maps`; the sources stay out (GraphiQL alone would add 9 MB).
    sourcemap: true,
    sourcesContent: false,
    metafile: true,
    logLevel: 'warning',
  });
  return metafile;
}

if (require.main === module) {
  buildService().then((metafile) => {
    const missing = missingAtRunTime(metafile);
    if (missing.length > 0) {
      console.error(
        `dist/ imports ${missing.join(', ')} at run time, which production does not install: ` +
          'add it to "dependencies" in package.json, or let esbuild bundle it',
      );
      process.exit(1);
    }
  });
}
