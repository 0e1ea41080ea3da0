// Prisma CLI configuration. Migrations are authored against embedded PGlite through the WASM
// schema engine, so no native engine is ever downloaded (see docs/decisions.md).
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type {
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { defineConfig } from 'prisma/config';
import { openPGlite } from './src/pglite';

// The datasource's `url = env("DATABASE_URL")` must resolve or the CLI falls back to the native
// engine and tries to download it; the embedded default has no URL, so give it a placeholder.
process.env.DATABASE_URL ||= 'postgresql://embedded@localhost/pglite';

/**
 * Prisma replays the migration history on the shadow database with `executeRaw`, which PGlite
 * runs as one prepared statement; a script of several statements needs PGlite's `exec`.
 * (The casts: the adapter is typed against older driver-adapter-utils, see src/db.ts.)
 */
async function connectPGlite(pglite: PGlite): Promise<SqlDriverAdapter> {
  const adapter = (await new PrismaPGlite(pglite).connect()) as unknown as SqlDriverAdapter;
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.executeRaw = async (query) => {
    if (query.args.length > 0) return executeRaw(query);
    await pglite.exec(query.sql);
    return 0;
  };
  return adapter;
}

class PGliteForMigrate extends PrismaPGlite {
  constructor(private readonly pglite: PGlite) {
    super(pglite);
  }

  override connect() {
    return connectPGlite(this.pglite) as never;
  }

  override connectToShadowDb() {
    return connectPGlite(openPGlite()) as never;
  }
}

export default defineConfig({
  schema: path.join('prisma', 'schema.prisma'),
  migrations: { path: path.join('prisma', 'migrations') },
  experimental: { adapter: true },
  engine: 'js',
  // `migrate dev` authors migrations against a throw-away in-memory database; PGLITE_DATA_DIR
  // points the CLI at a real data folder instead (`prisma migrate status` on the embedded database).
  async adapter() {
    return new PGliteForMigrate(
      openPGlite(process.env.PGLITE_DATA_DIR),
    ) as unknown as SqlMigrationAwareDriverAdapterFactory;
  },
});
