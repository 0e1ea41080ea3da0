// Prisma CLI configuration. The CLI only generates here (`npm run generate`): Prisma 7's migrate
// commands need its native schema engine, so migrations are authored by scripts/new-migration.ts
// through the WebAssembly schema engine on PGlite and applied by src/platform/migrations.ts
// (see docs/decisions.md, Migrations).
import path from 'node:path';
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: path.join('prisma', 'schema.prisma'),
  migrations: { path: path.join('prisma', 'migrations') },
});
