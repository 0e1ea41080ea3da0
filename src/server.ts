// Starts the listener: migrates, loads the demo data into an empty embedded database, serves,
// and shuts down gracefully on SIGTERM/SIGINT.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEMO, seedDemoData } from '../prisma/seed/demo';
import { createApp } from './app';
import { answerClientError } from './http/clientErrors';
import { config } from './config';
import { closeDatabase, isEmbeddedDatabase, prisma } from './db';
import { logger } from './logger';
import { applyMigrations } from './migrations';
import { keyUsageSettled } from './auth/keyUsage';

const SHUTDOWN_GRACE_MS = 10_000;

async function prepareDatabase(): Promise<void> {
  const applied = await applyMigrations();
  if (applied.length) logger.info({ applied }, 'migrations applied');
  // The demo keys are public (README): never in production, even on an embedded database.
  if (!config.isProduction && isEmbeddedDatabase && (await prisma.user.count()) === 0) {
    await seedDemoData(prisma);
    logger.info('demo data loaded into the empty embedded database');
  }
}

async function main(): Promise<void> {
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
  await prepareDatabase();
  const server = createServer(createApp());
  server.on('clientError', answerClientError);
  server.listen(config.port, () => {
    const { port } = server.address() as AddressInfo;
    const base = `http://localhost:${port}`;
    const banner = [
      `Affiliate network API listening on ${base}`,
      config.graphiql ? `  GraphiQL:        ${base}/graphql` : `  GraphQL:         ${base}/graphql`,
      `  API reference:   ${base}/docs`,
    ];
    // The demo identities exist only where the demo data does.
    if (!config.isProduction) {
      banner.push(
        `  Dashboard token: npm run token -- ${DEMO.users.affiliate}   (any user id; demo ids in README)`,
        `  Try:             curl -H 'x-api-key: ${DEMO.keys.partner}' ${base}/api/partner/brands`,
      );
    }
    console.log(banner.join('\n'));
  });

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
      await keyUsageSettled();
      await closeDatabase();
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, 'failed to start');
  process.exit(1);
});
