// Reads and validates the environment once. Every setting and its default is documented in the
// configuration table in docs/operating.md.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_PROXY_HOPS, proxyRange, TrustedProxies, type TrustProxy } from './trustProxy';

export interface Config {
  nodeEnv: string;
  isProduction: boolean;
  port: number;
  /**
   * The address to listen on; undefined listens on every interface. Outside production the
   * default is the loopback: a development service has public demo keys, open metrics and GraphiQL.
   */
  host: string | undefined;
  /** A postgresql:// URL selects a PostgreSQL server; unset means embedded PGlite. */
  databaseUrl: string | undefined;
  /** PostgreSQL schema to use (tests isolate each file in its own schema). Default `public`. */
  databaseSchema: string;
  /** Where the embedded database and this installation's development secret live. */
  dataDir: string;
  /** PGlite data folder, or `memory://` for an in-memory database. */
  pgliteDataDir: string;
  /**
   * A database dump (PGlite's `dumpDataDir` tarball) an in-memory database starts from instead of
   * an empty one: the tests' migrated database, made once per run rather than once per test file.
   */
  pgliteTemplate: string | undefined;
  /** Connections each replica keeps to PostgreSQL. */
  databasePoolSize: number;
  /** Whether statements sent often are prepared once per connection (off behind a pooler in transaction mode). */
  databaseNamedStatements: boolean;
  redisUrl: string | undefined;
  /** Put before every Redis key, so deployments can share one Redis. */
  redisKeyPrefix: string;
  dashboardJwtSecret: string;
  isDashboardSecretDefault: boolean;
  /** The longest a dashboard token may live, from its issue to its expiry. */
  dashboardTokenMaxLifetimeS: number;
  /** When set, dashboard tokens must carry this `iss`. */
  dashboardJwtIssuer: string | undefined;
  /** When set, dashboard tokens must carry this `aud`. */
  dashboardJwtAudience: string | undefined;
  publicBaseUrl: string;
  legacyHosts: string[];
  shortLinkBaseUrl: string;
  keyEnv: 'live' | 'test';
  /** Which proxies may say who the client is: how many are in front of the service, or their addresses. */
  trustProxy: TrustProxy;
  rateLimitMax: number;
  rateLimitWindowSeconds: number;
  /** Whether the service applies pending migrations when it starts. */
  migrateOnStart: boolean;
  /** How long a REST GET answer is served from the response cache; 0 turns the cache off. */
  responseCacheTtlSeconds: number;
  /** A request still running after this long is answered 504 REQUEST_TIMEOUT. */
  requestTimeoutMs: number;
  /** The Sunset date announced on legacy hosts. */
  legacySunset: Date;
  logLevel: string;
  /** Append logs to this file instead of stdout. */
  logFile: string | undefined;
  /** Whether /graphql answers introspection (and field suggestions); default off in production. */
  graphqlIntrospection: boolean;
  /** Whether GET /graphql from a browser serves GraphiQL; default off in production. */
  graphiql: boolean;
  /** Origins browsers may call from: `['*']` (default) for any, else exact origins. */
  corsOrigins: string[];
  /** Whether GET /metrics is served: outside production, or with a token. */
  metricsEnabled: boolean;
  /** When set, GET /metrics requires `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** Webhook URLs may be `http` and reach loopback or private addresses (development, tests). */
  webhookAllowPrivateUrls: boolean;
  /** How often a dispatcher looks for due deliveries when no notification wakes it. */
  webhookPollIntervalMs: number;
  /** How long a dispatcher's claim on a delivery lasts; a dead dispatcher's claim expires then. */
  webhookLeaseS: number;
  /** The waits before each retry of a failed delivery (jittered); after the last, it has failed. */
  webhookRetryDelaysS: number[];
  /** An endpoint whose deliveries have all failed for this long is disabled. */
  webhookDisableAfterS: number;
  /** How often the lock pass marks the orders whose lock date has passed. */
  orderLockIntervalS: number;
}

/** The settings that stop the service from starting: every problem found, not only the first. */
export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string | string[]) {
    const list = [problems].flat();
    super(list.length === 1 ? list[0] : `${list.length} settings are wrong:\n${bullets(list)}`);
    this.problems = list;
  }
}

const bullets = (lines: string[]) => lines.map((line) => `  - ${line}`).join('\n');

/**
 * Outside production, without DASHBOARD_JWT_SECRET: a random secret of this installation, made on
 * first start and kept in the data folder (readable by its owner only), so that `npm run token`
 * and the service agree and nobody else can mint tokens for it.
 */
function installationSecret(dataDir: string): string {
  const file = path.join(dataDir, 'dashboard-jwt-secret');
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new ConfigError(
        `DASHBOARD_JWT_SECRET is not set and ${file} cannot be written: set DASHBOARD_JWT_SECRET`,
      );
    }
  }
  return readFileSync(file, 'utf8').trim();
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return Number(raw);
}

const ON = ['1', 'true', 'yes', 'on'];
const OFF = ['0', 'false', 'no', 'off'];

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  return ON.includes((env[name] ?? '').toLowerCase());
}

/** A switch with a default; unlike `flag`, a value that is neither on nor off is refused. */
function toggle(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  if (raw === '') return fallback;
  if (ON.includes(raw)) return true;
  if (OFF.includes(raw)) return false;
  throw new ConfigError(`${name} must be one of ${[...ON, ...OFF].join(', ')}, got "${env[name]}"`);
}

function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
}

// Announced on LEGACY_HOSTS until the operator sets the real retirement date.
const DEFAULT_LEGACY_SUNSET = '2027-06-30T23:59:59Z';

function date(env: NodeJS.ProcessEnv, name: string, fallback: string): Date {
  const raw = env[name] || fallback;
  const parsed = new Date(raw);
  if (Number.isNaN(parsed.getTime())) {
    throw new ConfigError(`${name} must be a date (ISO 8601 or HTTP date), got "${raw}"`);
  }
  return parsed;
}

/** `*`, or origins like `https://dashboard.example.com` (scheme, host, optional port). */
function origins(env: NodeJS.ProcessEnv, name: string): string[] {
  const given = list(env[name]);
  if (given.length === 0) return ['*'];
  for (const origin of given) {
    if (origin !== '*' && !/^https?:\/\/[a-z0-9.-]+(:\d+)?$/.test(origin)) {
      throw new ConfigError(
        `${name} takes * or origins like https://app.example.com, got "${origin}"`,
      );
    }
  }
  return given;
}

/**
 * TRUST_PROXY: a count of proxies in front of the service (`0` to MAX_PROXY_HOPS; `true`/`on`/`yes`
 * for one, `false`/`off`/`no` or unset for none), or a comma list of the proxies' addresses and
 * ranges. Anything else is refused: a value silently read as "off" would count every client as
 * the proxy's address.
 */
function trustProxy(env: NodeJS.ProcessEnv, name: string): TrustProxy {
  const raw = (env[name] ?? '').trim();
  const word = raw.toLowerCase();
  if (raw === '' || OFF.includes(word)) return 0;
  if (['true', 'yes', 'on'].includes(word)) return 1;
  if (/^\d+$/.test(raw)) {
    if (Number(raw) > MAX_PROXY_HOPS) {
      throw new ConfigError(`${name} takes at most ${MAX_PROXY_HOPS} proxies, got "${raw}"`);
    }
    return Number(raw);
  }
  const items = raw.split(',').map((item) => item.trim());
  const ranges = items.map(proxyRange);
  const wrong = items.find((_, i) => ranges[i] === null);
  if (wrong !== undefined) {
    throw new ConfigError(
      `${name} takes the number of proxies in front of the service (1, 2, ...; 0 or off for none) ` +
        `or their addresses and ranges separated by commas (10.0.0.0/8, 192.0.2.7, 2001:db8::/32), ` +
        `got "${wrong}"`,
    );
  }
  return new TrustedProxies(ranges.map((range) => range!));
}

/** A comma list of integers >= 1, e.g. `5,300,1800`. */
function integers(env: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const values = raw.split(',').map((item) => item.trim());
  if (values.some((value) => !/^\d+$/.test(value) || Number(value) < 1)) {
    throw new ConfigError(`${name} takes integers >= 1 separated by commas, got "${raw}"`);
  }
  return values.map(Number);
}

/** Standard Webhooks' suggested schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (about a day). */
const WEBHOOK_RETRY_DELAYS_S = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Every problem is collected and reported together, so one start names all there is to fix.
  const problems: string[] = [];
  const refuse = (problem: string) => problems.push(problem);
  /** What `read` gives, or `fallback` with its problem noted. */
  const setting = <T>(read: () => T, fallback: T): T => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return fallback;
    }
  };

  const nodeEnv = env.NODE_ENV ?? 'development';
  const isProduction = nodeEnv === 'production';
  const port = setting(() => integer(env, 'PORT', 4000, 0), 4000);

  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    refuse('DATABASE_URL must be a postgresql:// URL');
  }
  const schemaSetting = env.DATABASE_SCHEMA || 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schemaSetting)) {
    refuse('DATABASE_SCHEMA must be a lower-case SQL identifier');
  }
  // A PostgreSQL server's schema: the embedded database has one, `public`, which its notifications
  // (outbox wake-ups, key changes) name.
  const databaseSchema = databaseUrl ? schemaSetting : 'public';

  // The embedded database runs inside this process: one heavy query stalls every request, and
  // the request deadline cannot interrupt it. Production runs on a server unless told otherwise.
  if (isProduction && !databaseUrl && !flag(env, 'ALLOW_EMBEDDED_DATABASE')) {
    refuse(
      'NODE_ENV=production needs DATABASE_URL (a postgresql:// URL): the embedded database runs ' +
        'inside the service, where one heavy query stalls every request and the request deadline ' +
        'cannot stop it. For a single-node demo, ALLOW_EMBEDDED_DATABASE=1 allows it.',
    );
  }

  const secret = env.DASHBOARD_JWT_SECRET || undefined;
  if (!secret && isProduction) {
    refuse('DASHBOARD_JWT_SECRET is required when NODE_ENV=production');
  }
  if (secret !== undefined && secret.length < 32) {
    refuse('DASHBOARD_JWT_SECRET must be at least 32 characters');
  }

  // Short links and the legacy hosts' successor link are built from it: in production a default of
  // localhost would hand out links nobody can follow.
  if (isProduction && !env.PUBLIC_BASE_URL) {
    refuse(
      'PUBLIC_BASE_URL is required when NODE_ENV=production: short links are built from it ' +
        '(e.g. https://api.example.com)',
    );
  }
  const publicBaseUrl = withoutTrailingSlash(env.PUBLIC_BASE_URL || `http://localhost:${port}`);
  if (!/^https?:\/\/[^/\s]+/.test(publicBaseUrl)) {
    refuse(`PUBLIC_BASE_URL must be an http(s) URL, got "${publicBaseUrl}"`);
  }
  const redisKeyPrefix = env.REDIS_KEY_PREFIX ?? '';
  if (!/^[A-Za-z0-9:_.-]{0,64}$/.test(redisKeyPrefix)) {
    refuse('REDIS_KEY_PREFIX takes up to 64 letters, digits and : _ . - (e.g. "affiliate-api:")');
  }
  const defaultKeyEnv = isProduction ? 'live' : 'test';
  const givenKeyEnv = env.KEY_ENV || defaultKeyEnv;
  const keyEnv = givenKeyEnv === 'live' || givenKeyEnv === 'test' ? givenKeyEnv : defaultKeyEnv;
  if (keyEnv !== givenKeyEnv) refuse('KEY_ENV must be "live" or "test"');

  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && !/^[\x21-\x7e]{16,}$/.test(metricsToken)) {
    refuse('METRICS_TOKEN must be at least 16 visible ASCII characters');
  }

  // Production webhooks go to public https URLs only: a receiver on the network's own private
  // addresses is what a forged request would reach.
  const webhookAllowPrivateUrls = flag(env, 'WEBHOOK_ALLOW_PRIVATE_URLS');
  if (isProduction && webhookAllowPrivateUrls) {
    refuse(
      'WEBHOOK_ALLOW_PRIVATE_URLS is for development and tests: NODE_ENV=production sends webhooks to public https URLs only',
    );
  }

  const dataDir = env.DATA_DIR || './data';
  const config: Config = {
    nodeEnv,
    isProduction,
    port,
    host: env.HOST || (isProduction ? undefined : '127.0.0.1'),
    databaseUrl,
    databaseSchema,
    dataDir,
    pgliteDataDir: env.PGLITE_DATA_DIR || path.join(dataDir, 'pglite'),
    pgliteTemplate: env.PGLITE_TEMPLATE || undefined,
    databasePoolSize: setting(() => integer(env, 'DATABASE_POOL_SIZE', 10), 10),
    databaseNamedStatements: setting(() => toggle(env, 'DATABASE_NAMED_STATEMENTS', true), true),
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix,
    dashboardJwtSecret: secret ?? setting(() => installationSecret(dataDir), ''),
    isDashboardSecretDefault: secret === undefined,
    dashboardTokenMaxLifetimeS: setting(
      () => integer(env, 'DASHBOARD_TOKEN_MAX_LIFETIME_S', 86_400),
      86_400,
    ),
    dashboardJwtIssuer: env.DASHBOARD_JWT_ISSUER || undefined,
    dashboardJwtAudience: env.DASHBOARD_JWT_AUDIENCE || undefined,
    publicBaseUrl,
    legacyHosts: list(env.LEGACY_HOSTS),
    shortLinkBaseUrl: withoutTrailingSlash(env.SHORT_LINK_BASE_URL || `${publicBaseUrl}/s`),
    keyEnv,
    trustProxy: setting(() => trustProxy(env, 'TRUST_PROXY'), 0),
    rateLimitMax: setting(() => integer(env, 'RATE_LIMIT_MAX', 60), 60),
    rateLimitWindowSeconds: setting(() => integer(env, 'RATE_LIMIT_WINDOW_S', 60), 60),
    migrateOnStart: setting(() => toggle(env, 'MIGRATE_ON_START', true), true),
    requestTimeoutMs: setting(() => integer(env, 'REQUEST_TIMEOUT_MS', 60_000), 60_000),
    responseCacheTtlSeconds: setting(() => integer(env, 'RESPONSE_CACHE_TTL', 5, 0), 5),
    legacySunset: setting(
      () => date(env, 'LEGACY_SUNSET', DEFAULT_LEGACY_SUNSET),
      new Date(DEFAULT_LEGACY_SUNSET),
    ),
    logLevel: env.LOG_LEVEL || (nodeEnv === 'test' ? 'silent' : 'info'),
    logFile: env.LOG_FILE || undefined,
    // Introspection and GraphiQL help in development; in production they only map the schema for
    // whoever probes it (the SDL is published in the repository for integrators).
    graphqlIntrospection: setting(
      () => toggle(env, 'GRAPHQL_INTROSPECTION', !isProduction),
      !isProduction,
    ),
    graphiql: setting(() => toggle(env, 'GRAPHIQL', !isProduction), !isProduction),
    corsOrigins: setting(() => origins(env, 'CORS_ORIGINS'), ['*']),
    // Metrics name routes and traffic: in production only for a scraper holding the token.
    metricsEnabled: !isProduction || metricsToken !== undefined,
    metricsToken,
    webhookAllowPrivateUrls,
    webhookPollIntervalMs: setting(() => integer(env, 'WEBHOOK_POLL_INTERVAL_MS', 5_000), 5_000),
    // Longer than a delivery's 10 s timeout, so a live dispatcher's claim never runs out.
    webhookLeaseS: setting(() => integer(env, 'WEBHOOK_LEASE_S', 60), 60),
    webhookRetryDelaysS: setting(
      () => integers(env, 'WEBHOOK_RETRY_DELAYS_S', WEBHOOK_RETRY_DELAYS_S),
      WEBHOOK_RETRY_DELAYS_S,
    ),
    webhookDisableAfterS: setting(
      () => integer(env, 'WEBHOOK_DISABLE_AFTER_S', 5 * 86_400),
      5 * 86_400,
    ),
    orderLockIntervalS: setting(() => integer(env, 'ORDER_LOCK_INTERVAL_S', 60), 60),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** The process's configuration; a service that cannot start says why and exits. */
export const config = ((): Config => {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(
      error.problems.length === 1
        ? `Configuration error: ${error.problems[0]}`
        : `Configuration errors, all of them:\n${bullets(error.problems)}`,
    );
    process.exit(1);
  }
})();
