// Which errors are a database outage (503, retry), or the request deadline met in the database
// (504), rather than a failed query (500).
import { GraphQLError } from 'graphql';
import { isDatabaseOutage, isStatementTimeout } from '../../src/platform/databaseOutage';
import { toHttpError } from '../../src/platform/errors';

const prismaError = (code: string, cause?: object) =>
  Object.assign(new Error('prisma'), { code, meta: cause && { driverAdapterError: { cause } } });

describe('isDatabaseOutage', () => {
  test.each([
    ["Prisma P1001 (can't reach the server)", prismaError('P1001')],
    ['Prisma P2024 (pool timeout)', prismaError('P2024')],
    ['Prisma P2028 (transaction closed under it)', prismaError('P2028')],
    ['adapter DatabaseNotReachable', prismaError('P2010', { kind: 'DatabaseNotReachable' })],
    ['adapter ConnectionClosed', prismaError('P2010', { kind: 'ConnectionClosed' })],
    ['adapter TooManyConnections', prismaError('P2010', { kind: 'TooManyConnections' })],
    ['57P01 admin shutdown', prismaError('P2010', { kind: 'postgres', code: '57P01' })],
    ['57P03 cannot connect now', prismaError('P2010', { kind: 'postgres', code: '57P03' })],
    ['08006 connection failure', prismaError('P2010', { kind: 'postgres', code: '08006' })],
    [
      "pg's DatabaseError for 57P01, unmapped",
      Object.assign(new Error('terminating connection due to administrator command'), {
        code: '57P01',
        severity: 'FATAL',
      }),
    ],
    ["pg's dropped connection", new Error('Connection terminated unexpectedly')],
    ["pg's pool connect timeout", new Error('timeout exceeded when trying to connect')],
    [
      "pg's client used after its connection failed",
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    [
      'an outage wrapped by GraphQL',
      new GraphQLError('wrapped', { originalError: prismaError('P1001') }),
    ],
    ['an outage as a cause', new Error('outer', { cause: prismaError('P1001') })],
  ])('%s is an outage', (_name, error) => {
    expect(isDatabaseOutage(error)).toBe(true);
  });

  test.each([
    ['a unique violation', prismaError('P2002', { kind: 'UniqueConstraintViolation' })],
    ['57014 statement timeout', prismaError('P2010', { kind: 'postgres', code: '57014' })],
    ['42P01 missing table', prismaError('P2010', { kind: 'postgres', code: '42P01' })],
    ['a plain error', new Error('boom')],
    [
      "pg's DatabaseError for a unique violation",
      Object.assign(new Error('dup'), { code: '23505' }),
    ],
    ['a GraphQL error of its own', new GraphQLError('bad argument')],
    ['not an error', 'P1001'],
    ['null', null],
  ])('%s is not', (_name, error) => {
    expect(isDatabaseOutage(error)).toBe(false);
  });

  test('a cycle of causes ends', () => {
    const error = new Error('a') as Error & { cause?: unknown };
    error.cause = error;
    expect(isDatabaseOutage(error)).toBe(false);
  });
});

describe('isStatementTimeout', () => {
  const cancelled = () =>
    Object.assign(new Error('canceling statement due to statement timeout'), {
      code: '57014',
      severity: 'ERROR',
    });

  test.each([
    ["the adapter's 57014", prismaError('P2010', { kind: 'postgres', code: '57014' })],
    ["pg's DatabaseError for 57014, unmapped", cancelled()],
    [
      'wrapped by GraphQL',
      new GraphQLError('x', {
        originalError: prismaError('P2010', { kind: 'postgres', code: '57014' }),
      }),
    ],
  ])('%s is the deadline, answered 504 REQUEST_TIMEOUT', (_name, error) => {
    expect(isStatementTimeout(error)).toBe(true);
    expect(isDatabaseOutage(error)).toBe(false);
    expect(toHttpError(error)).toMatchObject({ code: 'REQUEST_TIMEOUT', status: 504 });
  });

  test.each([
    ['57P01 admin shutdown', prismaError('P2010', { kind: 'postgres', code: '57P01' })],
    ['23514 check violation', prismaError('P2010', { kind: 'postgres', code: '23514' })],
    ['a plain error', new Error('boom')],
  ])('%s is not', (_name, error) => {
    expect(isStatementTimeout(error)).toBe(false);
  });
});
