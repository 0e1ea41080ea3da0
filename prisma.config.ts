// Prisma CLI configuration. Migrations are authored against embedded PGlite through the WASM
// schema engine, so no native engine is ever downloaded (see docs/decisions.md).
import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PGlite } from '@electric-sql/pglite';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';

// The datasource's `url = env("DATABASE_URL")` must resolve or the CLI falls back to the native
// engine and tries to download it; the embedded default has no URL, so give it a placeholder.
process.env.DATABASE_URL ||= 'postgresql://embedded@localhost/pglite';

export default defineConfig({
  schema: path.join('prisma', 'schema.prisma'),
  migrations: { path: path.join('prisma', 'migrations') },
  experimental: { adapter: true },
  engine: 'js',
  // `migrate dev` authors migrations against a throw-away in-memory database; PGLITE_DATA_DIR
  // points the CLI at a real data folder instead (`prisma migrate status` on the embedded database).
  // The cast: the adapter is typed against older driver-adapter-utils (see src/db.ts).
  async adapter() {
    return new PrismaPGlite(new PGlite(process.env.PGLITE_DATA_DIR)) as unknown as SqlMigrationAwareDriverAdapterFactory;
  },
});
