// The environment: every default, and the refusals that stop a misconfigured service from
// starting.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/platform/config';
import { TrustedProxies } from '../../src/platform/trustProxy';
import { runToExit } from '../support/replica';

/** A data folder of the test's own (the development secret is written there). */
const freshDataDir = () => mkdtempSync(path.join(tmpdir(), 'config-data-'));
const testDataDir = freshDataDir();

/** The configuration of `env`, with the data folder in the test's own temporary folder. */
const configOf = (env: NodeJS.ProcessEnv) => loadConfig({ DATA_DIR: testDataDir, ...env });

const SECRET = 'a-dashboard-secret-of-32-chars!!';
/** A production setup that starts: a database server and a secret. */
const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgresql://app@db/app',
  DASHBOARD_JWT_SECRET: SECRET,
  PUBLIC_BASE_URL: 'https://api.example.com',
};

function refusal(env: NodeJS.ProcessEnv): ConfigError {
  try {
    configOf(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('accepted');
}

describe('defaults', () => {
  test('an environment without settings is a development setup on embedded PGlite', () => {
    const dataDir = freshDataDir();
    expect(loadConfig({ DATA_DIR: dataDir })).toEqual({
      nodeEnv: 'development',
      orderLockIntervalS: 60,
      isProduction: false,
      port: 4000,
      databaseUrl: undefined,
      databaseSchema: 'public',
      dataDir,
      pgliteDataDir: path.join(dataDir, 'pglite'),
      host: '127.0.0.1',
      databasePoolSize: 10,
      databaseNamedStatements: true,
      redisUrl: undefined,
      redisKeyPrefix: '',
      dashboardJwtSecret: expect.any(String),
      isDashboardSecretDefault: true,
      dashboardTokenMaxLifetimeS: 86_400,
      dashboardJwtIssuer: undefined,
      dashboardJwtAudience: undefined,
      publicBaseUrl: 'http://localhost:4000',
      legacyHosts: [],
      shortLinkBaseUrl: 'http://localhost:4000/s',
      keyEnv: 'test',
      trustProxy: 0,
      rateLimitMax: 60,
      rateLimitWindowSeconds: 60,
      requestTimeoutMs: 60_000,
      responseCacheTtlSeconds: 5,
      migrateOnStart: true,
      legacySunset: new Date('2027-06-30T23:59:59Z'),
      logLevel: 'info',
      logFile: undefined,
      graphqlIntrospection: true,
      graphiql: true,
      corsOrigins: ['*'],
      metricsEnabled: true,
      metricsToken: undefined,
      webhookAllowPrivateUrls: false,
      webhookPollIntervalMs: 5_000,
      webhookLeaseS: 60,
      webhookRetryDelaysS: [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000],
      webhookDisableAfterS: 432_000,
    });
  });

  test('the data folder defaults to ./data', () => {
    const config = loadConfig({ DASHBOARD_JWT_SECRET: SECRET });
    expect([config.dataDir, config.pgliteDataDir]).toEqual(['./data', 'data/pglite']);
  });

  test('new keys are live keys in production', () => {
    expect(configOf(PRODUCTION).keyEnv).toBe('live');
  });

  test('new keys are test keys under NODE_ENV=test', () => {
    expect(configOf({ NODE_ENV: 'test', DASHBOARD_JWT_SECRET: SECRET }).keyEnv).toBe('test');
  });

  test('KEY_ENV overrides the default', () => {
    expect(configOf({ KEY_ENV: 'live', DASHBOARD_JWT_SECRET: SECRET }).keyEnv).toBe('live');
    expect(configOf({ ...PRODUCTION, KEY_ENV: 'test' }).keyEnv).toBe('test');
  });

  test('KEY_ENV other than live or test is refused', () => {
    expect(refusal({ KEY_ENV: 'prod' }).message).toBe('KEY_ENV must be "live" or "test"');
  });

  test('empty values count as unset', () => {
    const config = configOf({
      PORT: '',
      DATABASE_URL: '',
      DATABASE_SCHEMA: '',
      RATE_LIMIT_MAX: '',
    });
    expect(config.port).toBe(4000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.databaseSchema).toBe('public');
    expect(config.rateLimitMax).toBe(60);
  });
});

describe('addresses', () => {
  test('outside production the service listens on the loopback only, unless HOST says otherwise', () => {
    expect(configOf({}).host).toBe('127.0.0.1');
    expect(configOf({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(configOf(PRODUCTION).host).toBeUndefined(); // every interface
    expect(configOf({ ...PRODUCTION, HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
  });

  test('the public base URL follows PORT', () => {
    const config = configOf({ PORT: '8080' });
    expect(config.port).toBe(8080);
    expect(config.publicBaseUrl).toBe('http://localhost:8080');
    expect(config.shortLinkBaseUrl).toBe('http://localhost:8080/s');
  });

  test('short links live under PUBLIC_BASE_URL/s, trailing slashes stripped', () => {
    const config = configOf({ PUBLIC_BASE_URL: 'https://api.example.com//' });
    expect(config.publicBaseUrl).toBe('https://api.example.com');
    expect(config.shortLinkBaseUrl).toBe('https://api.example.com/s');
  });

  test('SHORT_LINK_BASE_URL overrides the short-link prefix, trailing slash stripped', () => {
    const config = configOf({
      PUBLIC_BASE_URL: 'https://api.example.com',
      SHORT_LINK_BASE_URL: 'https://go.example/',
    });
    expect(config.shortLinkBaseUrl).toBe('https://go.example');
  });

  test('production requires PUBLIC_BASE_URL: short links must not point at localhost', () => {
    expect(refusal({ ...PRODUCTION, PUBLIC_BASE_URL: undefined }).message).toMatch(
      /^PUBLIC_BASE_URL is required when NODE_ENV=production/,
    );
  });

  test('PUBLIC_BASE_URL must be an http(s) URL', () => {
    expect(refusal({ PUBLIC_BASE_URL: 'api.example.com' }).message).toBe(
      'PUBLIC_BASE_URL must be an http(s) URL, got "api.example.com"',
    );
  });

  test('PORT that is not an integer is refused', () => {
    expect(refusal({ PORT: 'http' }).message).toBe('PORT must be an integer >= 0, got "http"');
  });
});

describe('dashboard secret', () => {
  test('is required in production', () => {
    expect(refusal({ ...PRODUCTION, DASHBOARD_JWT_SECRET: undefined }).message).toBe(
      'DASHBOARD_JWT_SECRET is required when NODE_ENV=production',
    );
  });

  test('an empty secret in production counts as missing', () => {
    expect(refusal({ ...PRODUCTION, DASHBOARD_JWT_SECRET: '' }).message).toBe(
      'DASHBOARD_JWT_SECRET is required when NODE_ENV=production',
    );
  });

  test('a secret shorter than 32 characters is refused', () => {
    expect(refusal({ DASHBOARD_JWT_SECRET: SECRET.slice(0, 31) }).message).toBe(
      'DASHBOARD_JWT_SECRET must be at least 32 characters',
    );
  });

  test('without one, outside production, the installation makes its own random secret once', () => {
    const dataDir = freshDataDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.isDashboardSecretDefault).toBe(true);
    expect(first.dashboardJwtSecret.length).toBeGreaterThanOrEqual(32);
    // Kept for the next start and for `npm run token`, readable by its owner only.
    const file = path.join(dataDir, 'dashboard-jwt-secret');
    expect(readFileSync(file, 'utf8')).toBe(first.dashboardJwtSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dataDir }).dashboardJwtSecret).toBe(first.dashboardJwtSecret);
    // Never a constant: another installation has another secret.
    expect(loadConfig({ DATA_DIR: freshDataDir() }).dashboardJwtSecret).not.toBe(
      first.dashboardJwtSecret,
    );
  });

  test('a secret of 32 characters is used as given', () => {
    const config = configOf(PRODUCTION);
    expect(config.dashboardJwtSecret).toBe(SECRET);
    expect(config.isDashboardSecretDefault).toBe(false);
    expect(config.isProduction).toBe(true);
  });
});

describe('webhooks', () => {
  test('production refuses WEBHOOK_ALLOW_PRIVATE_URLS', () => {
    expect(refusal({ ...PRODUCTION, WEBHOOK_ALLOW_PRIVATE_URLS: '1' }).message).toBe(
      'WEBHOOK_ALLOW_PRIVATE_URLS is for development and tests: NODE_ENV=production sends webhooks to public https URLs only',
    );
  });

  test('development may allow private webhook URLs', () => {
    expect(configOf({ WEBHOOK_ALLOW_PRIVATE_URLS: '1' }).webhookAllowPrivateUrls).toBe(true);
  });
});

describe('database', () => {
  test('production refuses to start on the embedded database, saying what to set', () => {
    expect(refusal({ ...PRODUCTION, DATABASE_URL: undefined }).message).toMatch(
      /^NODE_ENV=production needs DATABASE_URL \(a postgresql:\/\/ URL\).*ALLOW_EMBEDDED_DATABASE=1/,
    );
  });

  test('ALLOW_EMBEDDED_DATABASE=1 allows it in production, for a single-node demo', () => {
    const config = configOf({
      ...PRODUCTION,
      DATABASE_URL: undefined,
      ALLOW_EMBEDDED_DATABASE: '1',
    });
    expect([config.isProduction, config.databaseUrl]).toEqual([true, undefined]);
  });

  test.each(['postgresql://u:p@db:5432/app', 'postgres://u:p@db/app'])(
    'DATABASE_URL=%s selects PostgreSQL',
    (url) => {
      expect(configOf({ DATABASE_URL: url }).databaseUrl).toBe(url);
    },
  );

  test.each(['mysql://u:p@db/app', 'file:./dev.db', 'db:5432'])(
    'DATABASE_URL=%s is refused',
    (url) => {
      expect(refusal({ DATABASE_URL: url }).message).toBe(
        'DATABASE_URL must be a postgresql:// URL',
      );
    },
  );

  test("DATABASE_SCHEMA picks a PostgreSQL server's schema; the embedded database has public alone", () => {
    const server = 'postgresql://db.internal/network';
    expect(configOf({ DATABASE_URL: server, DATABASE_SCHEMA: 'test_ab12' }).databaseSchema).toBe(
      'test_ab12',
    );
    expect(configOf({ DATABASE_SCHEMA: 'test_ab12' }).databaseSchema).toBe('public');
  });

  test('DATABASE_SCHEMA must be a lower-case SQL identifier', () => {
    expect(refusal({ DATABASE_SCHEMA: 'Public' }).message).toBe(
      'DATABASE_SCHEMA must be a lower-case SQL identifier',
    );
    expect(refusal({ DATABASE_SCHEMA: 'x"; DROP' }).message).toBe(
      'DATABASE_SCHEMA must be a lower-case SQL identifier',
    );
  });
});

describe('DATABASE_POOL_SIZE and REDIS_KEY_PREFIX', () => {
  test('set the connections per replica and the prefix of every Redis key', () => {
    const config = configOf({ DATABASE_POOL_SIZE: '25', REDIS_KEY_PREFIX: 'eu-1:' });
    expect([config.databasePoolSize, config.redisKeyPrefix]).toEqual([25, 'eu-1:']);
  });

  test.each(['0', '-1', 'ten'])('DATABASE_POOL_SIZE=%s is refused', (value) => {
    expect(refusal({ DATABASE_POOL_SIZE: value }).message).toBe(
      `DATABASE_POOL_SIZE must be an integer >= 1, got "${value}"`,
    );
  });

  test.each(['with space', 'x'.repeat(65), 'a*'])('REDIS_KEY_PREFIX=%s is refused', (value) => {
    expect(refusal({ REDIS_KEY_PREFIX: value }).message).toMatch(/^REDIS_KEY_PREFIX takes/);
  });
});

describe('METRICS_TOKEN', () => {
  test('metrics are served outside production, and in production only with a token', () => {
    expect(configOf({}).metricsEnabled).toBe(true);
    expect(configOf(PRODUCTION).metricsEnabled).toBe(false);
    const guarded = configOf({ ...PRODUCTION, METRICS_TOKEN: 'a-metrics-token-0123' });
    expect([guarded.metricsEnabled, guarded.metricsToken]).toEqual([true, 'a-metrics-token-0123']);
  });

  test.each(['short', 'with spaces in it, long enough'])('METRICS_TOKEN=%s is refused', (token) => {
    expect(refusal({ METRICS_TOKEN: token }).message).toBe(
      'METRICS_TOKEN must be at least 16 visible ASCII characters',
    );
  });
});

describe('legacy hosts', () => {
  test('LEGACY_HOSTS is split on commas, trimmed and lower-cased, empty items dropped', () => {
    expect(
      configOf({ LEGACY_HOSTS: ' Beta.Example.com , old.example.com,, ' }).legacyHosts,
    ).toEqual(['beta.example.com', 'old.example.com']);
  });
});

describe('TRUST_PROXY', () => {
  test.each(['', '0', 'false', 'off', 'NO'])('TRUST_PROXY=%j: no proxy', (value) => {
    expect(configOf({ TRUST_PROXY: value }).trustProxy).toBe(0);
  });

  test.each(['1', 'true', 'TRUE', 'yes', 'on'])('TRUST_PROXY=%s: one proxy', (value) => {
    expect(configOf({ TRUST_PROXY: value }).trustProxy).toBe(1);
  });

  test('a count of proxies, up to 10', () => {
    expect(configOf({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(configOf({ TRUST_PROXY: '10' }).trustProxy).toBe(10);
    expect(refusal({ TRUST_PROXY: '11' }).message).toBe(
      'TRUST_PROXY takes at most 10 proxies, got "11"',
    );
  });

  test("the proxies' addresses and ranges, IPv4 and IPv6", () => {
    const { trustProxy } = configOf({ TRUST_PROXY: ' 10.0.0.0/8, 192.0.2.7 ,2001:db8::/32' });
    expect(trustProxy).toBeInstanceOf(TrustedProxies);
    const trusted = trustProxy as TrustedProxies;
    expect(['10.200.0.1', '192.0.2.7', '2001:db8::1'].map((a) => trusted.trusts(a))).toEqual([
      true,
      true,
      true,
    ]);
    expect(['192.0.2.8', '11.0.0.1', '2001:db9::1'].map((a) => trusted.trusts(a))).toEqual([
      false,
      false,
      false,
    ]);
  });

  test.each([
    ['enabled', 'enabled'],
    ['-1', '-1'],
    ['1.5', '1.5'],
    ['proxy.internal', 'proxy.internal'],
    ['10.0.0.0/8, nginx', 'nginx'],
    ['10.0.0.0/33', '10.0.0.0/33'],
    ['10.0.0.1,', ''],
  ])('TRUST_PROXY=%j is refused, naming %j', (value, wrong) => {
    expect(refusal({ TRUST_PROXY: value }).message).toBe(
      'TRUST_PROXY takes the number of proxies in front of the service (1, 2, ...; 0 or off for none) ' +
        'or their addresses and ranges separated by commas (10.0.0.0/8, 192.0.2.7, 2001:db8::/32), ' +
        `got "${wrong}"`,
    );
  });
});

describe('rate limit', () => {
  test('RATE_LIMIT_MAX and RATE_LIMIT_WINDOW_S set the quota', () => {
    const config = configOf({ RATE_LIMIT_MAX: '100', RATE_LIMIT_WINDOW_S: '30' });
    expect(config.rateLimitMax).toBe(100);
    expect(config.rateLimitWindowSeconds).toBe(30);
  });

  test.each(['0', '-1', '1.5', 'sixty'])('RATE_LIMIT_MAX=%s is refused', (value) => {
    expect(refusal({ RATE_LIMIT_MAX: value }).message).toBe(
      `RATE_LIMIT_MAX must be an integer >= 1, got "${value}"`,
    );
  });
});

describe('RESPONSE_CACHE_TTL', () => {
  test('sets how long REST GET answers are served from the cache; 0 turns it off', () => {
    expect(configOf({ RESPONSE_CACHE_TTL: '30' }).responseCacheTtlSeconds).toBe(30);
    expect(configOf({ RESPONSE_CACHE_TTL: '0' }).responseCacheTtlSeconds).toBe(0);
  });

  test.each(['-1', '1.5', 'short'])('RESPONSE_CACHE_TTL=%s is refused', (value) => {
    expect(refusal({ RESPONSE_CACHE_TTL: value }).message).toBe(
      `RESPONSE_CACHE_TTL must be an integer >= 0, got "${value}"`,
    );
  });
});

describe('MIGRATE_ON_START', () => {
  test('off leaves migrations to a release step (npm run migrate)', () => {
    expect(configOf({ MIGRATE_ON_START: 'off' }).migrateOnStart).toBe(false);
    expect(refusal({ MIGRATE_ON_START: 'later' }).message).toMatch(
      /^MIGRATE_ON_START must be one of/,
    );
  });
});

describe('CORS_ORIGINS', () => {
  test('names the origins browsers may call from', () => {
    expect(
      configOf({ CORS_ORIGINS: 'https://dash.example.com, http://localhost:5173' }).corsOrigins,
    ).toEqual(['https://dash.example.com', 'http://localhost:5173']);
  });

  test('refuses what is not an origin', () => {
    expect(refusal({ CORS_ORIGINS: 'https://dash.example.com/app' }).message).toBe(
      'CORS_ORIGINS takes * or origins like https://app.example.com, got "https://dash.example.com/app"',
    );
    expect(refusal({ CORS_ORIGINS: 'null' }).message).toMatch(/^CORS_ORIGINS takes \*/);
  });
});

describe('GraphQL introspection and GraphiQL', () => {
  const production = PRODUCTION;

  test('are on by default outside production', () => {
    for (const NODE_ENV of ['development', 'test']) {
      const config = configOf({ NODE_ENV });
      expect([config.graphqlIntrospection, config.graphiql]).toEqual([true, true]);
    }
  });

  test('are off by default in production', () => {
    const config = configOf(production);
    expect([config.graphqlIntrospection, config.graphiql]).toEqual([false, false]);
  });

  test('GRAPHQL_INTROSPECTION and GRAPHIQL turn them on in production', () => {
    const config = configOf({ ...production, GRAPHQL_INTROSPECTION: 'true', GRAPHIQL: '1' });
    expect([config.graphqlIntrospection, config.graphiql]).toEqual([true, true]);
  });

  test.each(['0', 'false', 'OFF', 'no'])('GRAPHQL_INTROSPECTION=%s turns it off', (value) => {
    expect(configOf({ GRAPHQL_INTROSPECTION: value }).graphqlIntrospection).toBe(false);
    expect(configOf({ GRAPHIQL: value }).graphiql).toBe(false);
  });

  test('an empty value keeps the default', () => {
    expect(configOf({ ...production, GRAPHIQL: '' }).graphiql).toBe(false);
    expect(configOf({ GRAPHQL_INTROSPECTION: '' }).graphqlIntrospection).toBe(true);
  });

  test.each(['enabled', 'maybe', '2'])(
    'a value that is neither on nor off is refused: %s',
    (value) => {
      expect(refusal({ GRAPHIQL: value }).message).toBe(
        `GRAPHIQL must be one of 1, true, yes, on, 0, false, no, off, got "${value}"`,
      );
      expect(refusal({ GRAPHQL_INTROSPECTION: value }).message).toMatch(
        /^GRAPHQL_INTROSPECTION must/,
      );
    },
  );
});

describe('several problems', () => {
  const broken = {
    NODE_ENV: 'production',
    PORT: 'eighty',
    KEY_ENV: 'prod',
    CORS_ORIGINS: 'dashboard.example.com',
    WEBHOOK_RETRY_DELAYS_S: '5,soon',
  };

  test('are reported together', () => {
    expect(refusal(broken).problems).toEqual([
      'PORT must be an integer >= 0, got "eighty"',
      expect.stringMatching(/^NODE_ENV=production needs DATABASE_URL/),
      'DASHBOARD_JWT_SECRET is required when NODE_ENV=production',
      expect.stringMatching(/^PUBLIC_BASE_URL is required when NODE_ENV=production/),
      'KEY_ENV must be "live" or "test"',
      'CORS_ORIGINS takes * or origins like https://app.example.com, got "dashboard.example.com"',
      'WEBHOOK_RETRY_DELAYS_S takes integers >= 1 separated by commas, got "5,soon"',
    ]);
    expect(refusal(broken).message).toMatch(/^7 settings are wrong:\n {2}- PORT must be/);
  });

  test('stop the service at start with every one of them printed, exit code 1', async () => {
    const { code, output } = await runToExit(['-e', "require('./src/platform/config')"], {
      ...broken,
      DATABASE_URL: undefined,
      DASHBOARD_JWT_SECRET: undefined,
      PUBLIC_BASE_URL: undefined,
    });
    expect(code).toBe(1);
    const lines = output.trim().split('\n');
    expect(lines[0]).toBe('Configuration errors, all of them:');
    expect(lines.slice(1)).toHaveLength(7);
    expect(lines.slice(1).every((line) => line.startsWith('  - '))).toBe(true);
  });

  test('one problem is printed on one line', async () => {
    const { code, output } = await runToExit(['-e', "require('./src/platform/config')"], {
      PORT: 'x',
    });
    expect({ code, output: output.trim() }).toEqual({
      code: 1,
      output: 'Configuration error: PORT must be an integer >= 0, got "x"',
    });
  });
});
