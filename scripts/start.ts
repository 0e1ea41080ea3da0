// `npm start`: the service as a developer runs it. An empty embedded database gets the demo data
// (never in production: the demo keys are public), and the banner says how to try it.
import { DEMO_KEYS, DEMO_USERS } from '../src/auth/demoIdentities';
import { seedDemoData } from '../prisma/seed/demo';
import { config } from '../src/platform/config';
import { isEmbeddedDatabase, prisma } from '../src/platform/db';
import { logger } from '../src/platform/logger';
import { run, startServer } from '../src/server';

async function loadDemoDataIntoAnEmptyDatabase(): Promise<void> {
  if (config.isProduction || !isEmbeddedDatabase || (await prisma.user.count()) > 0) return;
  await seedDemoData(prisma);
  logger.info('demo data loaded into the empty embedded database');
}

run(async () => {
  const base = await startServer({ beforeListening: loadDemoDataIntoAnEmptyDatabase });
  if (config.isProduction) return;
  console.log(
    [
      `  Dashboard token: npm run token -- ${DEMO_USERS.affiliate}   (any user id; demo ids in README)`,
      `  Try:             curl -H 'x-api-key: ${DEMO_KEYS.partner}' ${base}/api/partner/brands`,
    ].join('\n'),
  );
});
