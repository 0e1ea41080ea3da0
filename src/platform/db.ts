// The one PrismaClient, on embedded PGlite (default) or a PostgreSQL server (DATABASE_URL).
// Both run the same schema and migrations; the query engine is WASM, never a native binary.
import { mkdirSync, readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { config } from './config';
import { PrismaClient } from '../generated/prisma/client';
import { gaugeOnScrape } from './metrics';
import { openPGlite } from './pglite';

/** One connection for scripts that need plain multi-statement SQL (the migration applier). */
export interface SqlConnection {
  exec(sql: string): Promise<void>;
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
}

/** What a listener on a database notification channel is told. */
export interface ChannelListener {
  onMessage(payload: string): void;
  /** Whether notifications are heard right now: false while the connection is down. */
  onListening(listening: boolean): void;
}

interface Backend {
  prisma: PrismaClient;
  withConnection<T>(work: (connection: SqlConnection) => Promise<T>): Promise<T>;
  listen(channel: string, listener: ChannelListener): void;
  close(): Promise<void>;
}

/** Plain SQL on a PGlite, as the migration applier runs it. */
export function sqlConnectionOf(pglite: PGlite): SqlConnection {
  return {
    exec: async (sql) => {
      await pglite.exec(sql);
    },
    query: async <Row>(sql: string, params?: unknown[]) =>
      (await pglite.query<Row>(sql, params)).rows,
  };
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

function pgliteBackend(dataDir: string, template: string | undefined): Backend {
  // Opened on first use: a module that only imports the client (a pure unit test) starts nothing.
  let pglite: PGlite | undefined;
  const open = () => {
    if (!pglite) {
      if (!dataDir.includes('://')) mkdirSync(dataDir, { recursive: true });
      const fromTemplate = template && dataDir.startsWith('memory://');
      pglite = openPGlite(dataDir, fromTemplate ? new Blob([readFileSync(template)]) : undefined);
    }
    return pglite;
  };
  let previousTurn: Promise<unknown> = Promise.resolve();
  const connection: SqlConnection = {
    exec: (sql) => sqlConnectionOf(open()).exec(sql),
    query: (sql, params) => sqlConnectionOf(open()).query(sql, params),
  };
  return {
    prisma: prismaClient(lazyPgliteAdapter(open)),
    // One process, one database: notifications of its own commits arrive as long as it lives. A
    // LISTEN still queued when the database closes is refused; nothing is left to hear then.
    listen(channel, listener) {
      open()
        .listen(channel, listener.onMessage)
        .then(
          () => listener.onListening(true),
          () => undefined,
        );
    },
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

/** Many listeners per channel over one backend LISTEN each; a late listener hears the state. */
function sharedChannels(listen: Backend['listen']) {
  const channels = new Map<string, { listeners: Set<ChannelListener>; listening: boolean }>();
  return (channel: string, listener: ChannelListener): (() => void) => {
    let shared = channels.get(channel);
    if (!shared) {
      const opened = { listeners: new Set<ChannelListener>(), listening: false };
      shared = opened;
      channels.set(channel, opened);
      listen(channel, {
        onMessage: (payload) => opened.listeners.forEach((each) => each.onMessage(payload)),
        onListening: (listening) => {
          opened.listening = listening;
          opened.listeners.forEach((each) => each.onListening(listening));
        },
      });
    }
    shared.listeners.add(listener);
    if (shared.listening) listener.onListening(true);
    const { listeners } = shared;
    return () => listeners.delete(listener);
  };
}

/** How soon a lost notification connection is opened again. */
const RELISTEN_AFTER_MS = 1_000;

/**
 * LISTEN on a connection of its own (a pooled one goes back to the pool), opened again whenever it
 * is lost; the listener hears whether notifications may be missed meanwhile.
 */
function postgresListener(connectionString: string) {
  const clients = new Set<pg.Client>();
  let closed = false;
  function listen(channel: string, listener: ChannelListener): void {
    if (closed) return;
    const client = new pg.Client({ connectionString });
    clients.add(client);
    let lost = false;
    const relisten = () => {
      if (lost) return;
      lost = true;
      clients.delete(client);
      listener.onListening(false);
      client.end().catch(() => undefined);
      if (!closed) setTimeout(() => listen(channel, listener), RELISTEN_AFTER_MS).unref();
    };
    client.on('error', relisten);
    client.on('end', relisten);
    client.on('notification', ({ payload }) => listener.onMessage(payload ?? ''));
    client
      .connect()
      .then(() => client.query(`LISTEN "${channel}"`))
      .then(() => !lost && listener.onListening(true), relisten);
  }
  async function close(): Promise<void> {
    closed = true;
    await Promise.all([...clients].map((client) => client.end().catch(() => undefined)));
  }
  return { listen, close };
}

/** Distinct statements a replica prepares at most: each connection keeps every one it prepared. */
const MAX_NAMED_STATEMENTS = 256;
/** Distinct statements seen once that are remembered, waiting to be seen again. */
const MAX_SEEN_ONCE = 10_000;

/**
 * Names for the statements a replica sends again and again, so each connection parses and plans
 * them once and then only binds and executes them (`pg` prepares a named statement on its first
 * use per connection). A statement is named the second time it is seen, so one-off SQL never takes
 * a name, and at most MAX_NAMED_STATEMENTS are named: neither `pg` nor the server ever forgets one.
 * The empty name is the protocol's unnamed statement, parsed anew each time.
 */
export function statementNamer(
  maxNamed = MAX_NAMED_STATEMENTS,
  maxSeenOnce = MAX_SEEN_ONCE,
): (query: { sql: string }) => string {
  const names = new Map<string, string | null>();
  let named = 0;
  return ({ sql }) => {
    const known = names.get(sql);
    if (known) return known;
    if (known === null && named < maxNamed) {
      const name = `s${named++}`;
      names.set(sql, name);
      return name;
    }
    if (known === undefined && names.size - named < maxSeenOnce) names.set(sql, null);
    return '';
  };
}

function postgresBackend(connectionString: string, schema: string): Backend {
  const pool = new pg.Pool({
    connectionString,
    // A statement outliving the request deadline is cancelled by the server itself.
    // `public` after the schema: the extensions live there (migration list_and_search_indexes).
    options: `-c search_path="${schema}",public -c statement_timeout=${config.requestTimeoutMs}`,
    max: config.databasePoolSize,
    connectionTimeoutMillis: 5_000,
  });
  const listener = postgresListener(connectionString);
  gaugeOnScrape(
    'database_pool_connections',
    "The replica's PostgreSQL connections: open (total), idle, and requests waiting for one",
    (gauge) => {
      gauge.set({ state: 'total' }, pool.totalCount);
      gauge.set({ state: 'idle' }, pool.idleCount);
      gauge.set({ state: 'waiting' }, pool.waitingCount);
    },
    ['state'],
  );
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  return {
    prisma: prismaClient(
      new PrismaPg(pool, {
        schema,
        ...(config.databaseNamedStatements && { statementNameGenerator: statementNamer() }),
      }),
    ),
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
    listen: listener.listen,
    close: async () => {
      await listener.close();
      await pool.end();
    },
  };
}

const backend = config.databaseUrl
  ? postgresBackend(config.databaseUrl, config.databaseSchema)
  : pgliteBackend(config.pgliteDataDir, config.pgliteTemplate);

export const prisma = backend.prisma;
export const withSqlConnection = backend.withConnection;
/**
 * Listens to a notification channel of the database (NOTIFY) until the returned function is
 * called. The listeners of a channel share one LISTEN, opened at the first and kept while the
 * process lives.
 */
export const listenToDatabase = sharedChannels(backend.listen);
export const isEmbeddedDatabase = !config.databaseUrl;

let closing: Promise<void> | undefined;

/** Closes the client and the database connection; later calls wait for the first. */
export function closeDatabase(): Promise<void> {
  closing ??= prisma.$disconnect().then(() => backend.close());
  return closing;
}
