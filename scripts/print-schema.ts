// npm run schema:print: writes the GraphQL SDL (sorted) to schema.graphql, so schema changes show
// in review; test/schema.test.ts fails when the committed file is stale.
import { writeFileSync } from 'node:fs';
import { schema } from '../src/modules';
import { printedSchema, SCHEMA_FILE } from '../src/schema/print';

writeFileSync(SCHEMA_FILE, printedSchema(schema));
console.log(`Wrote ${SCHEMA_FILE}`);
process.exit(0);
