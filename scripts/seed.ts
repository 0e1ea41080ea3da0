// Applies pending migrations, then writes the deterministic demo data (prisma/seed/demo.ts).
// Safe to run again: both steps skip what is already there. Database from the environment
// (PGlite by default, PostgreSQL with DATABASE_URL), as for the service. Refused, before anything
// is touched, with NODE_ENV=production.
import { applyMigrations } from '../src/platform/migrations';
import { closeDatabase, prisma } from '../src/platform/db';
import { DemoDataRefused, refuseDemoDataInProduction, seedDemoData } from '../prisma/seed/demo';

async function seed(): Promise<string> {
  refuseDemoDataInProduction();
  const applied = await applyMigrations();
  await seedDemoData(prisma);
  // Sequential: PGlite is a single connection anyway.
  const counts = {
    users: await prisma.user.count(),
    organizations: await prisma.organization.count(),
    campaigns: await prisma.campaign.count(),
    products: await prisma.product.count(),
    orders: await prisma.order.count(),
    shortUrls: await prisma.shortUrl.count(),
  };
  const totals = Object.entries(counts)
    .map(([table, count]) => `${count} ${table}`)
    .join(', ');
  return `seed: ${applied.length} migration(s) applied; database holds ${totals}`;
}

async function main(): Promise<void> {
  try {
    console.log(await seed());
  } catch (error) {
    // The refusal says all there is to say; anything else comes with its stack.
    console.error('seed failed:', error instanceof DemoDataRefused ? error.message : error);
    process.exitCode = 1;
  } finally {
    await closeDatabase();
  }
}

void main();
