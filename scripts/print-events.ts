// npm run events:print: rewrites the docs' tables of events (docs/webhooks.md, docs/payouts.md) from
// the event types the modules declare; test/unit/eventTables.test.ts fails when one is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EVENT_TABLE_PAGES, withEventTables } from '../src/modules/webhooks/eventTables';

for (const page of EVENT_TABLE_PAGES) {
  const file = path.join(__dirname, '..', page);
  writeFileSync(file, withEventTables(readFileSync(file, 'utf8')));
  console.log(`Wrote ${page}`);
}
