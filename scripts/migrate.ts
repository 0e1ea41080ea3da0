// npm run migrate: applies pending migrations to the configured database, nothing else.
import { closeDatabase } from '../src/platform/db';
import { applyMigrations } from '../src/platform/migrations';

applyMigrations()
  .then(async (applied) => {
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'No pending migrations.');
    await closeDatabase();
  })
  .catch((error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  });
