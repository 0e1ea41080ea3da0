// npx tsx scripts/scan-logs-for-keys.ts <log file>: fails when the file holds any valid API key
// (a v2 key whose checksum verifies, or the demo legacy key). CI runs the whole suite with
// LOG_LEVEL=debug and LOG_FILE set, then this, so no test anywhere may make a key reach the logs.
import { readFileSync } from 'node:fs';
import { DEMO } from '../prisma/seed/demo';
import { findApiKeys } from '../src/auth/keyFormat';

const file = process.argv[2];
if (!file) {
  console.error('usage: npx tsx scripts/scan-logs-for-keys.ts <log file>');
  process.exit(2);
}
const logs = readFileSync(file, 'utf8');
const leaked = [...findApiKeys(logs), ...(logs.includes(DEMO.keys.legacyAffiliate) ? ['v1'] : [])];
const lines = logs.split('\n').filter(Boolean).length;
if (leaked.length) {
  // Name only the public prefix of each leaked key: the report must not leak them again.
  const prefixes = leaked.map((key) => key.split('_').slice(0, 3).join('_'));
  console.error(`${leaked.length} API key(s) found in ${lines} log lines: ${prefixes.join(', ')}`);
  process.exit(1);
}
console.log(`No API key in ${lines} log lines.`);
