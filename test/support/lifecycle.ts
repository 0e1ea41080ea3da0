// After each test file: drop its PostgreSQL schema, if it has one, and close its database, which
// modules open on import.
import { config } from '../../src/platform/config';
import { closeDatabase, withSqlConnection } from '../../src/platform/db';

afterAll(async () => {
  if (config.databaseUrl) {
    await withSqlConnection((connection) =>
      connection.exec(`DROP SCHEMA IF EXISTS "${config.databaseSchema}" CASCADE`),
    );
  }
  await closeDatabase();
});
