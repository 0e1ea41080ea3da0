// The plans of the SQL the service really runs, with EXPLAIN ANALYZE: a second service instance
// connects as the role `bench_explain`, for which PostgreSQL preloads auto_explain with
// log_min_duration 0 and log_analyze on, so every statement of that role lands with its executed
// plan in the server log; the harness reads the slice of the log each request wrote (pg_read_file,
// as superuser). Only that role is affected; nothing changes for other sessions.
import { withClient } from './database';
import { startService } from './processes';

export const EXPLAIN_ROLE = 'bench_explain';
const EXPLAIN_URL = `postgresql://${EXPLAIN_ROLE}@127.0.0.1:5432/postgres`;

/** The role, its grants on the schema, and auto_explain for its sessions. */
async function prepareExplainRole(schema: string): Promise<void> {
  await withClient(async (client) => {
    // Loaded here so that ALTER ROLE validates the auto_explain settings.
    await client.query(`LOAD 'auto_explain'`);
    await client.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${EXPLAIN_ROLE}') THEN
        CREATE ROLE ${EXPLAIN_ROLE} LOGIN;
      END IF; END $$`);
    const statements = [
      // The service's start-up migration check runs CREATE SCHEMA / TABLE IF NOT EXISTS.
      `GRANT CREATE ON DATABASE postgres TO ${EXPLAIN_ROLE}`,
      `GRANT USAGE, CREATE ON SCHEMA "${schema}" TO ${EXPLAIN_ROLE}`,
      `GRANT pg_read_all_data, pg_write_all_data TO ${EXPLAIN_ROLE}`,
      `ALTER ROLE ${EXPLAIN_ROLE} SET session_preload_libraries = 'auto_explain'`,
      `ALTER ROLE ${EXPLAIN_ROLE} SET auto_explain.log_min_duration = 0`,
      `ALTER ROLE ${EXPLAIN_ROLE} SET auto_explain.log_analyze = on`,
      `ALTER ROLE ${EXPLAIN_ROLE} SET auto_explain.log_buffers = on`,
      `ALTER ROLE ${EXPLAIN_ROLE} SET auto_explain.log_timing = on`,
    ];
    for (const statement of statements) await client.query(statement);
  });
}

async function logSize(logFile: string): Promise<number> {
  return withClient(async (client) => {
    const result = await client.query<{ size: string }>('SELECT (pg_stat_file($1)).size AS size', [
      logFile,
    ]);
    return Number(result.rows[0]!.size);
  });
}

async function logSince(logFile: string, offset: number): Promise<string> {
  return withClient(async (client) => {
    const size = await client.query<{ size: string }>('SELECT (pg_stat_file($1)).size AS size', [
      logFile,
    ]);
    const length = Number(size.rows[0]!.size) - offset;
    if (length <= 0) return '';
    const result = await client.query<{ text: string }>('SELECT pg_read_file($1, $2, $3) AS text', [
      logFile,
      offset,
      length,
    ]);
    return result.rows[0]!.text;
  });
}

export interface ExplainedStatement {
  durationMs: number;
  query: string;
  /** The plan, as auto_explain printed it (text format, ANALYZE and BUFFERS). */
  plan: string;
}

/** The auto_explain entries of the role in a slice of the server log (text format, stderr). */
export function parseAutoExplain(log: string): ExplainedStatement[] {
  const entries: string[][] = [];
  for (const line of log.split('\n')) {
    if (line.startsWith('\t')) entries.at(-1)?.push(line.slice(1));
    else entries.push([line]);
  }
  const header = new RegExp(`${EXPLAIN_ROLE}@\\S+ LOG:\\s+duration: ([\\d.]+) ms\\s+plan:`);
  return entries.flatMap(([first, ...body]) => {
    const match = first ? header.exec(first) : null;
    if (!match) return [];
    const queryLine = body.findIndex((line) => line.startsWith('Query Text:'));
    const planStart = body.findIndex(
      (line, index) => index > queryLine && /\(cost=|\(actual/.test(line),
    );
    const query = body
      .slice(queryLine, planStart < 0 ? undefined : planStart)
      .join(' ')
      .replace(/^Query Text:\s*/, '');
    const plan = planStart < 0 ? '' : body.slice(planStart).join('\n');
    return [{ durationMs: Number(match[1]), query, plan }];
  });
}

export interface RequestPlans {
  label: string;
  path: string;
  status: number;
  statements: ExplainedStatement[];
}

export interface ExplainRequest {
  label: string;
  path: string;
  apiKey: string;
}

/** Default log file of a Debian PostgreSQL cluster `main`. */
export async function defaultLogFile(): Promise<string> {
  const major = await withClient(async (client) => {
    const result = await client.query<{ v: string }>(
      `SELECT current_setting('server_version_num') AS v`,
    );
    return Math.floor(Number(result.rows[0]!.v) / 10_000);
  });
  return `/var/log/postgresql/postgresql-${major}-main.log`;
}

/**
 * Runs each request three times on a service connected as the explain role and returns the
 * statements of the third (caches warm, key-usage throttling settled), with their plans.
 */
export async function capturePlans(
  schema: string,
  requests: ExplainRequest[],
  logFile: string,
): Promise<RequestPlans[]> {
  await prepareExplainRole(schema);
  const service = await startService({ schema, databaseUrl: EXPLAIN_URL });
  try {
    const captured: RequestPlans[] = [];
    for (const { label, path, apiKey } of requests) {
      const call = () => fetch(`${service.baseUrl}${path}`, { headers: { 'x-api-key': apiKey } });
      for (let warm = 0; warm < 2; warm++) await (await call()).arrayBuffer();
      // Leftovers of earlier requests (asynchronous key-usage writes) finish first.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const offset = await logSize(logFile);
      const response = await call();
      await response.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const statements = parseAutoExplain(await logSince(logFile, offset));
      captured.push({ label, path, status: response.status, statements });
    }
    return captured;
  } finally {
    await service.stop();
  }
}
