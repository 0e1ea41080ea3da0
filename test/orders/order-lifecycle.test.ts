// The commission lifecycle (docs/order-lifecycle.md), written by the back office in SQL and
// recorded by the database: reasons and original amounts on the order, the lock, the order's
// events, the change feed GET /affiliate/order-events and the `finalThrough` watermark.
import { Prisma } from '../../src/generated/prisma/client';
import { isEmbeddedDatabase, prisma } from '../../src/platform/db';
import { lockDueOrders } from '../../src/modules/orders/lifecycle';
import { call, expectError, graphql, useTestDatabase } from '../support/app';
import {
  createAffiliate,
  createApiKey,
  createBrand,
  createOrder,
  createUser,
} from '../support/factories';
import { withDatabaseSpy } from '../support/keySecurity';
import { holdLock } from '../support/locks';
import { until } from '../support/wait';

useTestDatabase();

const onPostgres = isEmbeddedDatabase ? test.skip : test;

let key: string;
let affiliateId: string;
let otherKey: string;
let otherAffiliateId: string;
/** A brand whose orders lock 30 days after they are placed. */
let brandId: string;
/** A brand whose orders lock as soon as they are recorded. */
let lockingBrandId: string;

beforeAll(async () => {
  affiliateId = (await createUser()).id;
  otherAffiliateId = (await createUser()).id;
  ({ apiKey: key } = await createApiKey('affiliate', { ownerId: affiliateId }));
  ({ apiKey: otherKey } = await createApiKey('affiliate', { ownerId: otherAffiliateId }));
  brandId = (await createBrand({ orderLockDays: 30 })).id;
  lockingBrandId = (await createBrand({ orderLockDays: 0 })).id;
});

const DAY = 86_400_000;
const get = (path: string, apiKey = key) => call(path, { key: apiKey });

/** Back-office writes: SQL straight into the table. */
const inSql = (statement: Prisma.Sql) => prisma.$executeRaw(statement);

async function insertOrderInSql(
  orderNumber: string,
  { brand = brandId, orderedAt = new Date(), owner = affiliateId, status = 'PENDING' } = {},
): Promise<string> {
  const [row] = await prisma.$queryRaw<{ id: string }[]>`
    INSERT INTO "Order" ("id", "orderNumber", "affiliateId", "organizationId", "status", "currency",
      "transactionValueMinor", "commissionRateBps", "earningsMinor", "sub1", "orderedAt")
    VALUES (gen_random_uuid(), ${orderNumber}, ${owner}::uuid, ${brand}::uuid,
      ${status}::"OrderStatus", 'EUR', 10000, 500, 500, 'mail', ${orderedAt})
    RETURNING "id"`;
  return row!.id;
}

/**
 * Makes an order look recorded long ago, locking at `locksAt`: the database keeps lock dates, so
 * the test sets it with the order's own triggers off (its schema's table only).
 */
async function recordedLongAgo(id: string, locksAt: Date): Promise<void> {
  await prisma.$transaction([
    prisma.$executeRaw`ALTER TABLE "Order" DISABLE TRIGGER USER`,
    prisma.$executeRaw`UPDATE "Order" SET "locksAt" = ${locksAt} WHERE "id" = ${id}::uuid`,
    prisma.$executeRaw`ALTER TABLE "Order" ENABLE TRIGGER USER`,
  ]);
}

/** Waits until the database's clock is past the order's lock date. */
async function untilPastLock(orderId: string): Promise<void> {
  await until(async () => {
    const [row] = await prisma.$queryRaw<{ past: boolean }[]>`
      SELECT "locksAt" < (now() AT TIME ZONE 'UTC')::timestamp(3) AS "past" FROM "Order" WHERE "id" = ${orderId}::uuid`;
    return row!.past;
  }, 'the lock date to pass');
}

const orderOf = async (id: string, apiKey = key) =>
  (await get(`/affiliate/orders/${id}`, apiKey)).body;
const eventsOf = async (id: string) => (await get(`/affiliate/orders/${id}/events`)).body;

/** Every event of the feed after `after`, page by page. */
async function readFeed(after = '', query = '', apiKey = key) {
  const events: { cursor: string; type: string; orderId: string }[] = [];
  let cursor = after;
  for (;;) {
    const { status, body } = await get(
      `/affiliate/order-events?after=${cursor}&limit=3${query}`,
      apiKey,
    );
    expect(status).toBe(200);
    events.push(...body.data);
    cursor = body.next;
    if (!body.hasMore) return { events, next: cursor, finalThrough: body.finalThrough as string };
  }
}

/** The database's refusal of a write to the order, naming it and the rule. */
const refusal = (id: string, rule: RegExp) =>
  expect.objectContaining({
    message: expect.stringMatching(new RegExp(`order ${id}.*${rule.source}`)),
  });

describe('an order written in SQL', () => {
  test('is recorded with its original amounts, its lock date and its created event', async () => {
    const orderedAt = new Date(Date.now() - 2 * DAY);
    const id = await insertOrderInSql('LC-1', { orderedAt });
    expect(await orderOf(id)).toMatchObject({
      data: {
        id,
        status: 'PENDING',
        statusReason: null,
        statusNote: null,
        transactionValue: 100,
        earnings: 5,
        originalSaleAmount: 100,
        originalEarnings: 5,
        adjusted: false,
        locksAt: new Date(orderedAt.getTime() + 30 * DAY).toISOString(),
        lockedAt: null,
        isFinal: false,
      },
    });
    expect(await eventsOf(id)).toEqual({
      data: [
        {
          cursor: expect.stringMatching(/^\d+$/),
          orderId: id,
          type: 'CREATED',
          status: 'PENDING',
          previousStatus: null,
          reason: null,
          note: null,
          currency: 'EUR',
          saleAmount: 100,
          earnings: 5,
          previousSaleAmount: null,
          previousEarnings: null,
          saleAmountDelta: null,
          earningsDelta: null,
          // The lock date rides on every event: a sync needs not read the order for it.
          locksAt: new Date(orderedAt.getTime() + 30 * DAY).toISOString(),
          heldReason: null,
          earningId: null,
          clawback: null,
          occurredAt: expect.any(String),
          // Written with neither a link nor a code: no source.
          couponCode: null,
          campaignId: null,
          attribution: null,
        },
      ],
    });
  });

  test('locked before its date by the back office, it locks then: locksAt and lockedAt agree, on the order and its LOCKED event', async () => {
    const id = await insertOrderInSql('LC-EARLY', { status: 'APPROVED' });
    await inSql(Prisma.sql`UPDATE "Order" SET "lockedAt" = now() AT TIME ZONE 'UTC'
      WHERE "id" = ${id}::uuid`);
    const { data } = await orderOf(id);
    expect(Date.parse(data.locksAt)).toBeLessThanOrEqual(Date.now());
    expect(data.lockedAt).toBe(data.locksAt);
    const locked = (await eventsOf(id)).data.find(
      (event: { type: string }) => event.type === 'LOCKED',
    );
    expect(locked.locksAt).toBe(data.locksAt);
    // A refusal names that time.
    await expect(
      inSql(Prisma.sql`UPDATE "Order" SET "status" = 'PENDING' WHERE "id" = ${id}::uuid`),
    ).rejects.toEqual(
      refusal(id, new RegExp(`is locked since ${data.locksAt}: it no longer changes`)),
    );
  });

  test('an adjustment with its reason shows the original amounts, the delta and the reason', async () => {
    const id = await insertOrderInSql('LC-2');
    await inSql(Prisma.sql`
      UPDATE "Order" SET "transactionValueMinor" = 7500, "earningsMinor" = 375,
        "statusReason" = 'RETURNED', "statusNote" = 'one of four items returned'
      WHERE "id" = ${id}::uuid`);
    expect((await orderOf(id)).data).toMatchObject({
      transactionValue: 75,
      earnings: 3.75,
      originalSaleAmount: 100,
      originalEarnings: 5,
      adjusted: true,
      statusReason: 'RETURNED',
      statusNote: 'one of four items returned',
    });
    expect((await eventsOf(id)).data.at(-1)).toMatchObject({
      type: 'ADJUSTED',
      status: 'PENDING',
      reason: 'RETURNED',
      note: 'one of four items returned',
      saleAmount: 75,
      earnings: 3.75,
      previousSaleAmount: 100,
      previousEarnings: 5,
      saleAmountDelta: -25,
      earningsDelta: -1.25,
    });
  });

  test('a rejection records its reason; approving again clears it; paying adds a paid event', async () => {
    const id = await insertOrderInSql('LC-3');
    await inSql(Prisma.sql`
      UPDATE "Order" SET "status" = 'REJECTED', "statusReason" = 'FRAUD' WHERE "id" = ${id}::uuid`);
    expect((await orderOf(id)).data).toMatchObject({ status: 'REJECTED', statusReason: 'FRAUD' });
    await inSql(Prisma.sql`UPDATE "Order" SET "status" = 'APPROVED' WHERE "id" = ${id}::uuid`);
    expect((await orderOf(id)).data).toMatchObject({ status: 'APPROVED', statusReason: null });
    await inSql(Prisma.sql`UPDATE "Order" SET "status" = 'PAID' WHERE "id" = ${id}::uuid`);
    const { data } = await eventsOf(id);
    expect(
      data.map((event: Record<string, unknown>) => [
        event.type,
        event.previousStatus,
        event.status,
        event.reason,
      ]),
    ).toEqual([
      ['CREATED', null, 'PENDING', null],
      ['STATUS_CHANGED', 'PENDING', 'REJECTED', 'FRAUD'],
      ['STATUS_CHANGED', 'REJECTED', 'APPROVED', null],
      ['STATUS_CHANGED', 'APPROVED', 'PAID', null],
      ['PAID', 'APPROVED', 'PAID', null],
    ]);
    const numbers = data.map((event: { cursor: string }) => Number(event.cursor));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });

  test('is locked by the lock pass once its lock date has passed, with a locked event', async () => {
    const id = await insertOrderInSql('LC-4', {
      brand: lockingBrandId,
      orderedAt: new Date(Date.now() - 40 * DAY),
    });
    const recorded = (await orderOf(id)).data;
    expect(Date.parse(recorded.locksAt)).toBeGreaterThan(Date.now() - 60_000);
    await untilPastLock(id);
    // Locked by its date before the pass marks it.
    expect((await orderOf(id)).data).toMatchObject({
      lockedAt: recorded.locksAt,
      isFinal: true,
    });
    expect(await lockDueOrders()).toBeGreaterThanOrEqual(1);
    const row = await prisma.order.findUniqueOrThrow({ where: { id } });
    expect(row.lockedAt?.toISOString()).toBe(recorded.locksAt);
    expect((await eventsOf(id)).data.map((event: { type: string }) => event.type)).toEqual([
      'CREATED',
      'LOCKED',
    ]);
    expect(await lockDueOrders()).toBe(0);
  });

  test('GraphQL answers the same order and its events', async () => {
    const id = await insertOrderInSql('LC-5');
    const { body } = await graphql(
      `
        query ($id: ID!) {
          affiliateOrder(orderId: $id) {
            data {
              id
              adjusted
              originalSaleAmount
              locksAt
              isFinal
              events {
                type
                saleAmount
                cursor
              }
            }
          }
        }
      `,
      { id },
      { key },
    );
    const rest = (await orderOf(id)).data;
    expect(body.data.affiliateOrder.data).toEqual({
      id,
      adjusted: false,
      originalSaleAmount: 100,
      locksAt: rest.locksAt,
      isFinal: false,
      events: [{ type: 'CREATED', saleAmount: 100, cursor: expect.stringMatching(/^\d+$/) }],
    });
    // REST order answers keep their list of events to their own route.
    expect(rest).not.toHaveProperty('events');
  });
});

describe('the database refuses', () => {
  test('a rejection without a reason', async () => {
    const id = await insertOrderInSql('RF-1');
    await expect(
      inSql(Prisma.sql`UPDATE "Order" SET "status" = 'REJECTED' WHERE "id" = ${id}::uuid`),
    ).rejects.toEqual(refusal(id, /a rejection needs a statusReason/));
    expect((await orderOf(id)).data.status).toBe('PENDING');
  });

  test('a change of the amounts without a reason', async () => {
    const id = await insertOrderInSql('RF-2');
    await expect(
      inSql(Prisma.sql`UPDATE "Order" SET "earningsMinor" = 1 WHERE "id" = ${id}::uuid`),
    ).rejects.toEqual(refusal(id, /a change of its amounts needs a statusReason/));
  });

  test('an order recorded REJECTED without a reason', async () => {
    await expect(
      inSql(Prisma.sql`
        INSERT INTO "Order" ("id", "orderNumber", "affiliateId", "organizationId", "status",
          "currency", "transactionValueMinor", "commissionRateBps", "earningsMinor", "orderedAt")
        VALUES ('00000000-0000-4000-8000-0000000000aa', 'RF-3', ${affiliateId}::uuid,
          ${brandId}::uuid, 'REJECTED', 'EUR', 100, 500, 5, now())`),
    ).rejects.toEqual(
      refusal(
        '00000000-0000-4000-8000-0000000000aa',
        /is recorded REJECTED without a statusReason/,
      ),
    );
  });

  test('any change of a locked order but APPROVED to PAID, naming the order and the rule', async () => {
    const id = await insertOrderInSql('RF-4', { brand: lockingBrandId, status: 'APPROVED' });
    await untilPastLock(id);
    // Locked by its date (the pass has not marked it): since its lock date.
    const { locksAt } = await prisma.order.findUniqueOrThrow({ where: { id } });
    const locked = refusal(
      id,
      new RegExp(
        `is locked since ${locksAt.toISOString()}: it no longer changes, but for APPROVED to PAID`,
      ),
    );
    const elsewhere = await createAffiliate();
    for (const change of [
      Prisma.sql`"status" = 'REJECTED', "statusReason" = 'FRAUD'`,
      Prisma.sql`"status" = 'PENDING'`,
      Prisma.sql`"earningsMinor" = 1, "statusReason" = 'AMOUNT_CORRECTED'`,
      Prisma.sql`"transactionValueMinor" = 1, "statusReason" = 'AMOUNT_CORRECTED'`,
      Prisma.sql`"sub1" = 'other'`,
      // What no order event would tell: the order is frozen whole.
      Prisma.sql`"currency" = 'USD'`,
      Prisma.sql`"orderedAt" = "orderedAt" - interval '1 day'`,
      Prisma.sql`"orderNumber" = 'RF-4-renumbered'`,
      Prisma.sql`"statusNote" = 'a note after the lock'`,
      Prisma.sql`"affiliateId" = ${elsewhere.affiliateId}::uuid`,
      Prisma.sql`"commissionRateBps" = 1`,
    ]) {
      await expect(
        inSql(Prisma.sql`UPDATE "Order" SET ${change} WHERE "id" = ${id}::uuid`),
      ).rejects.toEqual(locked);
    }
    await inSql(Prisma.sql`UPDATE "Order" SET "status" = 'PAID' WHERE "id" = ${id}::uuid`);
    expect((await orderOf(id)).data).toMatchObject({ status: 'PAID', isFinal: true });
    await expect(
      inSql(Prisma.sql`UPDATE "Order" SET "status" = 'APPROVED' WHERE "id" = ${id}::uuid`),
    ).rejects.toEqual(locked);
  });

  test('a rewrite of what the database keeps: original amounts and lock dates stay', async () => {
    const id = await insertOrderInSql('RF-5');
    const before = await prisma.order.findUniqueOrThrow({ where: { id } });
    await inSql(Prisma.sql`
      UPDATE "Order" SET "originalEarningsMinor" = 1, "originalTransactionValueMinor" = 1,
        "locksAt" = '2000-01-01' WHERE "id" = ${id}::uuid`);
    const after = await prisma.order.findUniqueOrThrow({ where: { id } });
    expect(after).toMatchObject({
      originalEarningsMinor: before.originalEarningsMinor,
      originalTransactionValueMinor: before.originalTransactionValueMinor,
      locksAt: before.locksAt,
    });
  });
});

describe('GET /affiliate/order-events', () => {
  test('pages through every event of the affiliate, in order, each once', async () => {
    const { events, next } = await readFeed();
    const stored = await prisma.orderEvent.findMany({
      where: { affiliateId },
      orderBy: { number: 'asc' },
    });
    expect(events.map((event) => event.cursor)).toEqual(
      stored.map((event) => event.number.toString()),
    );
    expect(next).toBe(stored.at(-1)!.number.toString());
    const { body } = await get(`/affiliate/order-events?after=${next}`);
    expect(body).toEqual({ data: [], next, hasMore: false, finalThrough: expect.any(String) });
  });

  test('a page reads its events in one statement, however many it holds', async () => {
    for (const n of [1, 2, 3, 4]) await insertOrderInSql(`ONE-STATEMENT-${n}`);
    const calls = await withDatabaseSpy(async (database) => {
      const { status, body } = await get('/affiliate/order-events?limit=500');
      expect(status).toBe(200);
      expect(body.data.length).toBeGreaterThan(3);
      return database.calls();
    });
    expect(calls.filter((call) => call.startsWith('orderEvent.'))).toEqual(['orderEvent.findMany']);
  });

  test('types= keeps those types', async () => {
    const { events } = await readFeed('', '&types=ADJUSTED,PAID');
    expect(new Set(events.map((event) => event.type))).toEqual(new Set(['ADJUSTED', 'PAID']));
  });

  test('limit is 100 by default and clamped to 500', async () => {
    for (let n = 0; n < 4; n += 1) await createOrder(affiliateId, brandId);
    const { body } = await get('/affiliate/order-events?limit=1');
    expect(body.data).toHaveLength(1);
    expect(body.hasMore).toBe(true);
    const all = await prisma.orderEvent.count({ where: { affiliateId } });
    expect((await get('/affiliate/order-events')).body.data).toHaveLength(Math.min(all, 100));
    expect((await get('/affiliate/order-events?limit=5000')).body.data).toHaveLength(
      Math.min(all, 500),
    );
  });

  test.each([
    ['after=abc', 'after'],
    ['after=-1', 'after'],
    ['limit=0', 'limit'],
    ['types=SHIPPED', 'types'],
  ])('?%s answers 400 naming %s', async (query, name) => {
    const answer = await get(`/affiliate/order-events?${query}`);
    expectError(answer, 'BAD_REQUEST', expect.stringContaining(name));
  });

  test('a rolled-back change leaves no event and takes no number', async () => {
    const id = await insertOrderInSql('RB-1');
    const { next } = await readFeed();
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.$executeRaw`UPDATE "Order" SET "status" = 'APPROVED' WHERE "id" = ${id}::uuid`;
        throw new Error('the back office changes its mind');
      }),
    ).rejects.toThrow('changes its mind');
    expect((await readFeed(next)).events).toEqual([]);
    await inSql(Prisma.sql`UPDATE "Order" SET "status" = 'APPROVED' WHERE "id" = ${id}::uuid`);
    const { events } = await readFeed(next);
    expect(events).toMatchObject([{ orderId: id, type: 'STATUS_CHANGED' }]);
    expect(BigInt(events[0]!.cursor)).toBe(BigInt(next) + 1n);
  });

  test('concurrent writers: the cursor never skips or repeats an event', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, (_, n) => insertOrderInSql(`CW-${n}`)));
    const start = (await readFeed()).next;
    const seen: string[] = [];
    let cursor = start;
    let writing = true;
    const reader = (async () => {
      while (writing) {
        const { events, next } = await readFeed(cursor);
        seen.push(...events.map((event) => event.cursor));
        cursor = next;
      }
    })();
    await Promise.all(
      ids.map((id, n) =>
        prisma.$transaction(async (tx) => {
          await tx.$executeRaw`UPDATE "Order" SET "status" = 'APPROVED' WHERE "id" = ${id}::uuid`;
          await tx.$executeRaw`
            UPDATE "Order" SET "earningsMinor" = ${400 + n}, "statusReason" = 'AMOUNT_CORRECTED'
            WHERE "id" = ${id}::uuid`;
        }),
      ),
    );
    writing = false;
    await reader;
    seen.push(...(await readFeed(cursor)).events.map((event) => event.cursor));
    const written = await prisma.orderEvent.findMany({
      where: { affiliateId, number: { gt: BigInt(start) } },
      orderBy: { number: 'asc' },
    });
    expect(written).toHaveLength(12);
    expect(seen).toEqual(written.map((event) => event.number.toString()));
  });

  onPostgres(
    "a writer waits for the affiliate's uncommitted one: no number shows before a smaller one",
    async () => {
      const [first, second] = [await insertOrderInSql('CW-A'), await insertOrderInSql('CW-B')];
      const start = (await readFeed()).next;
      const held = await holdLock(
        `UPDATE "Order" SET "status" = 'APPROVED' WHERE "id" = $1::uuid`,
        [first],
      );
      const marker = `later-writer-${second}`;
      // Named in its text, so the test can see it wait; started now (a Prisma query runs when awaited).
      const later = inSql(Prisma.sql`
        UPDATE "Order" /* ${Prisma.raw(marker)} */ SET "status" = 'APPROVED' WHERE "id" = ${second}::uuid`).then(
        () => undefined,
      );
      try {
        await until(async () => {
          const [row] = await prisma.$queryRaw<{ waiting: number }[]>`
            SELECT count(*)::int AS "waiting" FROM pg_stat_activity
            WHERE wait_event_type = 'Lock' AND query LIKE ${`%${marker}%`}`;
          return row!.waiting === 1;
        }, 'the later writer to wait');
        expect((await readFeed(start)).events).toEqual([]);
      } finally {
        await held.release();
      }
      await later;
      expect((await readFeed(start)).events.map((event) => event.orderId)).toEqual([first, second]);
    },
  );
});

describe('finalThrough', () => {
  const finalThrough = async (apiKey = key) =>
    Date.parse((await get('/affiliate/order-events?limit=1', apiKey)).body.finalThrough);

  test('the orders list carries the watermark the feed does', async () => {
    const before = Date.now();
    const list = Date.parse((await get('/affiliate/orders?limit=1')).body.finalThrough);
    const feed = await finalThrough();
    expect(list).toBeLessThanOrEqual(feed);
    expect(feed - list).toBeLessThan(Date.now() - before + 1_000);
  });

  test('is the earliest lock date of an order that may still change, else 15 minutes ago', async () => {
    const owner = (await createUser()).id;
    const { apiKey } = await createApiKey('affiliate', { ownerId: owner });
    const before = Date.now();
    const empty = await finalThrough(apiKey);
    expect(empty).toBeGreaterThanOrEqual(before - 15 * 60_000 - 1_000);
    expect(empty).toBeLessThanOrEqual(Date.now() - 15 * 60_000 + 1_000);

    const pending = await insertOrderInSql('FT-1', { owner });
    const approved = await insertOrderInSql('FT-2', { owner, status: 'APPROVED' });
    const rejected = await insertOrderInSql('FT-3', { owner });
    await inSql(Prisma.sql`
      UPDATE "Order" SET "status" = 'REJECTED', "statusReason" = 'DUPLICATE' WHERE "id" = ${rejected}::uuid`);
    await recordedLongAgo(pending, new Date(Date.now() - 3 * DAY));
    await recordedLongAgo(approved, new Date(Date.now() - 2 * DAY));
    await recordedLongAgo(rejected, new Date(Date.now() - 4 * DAY));
    // Locked by its date, but not yet marked: the lock pass still writes its event.
    expect(await finalThrough(apiKey)).toBe(await lockOf(rejected));
    await lockDueOrders();
    // Locked, but awaiting its payout: it may still move to PAID.
    expect(await finalThrough(apiKey)).toBe(await lockOf(approved));
    await inSql(Prisma.sql`UPDATE "Order" SET "status" = 'PAID' WHERE "id" = ${approved}::uuid`);
    expect(await finalThrough(apiKey)).toBeGreaterThan(Date.now() - 16 * 60_000);
  });

  const lockOf = async (id: string) =>
    (await prisma.order.findUniqueOrThrow({ where: { id } })).locksAt.getTime();

  test('never passes an order that later changes', async () => {
    const owner = (await createUser()).id;
    const { apiKey } = await createApiKey('affiliate', { ownerId: owner });
    const ids: string[] = [];
    for (let n = 0; n < 8; n += 1) {
      const id = await insertOrderInSql(`FN-${n}`, {
        owner,
        status: n % 3 ? 'PENDING' : 'APPROVED',
        orderedAt: new Date(Date.now() - n * 5 * DAY),
      });
      if (n % 2) await recordedLongAgo(id, new Date(Date.now() - n * DAY));
      ids.push(id);
    }
    await lockDueOrders();
    const watermark = await finalThrough(apiKey);
    // An order recorded afterwards, placed long ago.
    ids.push(
      await insertOrderInSql('FN-late', { owner, orderedAt: new Date(Date.now() - 400 * DAY) }),
    );
    const changes = [
      Prisma.sql`"status" = 'APPROVED'`,
      Prisma.sql`"status" = 'PAID'`,
      Prisma.sql`"status" = 'REJECTED', "statusReason" = 'CANCELLED'`,
      Prisma.sql`"earningsMinor" = "earningsMinor" + 1, "statusReason" = 'AMOUNT_CORRECTED'`,
      Prisma.sql`"sub2" = 'late'`,
    ];
    let changed = 0;
    for (const id of ids) {
      for (const change of changes) {
        const accepted = await inSql(
          Prisma.sql`UPDATE "Order" SET ${change} WHERE "id" = ${id}::uuid`,
        ).then(
          () => true,
          () => false,
        );
        if (!accepted) continue;
        changed += 1;
        expect(await lockOf(id)).toBeGreaterThanOrEqual(watermark);
      }
    }
    expect(changed).toBeGreaterThan(0);
  });
});

describe('tenant isolation', () => {
  test("another affiliate's order has no events for the key", async () => {
    const theirs = await insertOrderInSql('TI-1', { owner: otherAffiliateId });
    expectError(await get(`/affiliate/orders/${theirs}/events`), 'NOT_FOUND');
    expectError(await get('/affiliate/orders/not-a-uuid/events'), 'NOT_FOUND');
    expect((await get(`/affiliate/orders/${theirs}/events`, otherKey)).body.data).toHaveLength(1);
  });

  test("the feed holds only the key's affiliate's events", async () => {
    const { events } = await readFeed('', '', otherKey);
    const theirs = await prisma.orderEvent.findMany({ where: { affiliateId: otherAffiliateId } });
    expect(events.map((event) => event.orderId).sort()).toEqual(
      theirs.map((event) => event.orderId).sort(),
    );
    const mine = await readFeed();
    expect(mine.events.some((event) => theirs.some((e) => e.orderId === event.orderId))).toBe(
      false,
    );
  });

  test('GraphQL: another affiliate’s order and its events are not found', async () => {
    const theirs = await insertOrderInSql('TI-2', { owner: otherAffiliateId });
    const { body } = await graphql(
      'query ($id: ID!) { affiliateOrderHistory(orderId: $id) { data { cursor } } }',
      { id: theirs },
      { key },
    );
    expect(body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

test('the demo data has orders adjusted, rejected, locked, held and clawed back, each with its events', async () => {
  const { DEMO, seedDemoData } = await import('../../prisma/seed/demo');
  await seedDemoData(prisma);
  const events = await prisma.orderEvent.findMany({
    where: { affiliateId: DEMO.users.affiliate },
    select: { type: true, reason: true, previousEarningsMinor: true, earningsMinor: true },
  });
  const adjusted = events.filter((event) => event.type === 'ADJUSTED');
  expect(adjusted.length).toBeGreaterThan(0);
  for (const event of adjusted) {
    expect(event.reason).toBe('AMOUNT_CORRECTED');
    expect(event.earningsMinor).toBeLessThan(event.previousEarningsMinor!);
  }
  const types = new Set(events.map((event) => event.type));
  expect([...types].sort()).toEqual([
    'ADJUSTED',
    'CLAWBACK',
    'CREATED',
    'HELD',
    'LOCKED',
    'PAID',
    'STATUS_CHANGED',
  ]);
  const orders = await prisma.order.findMany({ where: { affiliateId: DEMO.users.affiliate } });
  expect(orders.some((order) => order.status === 'REJECTED' && order.statusReason)).toBe(true);
  expect(orders.some((order) => order.lockedAt !== null)).toBe(true);
  const corrected = orders.filter((order) => order.earningsMinor !== order.originalEarningsMinor);
  expect(corrected).toHaveLength(adjusted.length);
  // Each order locks its brand's period after it was placed, as if recorded then: the history
  // over past months, the newest orders on days to come, so `finalThrough` moves as they lock.
  const day = (date: Date) => date.toISOString().slice(0, 10);
  const now = Date.now();
  const comingDays = new Set(
    orders.filter((o) => o.locksAt.getTime() > now).map((o) => day(o.locksAt)),
  );
  const pastDays = new Set(
    orders.filter((o) => o.locksAt.getTime() <= now).map((o) => day(o.locksAt)),
  );
  expect(comingDays.size).toBeGreaterThan(2);
  expect(pastDays.size).toBeGreaterThan(10);
  for (const order of orders) {
    expect(order.locksAt.getTime() - order.orderedAt.getTime()).toBe(30 * DAY);
  }
  // A second run changes nothing.
  await seedDemoData(prisma);
  expect(await prisma.orderEvent.count({ where: { affiliateId: DEMO.users.affiliate } })).toBe(
    events.length,
  );
});
