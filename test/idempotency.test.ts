// runIdempotently, the Idempotency-Key machinery both transports use (src/platform/idempotency.ts), on the
// real database: what is remembered, replayed, refused and taken over.
import { prisma } from '../src/platform/db';
import { requestHashOf, runIdempotently } from '../src/platform/idempotency';
import { useTestDatabase } from './support/app';

useTestDatabase();

describe('runIdempotently', () => {
  const request = (key: string, fingerprint: unknown = { a: 1 }) => ({
    scope: 'test-scope',
    key,
    fingerprint,
  });

  test('a 5xx answer or a thrown error is not remembered', async () => {
    let executions = 0;
    const failing = async () => ({ status: 503, body: { n: (executions += 1) } });
    await runIdempotently(request('fail-1'), failing);
    const second = await runIdempotently(request('fail-1'), failing);
    expect(second).toEqual({ answer: { status: 503, body: { n: 2 } }, replayed: false });

    await expect(
      runIdempotently(request('throw-1'), async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const after = await runIdempotently(request('throw-1'), async () => ({ status: 200, body: 1 }));
    expect(after.replayed).toBe(false);
  });

  test('a duplicate waits for the first answer, bounded, then 409', async () => {
    await prisma.idempotencyRecord.create({
      data: { scope: 'test-scope', key: 'pending-1', requestHash: requestHashOf({ a: 1 }) },
    });
    const started = Date.now();
    await expect(
      runIdempotently(request('pending-1'), async () => ({ status: 200, body: null }), {
        waitMs: 200,
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/in progress/) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  test('a pending record gone stale is taken over', async () => {
    await prisma.idempotencyRecord.create({
      data: {
        scope: 'test-scope',
        key: 'stale-1',
        requestHash: requestHashOf({ a: 1 }),
        createdAt: new Date(Date.now() - 3 * 60 * 1000),
      },
    });
    const result = await runIdempotently(request('stale-1'), async () => ({
      status: 201,
      body: { ok: true },
    }));
    expect(result).toEqual({ answer: { status: 201, body: { ok: true } }, replayed: false });
  });

  test('a null body is remembered as null', async () => {
    await runIdempotently(request('null-1'), async () => ({ status: 200, body: null }));
    const again = await runIdempotently(request('null-1'), async () => ({ status: 500, body: 1 }));
    expect(again).toEqual({ answer: { status: 200, body: null }, replayed: true });
  });
});
