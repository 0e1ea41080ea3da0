// The committed dump of the database's triggers and functions (prisma/rules.sql), as schema.graphql
// is for the GraphQL schema: a migration that changes a rule changes the dump in the same review.
import { readFileSync } from 'node:fs';
import { withSqlConnection } from '../src/platform/db';
import { databaseRules, RULES_FILE } from '../src/platform/databaseRules';
import { useTestDatabase } from './support/app';

useTestDatabase();

test('the committed prisma/rules.sql is current (run `npm run rules:print`)', async () => {
  expect(readFileSync(RULES_FILE, 'utf8')).toBe(await withSqlConnection(databaseRules));
});

test("the dump lists a table's BEFORE ROW triggers in the order PostgreSQL fires them: by name", async () => {
  // Two BEFORE ROW triggers on a scratch table, created in the reverse of their names' order: each
  // appends its name, so the row shows the order they fired in.
  await withSqlConnection(async (connection) => {
    await connection.exec(`
      CREATE TABLE "RulesOrderProbe" ("id" int PRIMARY KEY, "fired" text NOT NULL DEFAULT '');
      CREATE FUNCTION rules_order_probe() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN NEW."fired" := NEW."fired" || TG_NAME || ' '; RETURN NEW; END $$;
      CREATE TRIGGER "probe_20_second" BEFORE INSERT ON "RulesOrderProbe"
        FOR EACH ROW EXECUTE FUNCTION rules_order_probe();
      CREATE TRIGGER "probe_10_first" BEFORE INSERT ON "RulesOrderProbe"
        FOR EACH ROW EXECUTE FUNCTION rules_order_probe();
      INSERT INTO "RulesOrderProbe" ("id") VALUES (1);`);
    try {
      const [row] = await connection.query<{ fired: string }>(
        'SELECT "fired" FROM "RulesOrderProbe"',
      );
      expect(row?.fired).toBe('probe_10_first probe_20_second ');
      const dump = await databaseRules(connection);
      const section = dump.slice(dump.indexOf('-- ===== Triggers on "RulesOrderProbe"'));
      expect(section.indexOf('TRIGGER probe_10_first ')).toBeLessThan(
        section.indexOf('TRIGGER probe_20_second '),
      );
      expect(section.indexOf('TRIGGER probe_10_first ')).toBeGreaterThan(0);
    } finally {
      await connection.exec('DROP TABLE "RulesOrderProbe"; DROP FUNCTION rules_order_probe();');
    }
  });
});

test('the BEFORE ROW triggers of "Order" state their firing order in their names', async () => {
  // tgtype: 1 = FOR EACH ROW, 2 = BEFORE (pg_trigger.h).
  const rows = await withSqlConnection((connection) =>
    connection.query<{ name: string }>(
      `SELECT tgname AS "name" FROM pg_trigger
        WHERE tgrelid = '"Order"'::regclass AND NOT tgisinternal AND tgtype & 3 = 3
        ORDER BY tgname COLLATE "C"`,
    ),
  );
  expect(rows.map((row) => row.name)).toEqual([
    'Order_05_attribution',
    'Order_10_in_payout',
    'Order_20_lifecycle_insert',
    'Order_20_lifecycle_update',
    'Order_30_updated_at',
  ]);
});
