// After each test file: drop its PostgreSQL schema, if it has one, and close its database, which
// modules open on import.
import { config } from '../../src/config';
import { closeDatabase, withSqlConnection } from '../../src/db';

afterAll(async () => {
  if (config.databaseUrl) {
    await withSqlConnection((connection) =>
      connection.exec(`DROP SCHEMA IF EXISTS "${config.databaseSchema}" CASCADE`),
    );
  }
  await closeDatabase();
});
