// Does a wrong secret cost the same as an unknown prefix? If it did not, an attacker could tell
// which prefixes exist (the prefix is public, but the list of live keys is not) by timing
// `ApiKeys.verify`. Measures both kinds of well-formed, checksum-valid but wrong keys, interleaved
// in random order so drift (JIT, caches, GC, other load) hits both alike, and reports the medians.
//
//   npx tsx bench/keyTiming.ts                        # embedded PGlite (in memory)
//   DATABASE_URL=postgresql://… npx tsx bench/keyTiming.ts   # a PostgreSQL server (own schema)
//
// Options: --tries N (default 10000), --warmup N (default 1000), --keys N (default 200).
// Target: the difference of the medians under 50 µs. This is a benchmark, not a test.
import { randomBytes, randomInt } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { positiveNumber } from './support/cli';

const { values: args } = parseArgs({
  options: {
    tries: { type: 'string', default: '10000' },
    warmup: { type: 'string', default: '1000' },
    keys: { type: 'string', default: '200' },
  },
});
const TRIES = positiveNumber('tries', args.tries);
const WARMUP = positiveNumber('warmup', args.warmup);
const KEYS = positiveNumber('keys', args.keys);
const TARGET_US = 50;

// The modules read the environment on import: settle it first.
process.env.LOG_LEVEL = 'silent';
if (process.env.DATABASE_URL) {
  process.env.DATABASE_SCHEMA = `bench_${randomBytes(4).toString('hex')}`;
} else {
  process.env.PGLITE_DATA_DIR = 'memory://';
}

interface Stats {
  median: number;
  p10: number;
  p90: number;
  p99: number;
  mean: number;
}

function statsOf(samplesUs: number[]): Stats {
  const sorted = [...samplesUs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const mid = sorted.length / 2;
  const median =
    sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const mean = sorted.reduce((sum, x) => sum + x, 0) / sorted.length;
  return { median, p10: at(0.1), p90: at(0.9), p99: at(0.99), mean };
}

const fmt = (us: number) => us.toFixed(1);

function commitOf(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', 'src/auth'], { encoding: 'utf8' });
    return dirty.trim() ? `${head} + uncommitted changes in src/auth` : head;
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  const { config } = await import('../src/platform/config');
  const { closeDatabase, prisma, withSqlConnection } = await import('../src/platform/db');
  const { applyMigrations } = await import('../src/platform/migrations');
  const { generateApiKey, sha256Hex } = await import('../src/auth/keyFormat');
  const { ApiKeys } = await import('../src/auth/verifyApiKey');
  const { SCOPES_BY_KEY_TYPE } = await import('../src/auth/scopes');

  try {
    await applyMigrations();
    const owner = await prisma.user.create({
      data: {
        email: `bench-${randomBytes(4).toString('hex')}@bench.example`,
        name: 'bench',
        role: 'AFFILIATE',
      },
    });
    const prefixes: string[] = [];
    for (let n = 0; n < KEYS; n += 1) {
      const { prefix, secret } = generateApiKey('test');
      await prisma.apiKey.create({
        data: {
          name: `bench ${n}`,
          type: 'affiliate',
          version: 'v2',
          env: 'test',
          prefix,
          secretHash: sha256Hex(secret),
          scopes: [...SCOPES_BY_KEY_TYPE.affiliate],
          ownerId: owner.id,
        },
      });
      prefixes.push(prefix);
    }

    // Both kinds are fresh, well-formed, checksum-valid keys: one names an existing prefix with
    // a wrong secret, the other a prefix no key has.
    const wrongSecret = () => generateApiKey('test', prefixes[randomInt(prefixes.length)]!).apiKey;
    const unknownPrefix = () => generateApiKey('test').apiKey;

    const keys = new ApiKeys();
    const timed = async (raw: string): Promise<number> => {
      const started = process.hrtime.bigint();
      const verified = await keys.verify(keys.present(raw));
      const elapsed = Number(process.hrtime.bigint() - started) / 1000;
      if (verified) throw new Error('a wrong key verified');
      return elapsed;
    };

    for (let n = 0; n < WARMUP; n += 1) {
      await timed(wrongSecret());
      await timed(unknownPrefix());
    }
    const samples = { wrongSecret: [] as number[], unknownPrefix: [] as number[] };
    for (let n = 0; n < TRIES; n += 1) {
      // Random order within each pair: neither kind always runs right after the other.
      const a = wrongSecret();
      const b = unknownPrefix();
      if (randomInt(2)) {
        samples.wrongSecret.push(await timed(a));
        samples.unknownPrefix.push(await timed(b));
      } else {
        samples.unknownPrefix.push(await timed(b));
        samples.wrongSecret.push(await timed(a));
      }
    }

    const wrong = statsOf(samples.wrongSecret);
    const unknown = statsOf(samples.unknownPrefix);
    const difference = wrong.median - unknown.median;
    const backend = config.databaseUrl
      ? 'PostgreSQL server (adapter-pg, localhost)'
      : 'PGlite (in memory)';
    const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
    const lines = [
      `### ${backend}`,
      '',
      `- date: ${new Date().toISOString()}`,
      `- commit: ${commitOf()}`,
      `- machine: ${os.cpus().length} cores (${cpu}), Node ${process.version}, ${os.platform()} ${os.release()}`,
      `- ${TRIES} tries of each kind, interleaved in random order, after ${WARMUP} warm-up tries each; ${KEYS} keys stored`,
      '',
      '| kind | median µs | p10 µs | p90 µs | p99 µs | mean µs |',
      '|---|---:|---:|---:|---:|---:|',
      `| wrong secret (existing prefix) | ${fmt(wrong.median)} | ${fmt(wrong.p10)} | ${fmt(wrong.p90)} | ${fmt(wrong.p99)} | ${fmt(wrong.mean)} |`,
      `| unknown prefix | ${fmt(unknown.median)} | ${fmt(unknown.p10)} | ${fmt(unknown.p90)} | ${fmt(unknown.p99)} | ${fmt(unknown.mean)} |`,
      '',
      `Difference of the medians (wrong secret - unknown prefix): **${fmt(difference)} µs** ` +
        `(target: under ${TARGET_US} µs in absolute value: ${Math.abs(difference) < TARGET_US ? 'met' : 'NOT met'}).`,
      '',
    ];
    console.log(lines.join('\n'));
    if (config.databaseUrl) {
      await withSqlConnection((connection) =>
        connection.exec(`DROP SCHEMA IF EXISTS "${config.databaseSchema}" CASCADE`),
      );
    }
  } finally {
    await closeDatabase();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
