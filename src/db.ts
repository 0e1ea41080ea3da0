// The one PrismaClient, on embedded PGlite (default) or a PostgreSQL server (DATABASE_URL).
// Both run the same schema and migrations; the query engine is WASM, never a native binary.
import { mkdirSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { config } from './config';
import { PrismaClient } from './generated/prisma/client';
import { openPGlite } from './pglite';

/** One connection for scripts that need plain multi-statement SQL (the migration applier). */
export interface SqlConnection {
  exec(sql: string): Promise<void>;
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
}

interface Backend {
  prisma: PrismaClient;
  withConnection<T>(work: (connection: SqlConnection) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A PGlite adapter that opens the database at its first query, not at construction. */
function lazyPgliteAdapter(open: () => PGlite): SqlDriverAdapterFactory {
  const { provider, adapterName } = new PrismaPGlite(undefined as never);
  return { provider, adapterName, connect: () => new PrismaPGlite(open()).connect() };
}

/**
 * The query plan cache: Prisma compiles each query shape into a plan once and reuses it (least
 * recently used out first); without it the WebAssembly query compiler runs on every call, the
 * largest single share of a list request's CPU. 1000 plans is Prisma's default, stated here because
 * the service's speed depends on it (`take`, `skip`, booleans and enum values each make a shape).
 */
const QUERY_PLAN_CACHE_SIZE = 1000;

function prismaClient(adapter: SqlDriverAdapterFactory): PrismaClient {
  return new PrismaClient({ adapter, queryPlanCacheMaxSize: QUERY_PLAN_CACHE_SIZE });
}

function pgliteBackend(dataDir: string): Backend {
  // Opened on first use: a module that only imports the client (a pure unit test) starts nothing.
  let pglite: PGlite | undefined;
  const open = () => {
    if (!pglite) {
      if (!dataDir.includes('://')) mkdirSync(dataDir, { recursive: true });
      pglite = openPGlite(dataDir);
    }
    return pglite;
  };
  let previousTurn: Promise<unknown> = Promise.resolve();
  const connection: SqlConnection = {
    exec: async (sql) => {
      await open().exec(sql);
    },
    query: async <Row>(sql: string, params?: unknown[]) =>
      (await open().query<Row>(sql, params)).rows,
  };
  return {
    prisma: prismaClient(lazyPgliteAdapter(open)),
    // PGlite is one session: scripts using it take turns, so their transactions never interleave.
    withConnection(work) {
      const turn = previousTurn.then(() => work(connection));
      previousTurn = turn.catch(() => undefined);
      return turn;
    },
    // PGlite starts asynchronously; close it only once it is up.
    close: async () => {
      if (!pglite) return;
      await pglite.waitReady;
      await pglite.close();
    },
  };
}

function postgresBackend(connectionString: string, schema: string): Backend {
  const pool = new pg.Pool({
    connectionString,
    // A statement outliving the request deadline is cancelled by the server itself.
    // `public` after the schema: the extensions live there (migration list_and_search_indexes).
    options: `-c search_path="${schema}",public -c statement_timeout=${config.requestTimeoutMs}`,
    max: 10,
    connectionTimeoutMillis: 5_000,
  });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  return {
    prisma: prismaClient(new PrismaPg(pool, { schema })),
    async withConnection(work) {
      const client = await pool.connect();
      try {
        return await work({
          exec: async (sql) => {
            await client.query(sql);
          },
          query: async <Row>(sql: string, params?: unknown[]) =>
            (await client.query(sql, params)).rows as Row[],
        });
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

const backend = config.databaseUrl
  ? postgresBackend(config.databaseUrl, config.databaseSchema)
  : pgliteBackend(config.pgliteDataDir);

export const prisma = backend.prisma;
export const withSqlConnection = backend.withConnection;
export const isEmbeddedDatabase = !config.databaseUrl;

let closing: Promise<void> | undefined;

/** Closes the client and the database connection; later calls wait for the first. */
export function closeDatabase(): Promise<void> {
  closing ??= prisma.$disconnect().then(() => backend.close());
  return closing;
}
