// The database's guarantees on payouts (migration payouts), whoever writes: each is refused when
// broken, with a message naming it; and the balance it keeps equals a direct sum over the orders.
import type { OrderStatus, PayoutStatus } from '../../src/generated/prisma/client';
import { config } from '../../src/platform/config';
import { prisma } from '../../src/platform/db';
import {
  balanceStateOf,
  BALANCE_STATES,
  entryBalanceStateOf,
} from '../../src/modules/payouts/balance';
import { useTestDatabase } from '../support/app';
import {
  createBrand,
  createEntry,
  createOrder,
  createPayout,
  lockOrders,
  payableOrder,
  createUser,
  setPayoutStatus,
} from '../support/factories';

useTestDatabase();

let brandId: string;
beforeAll(async () => {
  brandId = (await createBrand()).id;
});

async function affiliate() {
  return (await createUser('AFFILIATE')).id;
}

const setOrderStatus = (id: string, status: OrderStatus) =>
  prisma.$executeRaw`UPDATE "Order" SET "status" = ${status}::"OrderStatus" WHERE "id" = ${id}::uuid`;

const statusOf = async (id: string) =>
  (await prisma.order.findUniqueOrThrow({ where: { id } })).status;

describe('an order is in at most one payout that is not cancelled or failed', () => {
  test('a second payout of the order is refused', async () => {
    const affiliateId = await affiliate();
    const order = await payableOrder(affiliateId, brandId);
    const first = await createPayout(affiliateId, [order.id]);
    await expect(createPayout(affiliateId, [order.id])).rejects.toThrow(
      `order ${order.id} is already in payout ${first}: an order is in at most one payout that is not cancelled or failed`,
    );
  });

  test.each(['FAILED', 'CANCELLED'] as const)(
    'a %s payout frees its orders for another',
    async (status) => {
      const affiliateId = await affiliate();
      const order = await payableOrder(affiliateId, brandId);
      const first = await createPayout(affiliateId, [order.id]);
      await setPayoutStatus(first, status);
      const second = await createPayout(affiliateId, [order.id]);
      await setPayoutStatus(second, 'PAID');
      expect(await statusOf(order.id)).toBe('PAID');
    },
  );

  test('a paid payout keeps its orders', async () => {
    const affiliateId = await affiliate();
    const order = await payableOrder(affiliateId, brandId);
    await setPayoutStatus(await createPayout(affiliateId, [order.id]), 'PAID');
    await expect(setOrderStatus(order.id, 'APPROVED')).rejects.toThrow(
      'only payable orders are paid, and the orders of a payout change status only when it is paid',
    );
  });
});

describe('only payable orders are paid', () => {
  test.each(['PENDING', 'REJECTED', 'PAID'] as const)('a %s order is refused', async (status) => {
    const affiliateId = await affiliate();
    const order = await createOrder(affiliateId, brandId, { status });
    await expect(createPayout(affiliateId, [order.id])).rejects.toThrow(
      `order ${order.id} is ${status} and not payable: only payable (approved, locked, not held) orders are paid`,
    );
  });

  test('an order in a scheduled payout does not change status', async () => {
    const affiliateId = await affiliate();
    const order = await payableOrder(affiliateId, brandId);
    await createPayout(affiliateId, [order.id]);
    await expect(setOrderStatus(order.id, 'REJECTED')).rejects.toThrow(
      'only payable orders are paid',
    );
    expect(await statusOf(order.id)).toBe('APPROVED');
  });

  test("another affiliate's order is refused", async () => {
    const order = await payableOrder(await affiliate(), brandId);
    await expect(createPayout(await affiliate(), [order.id])).rejects.toThrow(
      "a payout pays its own affiliate's orders",
    );
  });
});

describe("a payout's amount is the sum of its items, in its currency", () => {
  test('an amount other than the sum is refused when the transaction checks it', async () => {
    const affiliateId = await affiliate();
    const order = await payableOrder(affiliateId, brandId, { earningsMinor: 700 });
    await expect(
      prisma.$transaction(async (tx) => {
        const [payout] = await tx.$queryRaw<{ id: string }[]>`
          INSERT INTO "Payout" ("affiliateId", "currency", "amountMinor", "periodStart", "periodEnd")
          VALUES (${affiliateId}::uuid, 'EUR', 701, '2026-01-01', '2026-02-01') RETURNING "id"::text`;
        await tx.$executeRaw`INSERT INTO "PayoutItem" ("payoutId", "orderId", "amountMinor")
          VALUES (${payout!.id}::uuid, ${order.id}::uuid, 700)`;
        await tx.$executeRaw`SET CONSTRAINTS "Payout_items_sum" IMMEDIATE`;
      }),
    ).rejects.toThrow(
      "amounts to 701 but its items sum to 700 (minor units of EUR): a payout's amount is the sum of its items, in its currency",
    );
    expect(await prisma.payout.count({ where: { affiliateId } })).toBe(0);
  });

  // PGlite's Prisma adapter does not report an error of COMMIT itself (the transaction is rolled
  // back all the same); PostgreSQL's does.
  (config.databaseUrl ? test : test.skip)(
    'an amount other than the sum is refused at commit',
    async () => {
      const affiliateId = await affiliate();
      const order = await payableOrder(affiliateId, brandId, { earningsMinor: 700 });
      await expect(createPayout(affiliateId, [order.id], { amountMinor: 701 })).rejects.toThrow(
        "amounts to 701 but its items sum to 700 (minor units of EUR): a payout's amount is the sum of its items, in its currency",
      );
      expect(await prisma.payout.count({ where: { affiliateId } })).toBe(0);
    },
  );

  test('an order in another currency is refused', async () => {
    const affiliateId = await affiliate();
    const order = await payableOrder(affiliateId, brandId, { currency: 'USD' });
    await expect(createPayout(affiliateId, [order.id], { currency: 'EUR' })).rejects.toThrow(
      'is in USD, payout',
    );
    await expect(createPayout(affiliateId, [order.id], { currency: 'EUR' })).rejects.toThrow(
      "a payout's amount is the sum of its items, in its currency",
    );
  });

  test("an item paying other than the order's earnings is refused", async () => {
    const affiliateId = await affiliate();
    const order = await payableOrder(affiliateId, brandId, { earningsMinor: 500 });
    const payout = await createPayout(affiliateId, []);
    await expect(
      prisma.$executeRaw`INSERT INTO "PayoutItem" ("payoutId", "orderId", "amountMinor") VALUES (${payout}::uuid, ${order.id}::uuid, 400)`,
    ).rejects.toThrow("a payout's items pay their orders' earnings");
  });

  test("an item's removal without the amount's is refused; with it, it is taken", async () => {
    const affiliateId = await affiliate();
    const [a, b] = [
      await payableOrder(affiliateId, brandId),
      await payableOrder(affiliateId, brandId),
    ];
    const payout = await createPayout(affiliateId, [a.id, b.id]);
    await expect(
      prisma.$executeRaw`DELETE FROM "PayoutItem" WHERE "orderId" = ${a.id}::uuid`,
    ).rejects.toThrow("a payout's amount is the sum of its items");
    await prisma.$transaction([
      prisma.$executeRaw`DELETE FROM "PayoutItem" WHERE "orderId" = ${a.id}::uuid`,
      prisma.$executeRaw`UPDATE "Payout" SET "amountMinor" = ${b.earningsMinor} WHERE "id" = ${payout}::uuid`,
    ]);
    expect(await prisma.payout.findUniqueOrThrow({ where: { id: payout } })).toMatchObject({
      amountMinor: BigInt(b.earningsMinor),
      itemsMinor: BigInt(b.earningsMinor),
      itemCount: 1,
    });
  });

  test('an order in a payout keeps its earnings', async () => {
    const affiliateId = await affiliate();
    const order = await payableOrder(affiliateId, brandId);
    await createPayout(affiliateId, [order.id]);
    await expect(
      prisma.$executeRaw`UPDATE "Order" SET "earningsMinor" = 1 WHERE "id" = ${order.id}::uuid`,
    ).rejects.toThrow("a payout's amount is the sum of its items");
  });

  test("the database's item sum is its own", async () => {
    const affiliateId = await affiliate();
    const payout = await createPayout(affiliateId, [(await payableOrder(affiliateId, brandId)).id]);
    await expect(
      prisma.$executeRaw`UPDATE "Payout" SET "itemsMinor" = 1 WHERE "id" = ${payout}::uuid`,
    ).rejects.toThrow('itemsMinor and itemCount are kept by the database');
  });
});

describe('a payout that becomes PAID makes its orders PAID in the same transaction', () => {
  test('each order PAID with an order.status_changed event, and the payout.processing and payout.paid events', async () => {
    const affiliateId = await affiliate();
    const orders = [
      await payableOrder(affiliateId, brandId),
      await payableOrder(affiliateId, brandId),
    ];
    const payout = await createPayout(
      affiliateId,
      orders.map((order) => order.id),
    );
    await setPayoutStatus(payout, 'PROCESSING');
    await setPayoutStatus(payout, 'PAID');
    for (const order of orders) {
      expect(await statusOf(order.id)).toBe('PAID');
      expect(
        await prisma.webhookEvent.findMany({
          where: { orderId: order.id, type: 'order.status_changed' },
          select: { status: true, previousStatus: true },
        }),
      ).toEqual([{ status: 'PAID', previousStatus: 'APPROVED' }]);
    }
    const paid = await prisma.payout.findUniqueOrThrow({ where: { id: payout } });
    expect(paid.paidAt).toBeInstanceOf(Date);
    expect(
      (
        await prisma.webhookEvent.findMany({ where: { payoutId: payout }, orderBy: { seq: 'asc' } })
      ).map((event) => event.type),
    ).toEqual(['payout.scheduled', 'payout.processing', 'payout.paid']);
  });

  test('a payout rolled back pays nothing', async () => {
    const affiliateId = await affiliate();
    const order = await payableOrder(affiliateId, brandId);
    const payout = await createPayout(affiliateId, [order.id]);
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.$executeRaw`UPDATE "Payout" SET "status" = 'PAID' WHERE "id" = ${payout}::uuid`;
        throw new Error('back office changed its mind');
      }),
    ).rejects.toThrow('back office changed its mind');
    expect(await statusOf(order.id)).toBe('APPROVED');
  });

  test.each([
    ['PAID', 'SCHEDULED'],
    ['FAILED', 'PAID'],
    ['CANCELLED', 'PROCESSING'],
  ] as const)('a %s payout keeps its status (not %s)', async (final, next) => {
    const affiliateId = await affiliate();
    const payout = await createPayout(affiliateId, [(await payableOrder(affiliateId, brandId)).id]);
    await setPayoutStatus(payout, final);
    await expect(setPayoutStatus(payout, next)).rejects.toThrow(
      `payout ${payout} is ${final}: a paid, failed or cancelled payout keeps its status`,
    );
  });

  test('a payout starts SCHEDULED or PROCESSING', async () => {
    const affiliateId = await affiliate();
    await expect(
      prisma.$executeRaw`INSERT INTO "Payout" ("affiliateId", "currency", "amountMinor", "status", "periodStart", "periodEnd", "paidAt")
        VALUES (${affiliateId}::uuid, 'EUR', 0, 'PAID', '2026-01-01', '2026-02-01', now())`,
    ).rejects.toThrow('a payout starts SCHEDULED or PROCESSING');
  });

  test('items of a paid payout do not change', async () => {
    const affiliateId = await affiliate();
    const payout = await createPayout(affiliateId, [(await payableOrder(affiliateId, brandId)).id]);
    await setPayoutStatus(payout, 'PAID');
    const other = await payableOrder(affiliateId, brandId);
    await expect(
      prisma.$executeRaw`INSERT INTO "PayoutItem" ("payoutId", "orderId", "amountMinor") VALUES (${payout}::uuid, ${other.id}::uuid, ${other.earningsMinor})`,
    ).rejects.toThrow('a paid, failed or cancelled payout keeps its items');
  });
});

/** The balance as the database keeps it: [orders, entries, minor units] by currency and state. */
async function keptBalance(affiliateId: string) {
  const rows = await prisma.affiliateBalance.findMany({ where: { affiliateId } });
  return Object.fromEntries(
    rows
      .filter((row) => row.orders !== 0 || row.entries !== 0 || row.earningsMinor !== 0n)
      .map((row) => [
        `${row.currency} ${row.state}`,
        [row.orders, row.entries, Number(row.earningsMinor)],
      ]),
  );
}

/** The balance summed directly over the orders, the entries and the payouts holding them. */
async function summedBalance(affiliateId: string) {
  const holding = (column: 'heldOrderId' | 'heldEarningId') => ({
    payoutItems: { where: { [column]: { not: null } }, include: { payout: true } },
  });
  const orders = await prisma.order.findMany({
    where: { affiliateId },
    include: holding('heldOrderId'),
  });
  const entries = await prisma.earning.findMany({
    where: { affiliateId },
    include: holding('heldEarningId'),
  });
  const sums: Record<string, [number, number, number]> = {};
  const add = (key: string, line: 0 | 1, minor: number) => {
    const sum = (sums[key] ??= [0, 0, 0]);
    sum[line] += 1;
    sum[2] += minor;
  };
  for (const order of orders) {
    const payoutStatus: PayoutStatus | null = order.payoutItems[0]?.payout.status ?? null;
    const state = balanceStateOf(order, payoutStatus);
    if (state !== null) add(`${order.currency} ${state}`, 0, order.earningsMinor);
  }
  for (const entry of entries) {
    const state = entryBalanceStateOf(entry, entry.payoutItems[0]?.payout.status ?? null);
    add(`${entry.currency} ${state}`, 1, entry.amountMinor);
  }
  return sums;
}

/** Runs writes at once; a write the database refuses (a lost race, a broken rule) is no failure. */
const concurrently = (writes: (() => Promise<unknown>)[]) =>
  Promise.allSettled(writes.map((write) => write()));

test('the balance equals a direct sum over the orders and entries after any sequence of writes, concurrent ones too, in JPY, EUR and BHD', async () => {
  const affiliateId = await affiliate();
  const other = await affiliate();
  // A deterministic sequence: a small linear congruential generator.
  let seed = Number(process.env.LEDGER_SEED ?? 42);
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    // The high bits: the low ones of this generator repeat with short periods.
    return Math.floor(seed / 65536) % n;
  };
  const pick = <T>(values: readonly T[]) => values[random(values.length)]!;
  const currencies = ['JPY', 'EUR', 'BHD'];
  const statuses: OrderStatus[] = ['PENDING', 'APPROVED', 'REJECTED'];
  const holds = ['REVIEW', 'DISPUTE', 'FRAUD_CHECK'] as const;
  /** The states the sequence went through: each must be reached. */
  const seen = new Set<string>();
  const check = async () => {
    const kept = await keptBalance(affiliateId);
    for (const key of Object.keys(kept)) seen.add(key.split(' ')[1]!);
    expect(kept).toEqual(await summedBalance(affiliateId));
    expect(await keptBalance(other)).toEqual(await summedBalance(other));
  };
  const free = { payoutItems: { none: { heldOrderId: { not: null } } } };
  for (let round = 0; round < 6; round++) {
    // Inserts, one by one and in bulk, for both affiliates.
    for (let i = 0; i < 4; i++) {
      await createOrder(i % 2 ? other : affiliateId, brandId, {
        status: pick(statuses),
        currency: pick(currencies),
        earningsMinor: 1 + random(100_000),
      });
    }
    await prisma.order.createMany({
      data: Array.from({ length: 5 }, (_, i) => {
        const status = pick(statuses);
        return {
          orderNumber: `BULK-${round}-${i}`,
          affiliateId,
          organizationId: brandId,
          status,
          statusReason: status === 'REJECTED' ? ('FRAUD' as const) : null,
          currency: pick(currencies),
          transactionValueMinor: 10_000,
          commissionRateBps: 500,
          earningsMinor: 1 + random(100_000),
          orderedAt: new Date(),
        };
      }),
    });
    // Entries of every kind but clawbacks, some held, for both affiliates.
    for (let i = 0; i < 3; i++) {
      const kind = pick(['BONUS', 'CPC', 'CREDIT', 'DEBIT'] as const);
      const magnitude = 1 + random(20_000);
      await createEntry(i === 2 ? other : affiliateId, {
        kind,
        currency: pick(currencies),
        amountMinor: kind === 'DEBIT' ? -magnitude : magnitude,
        heldReason: random(4) === 0 ? pick(holds) : null,
      });
    }
    // Status and earnings changes of orders in no payout, one statement for many.
    await prisma.$executeRaw`
      UPDATE "Order" SET "status" = 'APPROVED' WHERE "affiliateId" = ${affiliateId}::uuid
        AND "status" = 'PENDING' AND "earningsMinor" % 2 = 0 AND "lockedAt" IS NULL
        AND NOT EXISTS (SELECT 1 FROM "PayoutItem" i WHERE i."heldOrderId" = "Order"."id")`;
    await prisma.$executeRaw`
      UPDATE "Order" SET "earningsMinor" = "earningsMinor" + 1, "statusReason" = 'AMOUNT_CORRECTED'
      WHERE "affiliateId" = ${affiliateId}::uuid AND "lockedAt" IS NULL
        AND NOT EXISTS (SELECT 1 FROM "PayoutItem" i WHERE i."heldOrderId" = "Order"."id")`;
    // Holds and releases, of orders and entries in no payout.
    await prisma.$executeRaw`
      UPDATE "Order" SET "heldReason" = ${pick(holds)}::"HoldReason", "heldNote" = 'a look'
      WHERE "affiliateId" = ${affiliateId}::uuid AND "status" IN ('PENDING', 'APPROVED')
        AND "earningsMinor" % 5 = ${random(5)}
        AND NOT EXISTS (SELECT 1 FROM "PayoutItem" i WHERE i."heldOrderId" = "Order"."id")`;
    await prisma.$executeRaw`
      UPDATE "Order" SET "heldReason" = NULL
      WHERE "affiliateId" = ${affiliateId}::uuid AND "earningsMinor" % 3 = ${random(3)}`;
    await prisma.$executeRaw`
      UPDATE "Earning" SET "heldReason" = NULL
      WHERE "affiliateId" = ${affiliateId}::uuid AND "amountMinor" % 2 = ${random(2)}
        AND NOT EXISTS (SELECT 1 FROM "PayoutItem" i WHERE i."heldEarningId" = "Earning"."id")`;
    await check();
    // A payout per currency of the payable orders and free entries, then paid, failed, cancelled
    // or left; concurrently, clawbacks of paid orders and holds race it.
    for (const currency of currencies) {
      const approved = await prisma.order.findMany({
        where: { affiliateId, currency, status: 'APPROVED', heldReason: null, ...free },
        select: { id: true },
      });
      // Half of the approved orders lock (and become available) before the payout.
      const locking = approved.filter((_, i) => i % 2 === 0).map((order) => order.id);
      await lockOrders(locking);
      await check();
      const lockedOrders = await prisma.order.findMany({
        where: { id: { in: locking } },
        select: { earningsMinor: true },
      });
      const entries = await prisma.earning.findMany({
        where: {
          affiliateId,
          currency,
          heldReason: null,
          payoutItems: { none: { heldEarningId: { not: null } } },
        },
        select: { id: true, amountMinor: true },
      });
      const total =
        lockedOrders.reduce((sum, order) => sum + order.earningsMinor, 0) +
        entries.reduce((sum, entry) => sum + entry.amountMinor, 0);
      // A payout pays at least nothing: when debits and clawbacks outweigh, only the orders go.
      const paying = total >= 0 ? entries.map((entry) => entry.id) : [];
      if (locking.length === 0 && paying.length === 0) continue;
      const paidOrders = await prisma.order.findMany({
        where: { affiliateId, currency, status: 'PAID' },
        select: { id: true, earningsMinor: true },
      });
      const clawed = paidOrders.length ? pick(paidOrders) : null;
      // Every other round, a hold of an order the payout takes races it.
      const contested = round % 2 === 0 ? locking.at(-1) : undefined;
      const [paidOut, , , hold] = await concurrently([
        () => createPayout(affiliateId, locking, { currency, entryIds: paying }),
        // Two clawbacks of one paid order, each of up to two thirds: the second may be refused.
        ...[0, 1].map(
          () => () =>
            clawed
              ? createEntry(affiliateId, {
                  kind: 'CLAWBACK',
                  currency,
                  orderId: clawed.id,
                  amountMinor: -(1 + random(Math.ceil((clawed.earningsMinor * 2) / 3))),
                })
              : Promise.resolve(),
        ),
        () =>
          contested
            ? prisma.order.update({ where: { id: contested }, data: { heldReason: 'DISPUTE' } })
            : Promise.resolve(),
      ]);
      // The payout and the hold: one of the two is refused, whichever comes second.
      if (contested) {
        expect([paidOut!.status, hold!.status].sort()).toEqual(['fulfilled', 'rejected']);
      } else {
        expect(paidOut!.status).toBe('fulfilled');
      }
      await check();
      const payout = await prisma.payout.findFirst({
        where: { affiliateId, currency, status: 'SCHEDULED' },
        orderBy: { scheduledAt: 'desc' },
      });
      const outcome = pick(['PAID', 'PAID', 'FAILED', 'CANCELLED', 'PROCESSING', null] as const);
      if (payout && outcome) await setPayoutStatus(payout.id, outcome);
      await check();
    }
    // A deleted order and entry in no payout leave the balance.
    const loose = await prisma.order.findFirst({
      where: { affiliateId, payoutItems: { none: {} }, clawbacks: { none: {} } },
      orderBy: { orderNumber: 'asc' },
      select: { id: true },
    });
    if (loose) await prisma.order.delete({ where: { id: loose.id } });
    const looseEntry = await prisma.earning.findFirst({
      where: { affiliateId, kind: { not: 'CLAWBACK' }, payoutItems: { none: {} } },
      orderBy: { id: 'asc' },
      select: { id: true },
    });
    if (looseEntry) await prisma.earning.delete({ where: { id: looseEntry.id } });
    await check();
  }
  expect([...seen].sort()).toEqual([...BALANCE_STATES].sort());
  // Every clawback together takes back at most what its order earned.
  const overTaken = await prisma.$queryRaw<{ id: string }[]>`
    SELECT o."id"::text FROM "Order" o JOIN "Earning" e ON e."orderId" = o."id"
    GROUP BY o."id" HAVING sum(e."amountMinor") < -o."earningsMinor"`;
  expect(overTaken).toEqual([]);
  expect(await prisma.earning.count({ where: { affiliateId, kind: 'CLAWBACK' } })).toBeGreaterThan(
    0,
  );
});

test('the demo data has payouts in each status, each amounting to its items; a second run adds none', async () => {
  const { seedDemoData } = await import('../../prisma/seed/demo');
  await seedDemoData(prisma);
  await seedDemoData(prisma);
  const { DEMO_USERS } = await import('../../src/auth/demoIdentities');
  const payouts = await prisma.payout.findMany({ where: { affiliateId: DEMO_USERS.affiliate } });
  expect(new Set(payouts.map((payout) => payout.status))).toEqual(
    new Set(['SCHEDULED', 'PROCESSING', 'PAID', 'FAILED', 'CANCELLED']),
  );
  for (const payout of payouts) {
    const items = await prisma.payoutItem.aggregate({
      where: { payoutId: payout.id },
      _sum: { amountMinor: true },
      _count: true,
    });
    expect([payout.amountMinor, payout.itemCount]).toEqual([
      BigInt(items._sum.amountMinor ?? 0),
      items._count,
    ]);
  }
  expect(await keptBalance(DEMO_USERS.affiliate)).toEqual(
    await summedBalance(DEMO_USERS.affiliate),
  );
});

test('concurrent writers: one payout gets a contested order, and the balance still equals the orders', async () => {
  const affiliateId = await affiliate();
  const orders = [];
  for (let i = 0; i < 5; i++)
    orders.push(await payableOrder(affiliateId, brandId, { earningsMinor: 100 + i }));
  const [first, second] = await Promise.allSettled([
    createPayout(affiliateId, [orders[0]!.id, orders[1]!.id]),
    createPayout(affiliateId, [orders[1]!.id, orders[2]!.id]),
    // An order rejected while a payout takes it: one of the two is refused, whichever comes second.
    setOrderStatus(orders[3]!.id, 'REJECTED').catch(() => undefined),
    createPayout(affiliateId, [orders[3]!.id]).catch(() => undefined),
    createPayout(affiliateId, [orders[4]!.id]).then((id) => setPayoutStatus(id, 'PAID')),
  ]);
  expect([first.status, second.status].sort()).toEqual(['fulfilled', 'rejected']);
  expect(await prisma.payoutItem.count({ where: { heldOrderId: orders[1]!.id } })).toBe(1);
  const fourth = await prisma.order.findUniqueOrThrow({
    where: { id: orders[3]!.id },
    include: { payoutItems: true },
  });
  expect(fourth.status === 'REJECTED').toBe(fourth.payoutItems.length === 0);
  expect(await keptBalance(affiliateId)).toEqual(await summedBalance(affiliateId));
});
