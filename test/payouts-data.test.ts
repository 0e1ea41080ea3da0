// The database's guarantees on payouts (migration payouts), whoever writes: each is refused when
// broken, with a message naming it; and the balance it keeps equals a direct sum over the orders.
import type { OrderStatus, PayoutStatus } from '../src/generated/prisma/client';
import { config } from '../src/platform/config';
import { prisma } from '../src/platform/db';
import { balanceStateOf, BALANCE_STATES } from '../src/modules/payouts/balance';
import { useTestDatabase } from './support/app';
import {
  createBrand,
  createOrder,
  createPayout,
  lockOrders,
  payableOrder,
  createUser,
  setPayoutStatus,
} from './support/factories';

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
      `order ${order.id} is ${status} and not payable: only payable (approved) orders are paid`,
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

/** The balance as the database keeps it: minor units by currency and state. */
async function keptBalance(affiliateId: string) {
  const rows = await prisma.affiliateBalance.findMany({ where: { affiliateId } });
  return Object.fromEntries(
    rows
      .filter((row) => row.orders !== 0 || row.earningsMinor !== 0n)
      .map((row) => [`${row.currency} ${row.state}`, [row.orders, Number(row.earningsMinor)]]),
  );
}

/** The balance summed directly over the orders and the payouts holding them. */
async function summedBalance(affiliateId: string) {
  const orders = await prisma.order.findMany({
    where: { affiliateId },
    include: { payoutItems: { where: { heldOrderId: { not: null } }, include: { payout: true } } },
  });
  const sums: Record<string, [number, number]> = {};
  for (const order of orders) {
    const payoutStatus: PayoutStatus | null = order.payoutItems[0]?.payout.status ?? null;
    const state = balanceStateOf(order, payoutStatus);
    if (state === null) continue;
    const key = `${order.currency} ${state}`;
    const [count, minor] = sums[key] ?? [0, 0];
    sums[key] = [count + 1, minor + order.earningsMinor];
  }
  return sums;
}

test('the balance equals a direct sum over the orders after any sequence of writes, in several currencies', async () => {
  const affiliateId = await affiliate();
  const other = await affiliate();
  // A deterministic sequence: a small linear congruential generator.
  let seed = 42;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const currencies = ['EUR', 'USD', 'JPY'];
  const statuses: OrderStatus[] = ['PENDING', 'APPROVED', 'REJECTED'];
  /** The states the sequence went through: each must be reached. */
  const seen = new Set<string>();
  const check = async () => {
    const kept = await keptBalance(affiliateId);
    for (const key of Object.keys(kept)) seen.add(key.split(' ')[1]!);
    expect(kept).toEqual(await summedBalance(affiliateId));
    expect(await keptBalance(other)).toEqual(await summedBalance(other));
  };
  for (let round = 0; round < 6; round++) {
    // Inserts, one by one and in bulk, for both affiliates.
    for (let i = 0; i < 4; i++) {
      await createOrder(i % 2 ? other : affiliateId, brandId, {
        status: statuses[random(3)],
        currency: currencies[random(3)],
        earningsMinor: 1 + random(100_000),
      });
    }
    await prisma.order.createMany({
      data: Array.from({ length: 5 }, (_, i) => {
        const status = statuses[random(3)]!;
        return {
          orderNumber: `BULK-${round}-${i}`,
          affiliateId,
          organizationId: brandId,
          status,
          statusReason: status === 'REJECTED' ? ('FRAUD' as const) : null,
          currency: currencies[random(3)]!,
          transactionValueMinor: 10_000,
          commissionRateBps: 500,
          earningsMinor: 1 + random(100_000),
          orderedAt: new Date(),
        };
      }),
    });
    // Status and earnings changes of orders in no payout, one statement for many.
    await prisma.$executeRaw`
      UPDATE "Order" SET "status" = 'APPROVED' WHERE "affiliateId" = ${affiliateId}::uuid
        AND "status" = 'PENDING' AND "earningsMinor" % 2 = 0 AND "lockedAt" IS NULL
        AND NOT EXISTS (SELECT 1 FROM "PayoutItem" i WHERE i."heldOrderId" = "Order"."id")`;
    await prisma.$executeRaw`
      UPDATE "Order" SET "earningsMinor" = "earningsMinor" + 1, "statusReason" = 'AMOUNT_CORRECTED'
      WHERE "affiliateId" = ${affiliateId}::uuid AND "lockedAt" IS NULL
        AND NOT EXISTS (SELECT 1 FROM "PayoutItem" i WHERE i."heldOrderId" = "Order"."id")`;
    await check();
    // A payout per currency of the payable orders, then paid, failed, cancelled or left.
    for (const currency of currencies) {
      const approved = await prisma.order.findMany({
        where: {
          affiliateId,
          currency,
          status: 'APPROVED',
          payoutItems: { none: { heldOrderId: { not: null } } },
        },
        select: { id: true },
      });
      if (!approved.length) continue;
      // Half of the approved orders lock (and become available) before the payout.
      const locking = approved.filter((_, i) => i % 2 === 0).map((order) => order.id);
      await lockOrders(locking);
      await check();
      const payout = await createPayout(affiliateId, locking, { currency });
      await check();
      const outcome = (['PAID', 'FAILED', 'CANCELLED', 'PROCESSING', null] as const)[random(5)];
      if (outcome) await setPayoutStatus(payout, outcome);
      await check();
    }
    // A deleted order in no payout leaves the balance.
    const loose = await prisma.order.findFirst({
      where: { affiliateId, payoutItems: { none: {} } },
      orderBy: { orderNumber: 'asc' },
      select: { id: true },
    });
    if (loose) await prisma.order.delete({ where: { id: loose.id } });
    await check();
  }
  expect([...seen].sort()).toEqual([...BALANCE_STATES].sort());
});

test('the demo data has payouts in each status, each amounting to its items; a second run adds none', async () => {
  const { seedDemoData } = await import('../prisma/seed/demo');
  await seedDemoData(prisma);
  await seedDemoData(prisma);
  const { DEMO_USERS } = await import('../src/auth/demoIdentities');
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
