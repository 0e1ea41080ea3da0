// What the harness asks of PostgreSQL directly (pg, superuser `postgres`): preparing the demo
// schema, telling whether the scale schema is seeded, reading click counts, and finding the
// server's processes, whose CPU time is measured beside each server's.
import pg from 'pg';
import { generateApiKey, sha256Hex } from '../../src/auth/keyFormat';
import { SCOPES_BY_KEY_TYPE } from '../../src/auth/scopes';
import { parentPidOf } from './cpuTime';
import { DATABASE_URL, REDIS_URL, runScript } from './processes';

export const DEMO_SCHEMA = 'bench_demo';
export const SCALE_SCHEMA = 'bench_scale';

export async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh demo schema: dropped, then migrated and seeded by `scripts/seed.ts` (`npm start` seeds
 * only an empty embedded database, never a PostgreSQL server).
 */
export async function resetDemoSchema(): Promise<string> {
  await withClient((client) => client.query(`DROP SCHEMA IF EXISTS "${DEMO_SCHEMA}" CASCADE`));
  const output = await runScript('scripts/seed.ts', {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LOG_LEVEL: 'warn',
    DATABASE_URL,
    DATABASE_SCHEMA: DEMO_SCHEMA,
    REDIS_URL,
  });
  return (output.trim().split('\n').pop() ?? '').replace(/^seed: /, '');
}

export interface SchemaRows {
  /** Planner estimates (pg_class.reltuples after ANALYZE), by table; -1: never analyzed. */
  estimates: Record<string, number>;
  /** Null when the schema holds the data at scale, complete; else why not. */
  notAtScale: string | null;
}

const COUNTED_TABLES = [
  'Organization',
  'Campaign',
  'Order',
  'OrderItem',
  'ShortUrl',
  'Product',
  'User',
];

/** More orders than the demo data has: the scale seed has run. */
const SCALE_MIN_ORDERS = 10_000;

/**
 * Null when the schema or its Order table does not exist. A seed still running (or interrupted)
 * shows as secondary indexes it suspended (prisma/seed/scale/indexes.ts) or no ANALYZE yet.
 */
export async function schemaRows(schema: string): Promise<SchemaRows | null> {
  return withClient(async (client) => {
    const exists = await client.query(`SELECT to_regclass($1) AS oid`, [`"${schema}"."Order"`]);
    if (!exists.rows[0]?.oid) return null;
    const orders = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM "${schema}"."Order" LIMIT ${SCALE_MIN_ORDERS}) AS o`,
    );
    const suspendedTable = `"${schema}"."_seed_scale_suspended_index"`;
    const hasSuspendedTable = await client.query(`SELECT to_regclass($1) AS oid`, [suspendedTable]);
    const suspended = hasSuspendedTable.rows[0]?.oid
      ? Number((await client.query(`SELECT count(*) AS n FROM ${suspendedTable}`)).rows[0].n)
      : 0;
    const estimates = await client.query<{ relname: string; rows: string }>(
      `SELECT c.relname, c.reltuples::bigint AS rows FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind = 'r' AND c.relname = ANY($2)`,
      [schema, COUNTED_TABLES],
    );
    const byTable = Object.fromEntries(
      estimates.rows.map((row) => [row.relname, Number(row.rows)]),
    );
    const notAtScale =
      Number(orders.rows[0]!.n) < SCALE_MIN_ORDERS
        ? `fewer than ${SCALE_MIN_ORDERS} orders`
        : suspended > 0
          ? `the scale seed has not finished (${suspended} indexes still suspended)`
          : (byTable.Order ?? -1) < 0
            ? 'not analyzed yet (the scale seed ends with ANALYZE)'
            : null;
    return { estimates: byTable, notAtScale };
  });
}

export async function clickCountOf(schema: string, urlCode: string): Promise<number> {
  return withClient(async (client) => {
    const result = await client.query<{ clickCount: number }>(
      `SELECT "clickCount" FROM "${schema}"."ShortUrl" WHERE "urlCode" = $1`,
      [urlCode],
    );
    if (!result.rows[0]) throw new Error(`no short URL ${urlCode} in ${schema}`);
    return Number(result.rows[0].clickCount);
  });
}

export async function postgresVersion(): Promise<string> {
  return withClient(async (client) => {
    const result = await client.query<{ server_version: string }>('SHOW server_version');
    return result.rows[0]!.server_version;
  });
}

/**
 * The PostgreSQL server's main process (the postmaster): the parent of the backend serving this
 * connection, so the server the harness loads, whatever else runs on the machine.
 */
export async function postmasterPid(): Promise<number> {
  return withClient(async (client) => {
    const result = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return parentPidOf(result.rows[0]!.pid);
  });
}

/** Affiliate keys (all affiliate scopes) for each owner, in place of the last run's. */
export async function issueAffiliateKeys(
  schema: string,
  ownerIds: string[],
  perOwner: number,
): Promise<string[]> {
  const keys = ownerIds.flatMap((ownerId) =>
    Array.from({ length: perOwner }, () => ({ ownerId, ...generateApiKey('test') })),
  );
  await withClient(async (client) => {
    await client.query(`DELETE FROM "${schema}"."ApiKey" WHERE "name" = 'bench mix'`);
    for (const { ownerId, prefix, secret } of keys) {
      await client.query(
        `INSERT INTO "${schema}"."ApiKey"
           ("id", "name", "type", "version", "env", "prefix", "secretHash", "scopes", "ownerId")
         VALUES (gen_random_uuid(), 'bench mix', 'affiliate', 'v2', 'test', $1, $2, $3, $4)`,
        [prefix, sha256Hex(secret), [...SCOPES_BY_KEY_TYPE.affiliate], ownerId],
      );
    }
  });
  return keys.map((key) => key.apiKey);
}
