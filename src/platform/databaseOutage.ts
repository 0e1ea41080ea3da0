// Tells a database outage (server stopped, restarting, unreachable, out of connections) from a
// failed query. An outage is answered 503 SERVICE_UNAVAILABLE so clients retry; a statement the
// server cancelled at the request deadline is the deadline's 504; anything else that escapes a
// resolver stays a 500. Also reads the refusal of one of the database's own rules (a
// check_violation its triggers raise), for the writes a request asks for.
//
// Prisma reports outages as known request errors (P1001 "can't reach database server", ...) or,
// through the driver adapter, with the adapter's error kind; pg errors that the adapter does not
// map arrive as pg's DatabaseError (SQLSTATE in `code`, e.g. 57P01 when the server shuts down) or,
// without a code (pool connect timeout, a connection dropped mid-query), as plain Errors.

/**
 * Prisma's codes for "no usable database connection". P2028 is a transaction API error: an
 * implicit transaction (createMany) whose connection the server terminated mid-write ends in
 * "Transaction already closed". The write is committed or not; a retry of a link creation finds
 * the link that exists (dedupe), so "retry" is the right answer either way.
 */
const OUTAGE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);

/** Driver-adapter error kinds that mean the server cannot be used right now. */
const OUTAGE_ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);

/** SQLSTATE classes 08 (connection exception) and 57P (shutdown, crash, starting up). */
const OUTAGE_SQLSTATE = /^(08|57P)/;

/** Messages of pg's own errors (node-postgres has no codes for these). */
const OUTAGE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i;

interface AdapterCause {
  kind?: unknown;
  code?: unknown;
}

function adapterCauseOf(error: object): AdapterCause | undefined {
  const meta = (error as { meta?: { driverAdapterError?: { cause?: AdapterCause } } }).meta;
  return meta?.driverAdapterError?.cause ?? (error as { cause?: AdapterCause }).cause;
}

function isOutageItself(error: object): boolean {
  const code = (error as { code?: unknown }).code;
  // pg's own DatabaseError carries the SQLSTATE as `code` when no adapter mapped it.
  if (typeof code === 'string' && (OUTAGE_PRISMA_CODES.has(code) || OUTAGE_SQLSTATE.test(code))) {
    return true;
  }
  const cause = adapterCauseOf(error);
  if (typeof cause?.kind === 'string' && OUTAGE_ADAPTER_KINDS.has(cause.kind)) return true;
  if (cause?.kind === 'postgres' && typeof cause.code === 'string') {
    return OUTAGE_SQLSTATE.test(cause.code);
  }
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && OUTAGE_MESSAGES.test(message);
}

/** Whether `error`, or an error it wraps (GraphQL `originalError`, `cause`), is one that `is`. */
function wrapsOne(error: unknown, is: (error: object) => boolean): boolean {
  const seen = new Set<unknown>();
  let current = error;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    if (is(current)) return true;
    seen.add(current);
    const wrapper = current as { originalError?: unknown; cause?: unknown };
    current = wrapper.originalError ?? wrapper.cause;
  }
  return false;
}

export const isDatabaseOutage = (error: unknown): boolean => wrapsOne(error, isOutageItself);

/**
 * SQLSTATE 57014: the server cancelled a statement at its statement_timeout, which is the request
 * deadline (src/platform/db.ts). It can come before the deadline's own timer, late on a busy
 * process, and means the same.
 */
export const isStatementTimeout = (error: unknown): boolean =>
  wrapsOne(
    error,
    (each) =>
      (each as { code?: unknown }).code === '57014' || adapterCauseOf(each)?.code === '57014',
  );

/**
 * The message of a database rule that refused a write (SQLSTATE 23514, check_violation, as the
 * triggers on orders and payouts raise it); null for any other error.
 */
export function databaseRefusalOf(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const cause = adapterCauseOf(error) as (AdapterCause & { message?: unknown }) | undefined;
  return cause?.code === '23514' && typeof cause.message === 'string' ? cause.message : null;
}
