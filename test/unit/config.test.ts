// The environment, decisions.md section 2: every default, and the refusals that stop a misconfigured
// service from starting.
import { ConfigError, loadConfig } from '../../src/config';

const SECRET = 'a-dashboard-secret-of-32-chars!!';

function refusal(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('accepted');
}

describe('defaults', () => {
  test('an empty environment is a development setup on embedded PGlite', () => {
    expect(loadConfig({})).toEqual({
      nodeEnv: 'development',
      isProduction: false,
      port: 4000,
      databaseUrl: undefined,
      databaseSchema: 'public',
      pgliteDataDir: './data/pglite',
      redisUrl: undefined,
      dashboardJwtSecret: expect.any(String),
      isDashboardSecretDefault: true,
      publicBaseUrl: 'http://localhost:4000',
      legacyHosts: [],
      shortLinkBaseUrl: 'http://localhost:4000/s',
      keyEnv: 'test',
      trustProxy: false,
      rateLimitMax: 60,
      rateLimitWindowSeconds: 60,
      requestTimeoutMs: 60_000,
      legacySunset: new Date('2027-06-30T23:59:59Z'),
      logLevel: 'info',
      logFile: undefined,
      graphqlIntrospection: true,
      graphiql: true,
    });
  });

  test('the development secret is long enough to pass its own check', () => {
    expect(loadConfig({}).dashboardJwtSecret.length).toBeGreaterThanOrEqual(32);
  });

  test('new keys are live keys in production', () => {
    expect(loadConfig({ NODE_ENV: 'production', DASHBOARD_JWT_SECRET: SECRET }).keyEnv).toBe(
      'live',
    );
  });

  test('new keys are test keys under NODE_ENV=test', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).keyEnv).toBe('test');
  });

  test('KEY_ENV overrides the default', () => {
    expect(loadConfig({ KEY_ENV: 'live' }).keyEnv).toBe('live');
    expect(
      loadConfig({ NODE_ENV: 'production', DASHBOARD_JWT_SECRET: SECRET, KEY_ENV: 'test' }).keyEnv,
    ).toBe('test');
  });

  test('KEY_ENV other than live or test is refused', () => {
    expect(refusal({ KEY_ENV: 'prod' }).message).toBe('KEY_ENV must be "live" or "test"');
  });

  test('empty values count as unset', () => {
    const config = loadConfig({
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
  test('the public base URL follows PORT', () => {
    const config = loadConfig({ PORT: '8080' });
    expect(config.port).toBe(8080);
    expect(config.publicBaseUrl).toBe('http://localhost:8080');
    expect(config.shortLinkBaseUrl).toBe('http://localhost:8080/s');
  });

  test('short links live under PUBLIC_BASE_URL/s, trailing slashes stripped', () => {
    const config = loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com//' });
    expect(config.publicBaseUrl).toBe('https://api.example.com');
    expect(config.shortLinkBaseUrl).toBe('https://api.example.com/s');
  });

  test('SHORT_LINK_BASE_URL overrides the short-link prefix, trailing slash stripped', () => {
    const config = loadConfig({
      PUBLIC_BASE_URL: 'https://api.example.com',
      SHORT_LINK_BASE_URL: 'https://go.example/',
    });
    expect(config.shortLinkBaseUrl).toBe('https://go.example');
  });

  test('PORT that is not an integer is refused', () => {
    expect(refusal({ PORT: 'http' }).message).toBe('PORT must be an integer >= 0, got "http"');
  });
});

describe('dashboard secret', () => {
  test('is required in production', () => {
    expect(refusal({ NODE_ENV: 'production' }).message).toBe(
      'DASHBOARD_JWT_SECRET is required when NODE_ENV=production',
    );
  });

  test('an empty secret in production counts as missing', () => {
    expect(refusal({ NODE_ENV: 'production', DASHBOARD_JWT_SECRET: '' }).message).toBe(
      'DASHBOARD_JWT_SECRET is required when NODE_ENV=production',
    );
  });

  test('a secret shorter than 32 characters is refused', () => {
    expect(refusal({ DASHBOARD_JWT_SECRET: SECRET.slice(0, 31) }).message).toBe(
      'DASHBOARD_JWT_SECRET must be at least 32 characters',
    );
  });

  test('a secret of 32 characters is used as given', () => {
    const config = loadConfig({ NODE_ENV: 'production', DASHBOARD_JWT_SECRET: SECRET });
    expect(config.dashboardJwtSecret).toBe(SECRET);
    expect(config.isDashboardSecretDefault).toBe(false);
    expect(config.isProduction).toBe(true);
  });
});

describe('database', () => {
  test.each(['postgresql://u:p@db:5432/app', 'postgres://u:p@db/app'])(
    'DATABASE_URL=%s selects PostgreSQL',
    (url) => {
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
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

  test('DATABASE_SCHEMA must be a lower-case SQL identifier', () => {
    expect(loadConfig({ DATABASE_SCHEMA: 'test_ab12' }).databaseSchema).toBe('test_ab12');
    expect(refusal({ DATABASE_SCHEMA: 'Public' }).message).toBe(
      'DATABASE_SCHEMA must be a lower-case SQL identifier',
    );
    expect(refusal({ DATABASE_SCHEMA: 'x"; DROP' }).message).toBe(
      'DATABASE_SCHEMA must be a lower-case SQL identifier',
    );
  });
});

describe('legacy hosts', () => {
  test('LEGACY_HOSTS is split on commas, trimmed and lower-cased, empty items dropped', () => {
    expect(
      loadConfig({ LEGACY_HOSTS: ' Beta.Example.com , old.example.com,, ' }).legacyHosts,
    ).toEqual(['beta.example.com', 'old.example.com']);
  });
});

describe('TRUST_PROXY', () => {
  test.each(['1', 'true', 'TRUE', 'yes', 'on'])('TRUST_PROXY=%s turns it on', (value) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(true);
  });

  test.each(['', '0', 'false', 'off', 'no', 'enabled'])('TRUST_PROXY=%j leaves it off', (value) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(false);
  });
});

describe('rate limit', () => {
  test('RATE_LIMIT_MAX and RATE_LIMIT_WINDOW_S set the quota', () => {
    const config = loadConfig({ RATE_LIMIT_MAX: '100', RATE_LIMIT_WINDOW_S: '30' });
    expect(config.rateLimitMax).toBe(100);
    expect(config.rateLimitWindowSeconds).toBe(30);
  });

  test.each(['0', '-1', '1.5', 'sixty'])('RATE_LIMIT_MAX=%s is refused', (value) => {
    expect(refusal({ RATE_LIMIT_MAX: value }).message).toBe(
      `RATE_LIMIT_MAX must be an integer >= 1, got "${value}"`,
    );
  });
});

describe('GraphQL introspection and GraphiQL', () => {
  const production = { NODE_ENV: 'production', DASHBOARD_JWT_SECRET: SECRET };

  test('are on by default outside production', () => {
    for (const NODE_ENV of ['development', 'test']) {
      const config = loadConfig({ NODE_ENV });
      expect([config.graphqlIntrospection, config.graphiql]).toEqual([true, true]);
    }
  });

  test('are off by default in production', () => {
    const config = loadConfig(production);
    expect([config.graphqlIntrospection, config.graphiql]).toEqual([false, false]);
  });

  test('GRAPHQL_INTROSPECTION and GRAPHIQL turn them on in production', () => {
    const config = loadConfig({ ...production, GRAPHQL_INTROSPECTION: 'true', GRAPHIQL: '1' });
    expect([config.graphqlIntrospection, config.graphiql]).toEqual([true, true]);
  });

  test.each(['0', 'false', 'OFF', 'no'])('GRAPHQL_INTROSPECTION=%s turns it off', (value) => {
    expect(loadConfig({ GRAPHQL_INTROSPECTION: value }).graphqlIntrospection).toBe(false);
    expect(loadConfig({ GRAPHIQL: value }).graphiql).toBe(false);
  });

  test('an empty value keeps the default', () => {
    expect(loadConfig({ ...production, GRAPHIQL: '' }).graphiql).toBe(false);
    expect(loadConfig({ GRAPHQL_INTROSPECTION: '' }).graphqlIntrospection).toBe(true);
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
