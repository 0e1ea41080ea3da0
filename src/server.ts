// The service's process: applies pending migrations (unless MIGRATE_ON_START is off), listens, and
// shuts down gracefully on SIGTERM/SIGINT, finishing the requests in flight. Production runs this
// file; `npm start` runs scripts/start.ts, which adds the demo data.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import { config } from './platform/config';
import { closeDatabase, isEmbeddedDatabase } from './platform/db';
import { answerClientError } from './http/clientErrors';
import { logger } from './platform/logger';
import { applyMigrations } from './platform/migrations';
import { startTracing, stopTracing, tracingWanted } from './platform/tracing';

const SHUTDOWN_GRACE_MS = 10_000;

export interface StartOptions {
  /** Work once the database is migrated, before the first request (the demo data). */
  beforeListening?: () => Promise<void>;
}

/** Starts the service; resolves with its address once it listens. */
export async function startServer({ beforeListening }: StartOptions = {}): Promise<string> {
  if (config.isDashboardSecretDefault) {
    logger.warn(
      `DASHBOARD_JWT_SECRET is not set: dashboard tokens use this installation's own secret (${config.dataDir}/dashboard-jwt-secret)`,
    );
  }
  if (config.isProduction && isEmbeddedDatabase) {
    logger.warn(
      'production on the embedded database (ALLOW_EMBEDDED_DATABASE): a single-node demo',
    );
  }
  if (tracingWanted()) startTracing();
  if (config.migrateOnStart) {
    const applied = await applyMigrations();
    if (applied.length) logger.info({ applied }, 'migrations applied');
  }
  await beforeListening?.();

  const app = createApp();
  const server = createServer(app);
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const workers = app.startWorkers();
  const { address, family, port } = server.address() as AddressInfo;
  // Where it listens, as bound; and where clients reach it, as PUBLIC_BASE_URL says.
  const listening = family === 'IPv6' ? `[${address}]:${port}` : `${address}:${port}`;
  const base = config.publicBaseUrl;
  console.log(
    [
      `Affiliate network API listening on ${listening}, public address ${base}`,
      config.graphiql ? `  GraphiQL:        ${base}/graphql` : `  GraphQL:         ${base}/graphql`,
      `  API reference:   ${base}/docs`,
    ].join('\n'),
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    // Keep-alive connections go as soon as their in-flight request is answered.
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    server.close(async () => {
      clearTimeout(force);
      clearInterval(sweep);
      await app.close();
      await Promise.all(workers.map((worker) => worker.stop()));
      await closeDatabase();
      await stopTracing();
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  return base;
}

/** A port another process holds: one line that says what to do, not a stack. */
function portInUse(error: unknown): string | null {
  if ((error as { code?: unknown })?.code !== 'EADDRINUSE') return null;
  return `Port ${config.port} is in use: stop what listens there, or start with another PORT (PORT=${config.port + 1} npm start)`;
}

/** Runs `start`, or says why the service could not start and exits. */
export function run(start: () => Promise<unknown>): void {
  start().catch((error: unknown) => {
    const inUse = portInUse(error);
    if (inUse) {
      console.error(inUse);
      process.exit(1);
    }
    logger.fatal({ err: error }, 'failed to start');
    process.exit(1);
  });
}

if (require.main === module) run(startServer);
