// Runs before each test file, in its own module registry: every file gets a fresh database
// (an in-memory PGlite, or its own PostgreSQL schema when DATABASE_URL is set) and counters of its
// own in a shared Redis, so no file's answers depend on what other files counted before or beside it.
import { randomBytes } from 'node:crypto';

const run = randomBytes(6).toString('hex');

process.env.NODE_ENV = 'test';
process.env.LOG_LEVEL ??= 'silent';
process.env.DASHBOARD_JWT_SECRET = 'test-dashboard-secret-0123456789abcdef';
process.env.PUBLIC_BASE_URL = 'https://api.test';
if (process.env.DATABASE_URL) {
  process.env.DATABASE_SCHEMA = `test_${run}`;
} else {
  process.env.PGLITE_DATA_DIR = 'memory://';
}
// Every client address of app.fetch is the same one (no socket): its failed authentications, counted
// per address, would otherwise add up across files.
process.env.REDIS_KEY_PREFIX = `test_${run}:`;
// Tests write rows between reads of one list; the response cache's own tests turn it on.
process.env.RESPONSE_CACHE_TTL ??= '0';
// Other test files make many requests with one key; the quota's own tests set their limits.
process.env.RATE_LIMIT_MAX ??= '100000';
