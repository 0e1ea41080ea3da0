// Helpers for the key-security tests: an app that believes X-Forwarded-For (so tests choose the
// client IP), dashboard users with tokens, and a spy on every database call the app can make.
// Calls go through `callApp` / `graphqlApp` of ./app.
import { createApp, type AppOptions } from '../../src/app';
import { signDashboardToken } from '../../src/auth/dashboardToken';
import { prisma } from '../../src/platform/db';
import { Prisma } from '../../src/generated/prisma/client';
import type { App } from './app';
import { createUser } from './factories';

/**
 * A replica whose client IP comes from X-Forwarded-For (TRUST_PROXY on). Its limits stay in its
 * own memory unless a test hands it Redis: these tests fail many authentications, and in a shared
 * Redis they would spend the per-IP allowance other test files running meanwhile rely on.
 */
export function replica(options: AppOptions = {}): App {
  return createApp({
    redis: null,
    ...options,
    settings: { trustProxy: 1, ...options.settings },
  });
}

export async function dashboardUserWithToken(role: 'AFFILIATE' | 'PARTNER' = 'AFFILIATE') {
  const user = await createUser(role);
  return { user, token: await signDashboardToken(user.id) };
}

const OPERATIONS = [
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'create',
  'createMany',
  'update',
  'updateMany',
  'upsert',
  'delete',
  'deleteMany',
  'count',
  'aggregate',
  'groupBy',
] as const;
const RAW = ['$executeRaw', '$executeRawUnsafe', '$queryRaw', '$queryRawUnsafe', '$transaction'];

/**
 * Spies on every model operation and raw query of the one Prisma client (calls go through) and
 * lists the calls in order, named like `apiKey.findUnique` or `$executeRaw`.
 */
export function spyOnDatabase() {
  const spies: { name: string; spy: jest.SpyInstance }[] = [];
  const client = prisma as unknown as Record<string, Record<string, () => unknown>>;
  for (const model of Object.values(Prisma.ModelName)) {
    const name = model[0]!.toLowerCase() + model.slice(1);
    const delegate = client[name]!;
    for (const operation of OPERATIONS) {
      if (typeof delegate[operation] !== 'function') continue;
      spies.push({ name: `${name}.${operation}`, spy: jest.spyOn(delegate, operation) });
    }
  }
  for (const method of RAW) {
    spies.push({ name: method, spy: jest.spyOn(client as never, method as never) });
  }
  const rawSpies = spies.filter(({ name }) => name.startsWith('$'));
  return {
    /** The text of each raw query, in order (tagged templates: the literal parts joined). */
    rawSql: (): string[] =>
      rawSpies
        .flatMap(({ spy }) =>
          spy.mock.calls.map((args, n) => ({
            order: spy.mock.invocationCallOrder[n]!,
            sql: Array.isArray(args[0]) ? (args[0] as string[]).join('?') : String(args[0]),
          })),
        )
        .sort((a, b) => a.order - b.order)
        .map(({ sql }) => sql),
    calls: (): string[] =>
      spies
        .flatMap(({ name, spy }) => spy.mock.invocationCallOrder.map((order) => ({ name, order })))
        .sort((a, b) => a.order - b.order)
        .map(({ name }) => name),
    restore: () => spies.forEach(({ spy }) => spy.mockRestore()),
  };
}

/** Runs `work` with every database call spied on (`spyOnDatabase`), restored whatever happens. */
export async function withDatabaseSpy<T>(
  work: (database: ReturnType<typeof spyOnDatabase>) => Promise<T>,
): Promise<T> {
  const database = spyOnDatabase();
  try {
    return await work(database);
  } finally {
    database.restore();
  }
}
