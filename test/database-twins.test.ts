// Rules the database keeps and TypeScript says again (docs/architecture.md, "The rules in the
// database"): each pair answers alike on the same inputs, every combination of the values its
// rule reads, on the real database.
import { CATALOG_BRAND } from '../src/modules/catalog/visibility';
import { lockedAtOf } from '../src/modules/orders/lifecycle';
import { balanceStateOf, entryBalanceStateOf, isPayable } from '../src/modules/payouts/balance';
import {
  ApprovalStatus,
  HoldReason,
  OnboardingStatus,
  OrderStatus,
  PayoutStatus,
  type BalanceState,
} from '../src/generated/prisma/enums';
import { prisma, withSqlConnection } from '../src/platform/db';
import { useTestDatabase } from './support/app';
import { createAffiliate, createBrand, createOrder } from './support/factories';

useTestDatabase();

/** Every combination of one value from each list. */
function combinations<T extends Record<string, readonly unknown[]>>(
  lists: T,
): { [K in keyof T]: T[K][number] }[] {
  return Object.entries(lists).reduce<Record<string, unknown>[]>(
    (rows, [key, values]) =>
      rows.flatMap((row) => values.map((value) => ({ ...row, [key]: value }))),
    [{}],
  ) as { [K in keyof T]: T[K][number] }[];
}

/**
 * Runs `sql` once per row of `inputs`, each row as JSON in $1 (SQL builds the table's row type from
 * it with `jsonb_populate_record`, so a rule sees exactly the columns given); answers the column
 * `answer` of each.
 */
function sqlAnswers<Answer>(sql: string, inputs: readonly object[]): Promise<Answer[]> {
  return withSqlConnection(async (connection) => {
    const answers: Answer[] = [];
    for (const input of inputs) {
      const [row] = await connection.query<{ answer: Answer }>(sql, [JSON.stringify(input)]);
      answers.push(row!.answer);
    }
    return answers;
  });
}

const LOCKED_AT = new Date('2026-01-15T10:00:00.000Z');
const orders = combinations({
  status: Object.values(OrderStatus),
  lockedAt: [null, LOCKED_AT],
  heldReason: [null, ...Object.values(HoldReason)],
});

test('isPayable agrees with order_is_payable on every status, lock and hold', async () => {
  const answers = await sqlAnswers<boolean>(
    `SELECT order_is_payable(jsonb_populate_record(NULL::"Order", $1::jsonb)) AS answer`,
    orders,
  );
  expect(orders.map((order, n) => ({ ...order, payable: answers[n] }))).toEqual(
    orders.map((order) => ({ ...order, payable: isPayable(order) })),
  );
  expect(answers).toContain(true);
  expect(answers).toContain(false);
});

test('balanceStateOf agrees with order_balance_state on every order and payout status', async () => {
  const inputs = combinations({
    order: orders,
    payoutStatus: [null, ...Object.values(PayoutStatus)],
  });
  const answers = await sqlAnswers<BalanceState | null>(
    `SELECT order_balance_state(jsonb_populate_record(NULL::"Order", $1::jsonb -> 'order'),
                                ($1::jsonb ->> 'payoutStatus')::"PayoutStatus") AS answer`,
    inputs,
  );
  expect(inputs.map((input, n) => ({ ...input, state: answers[n] }))).toEqual(
    inputs.map((input) => ({ ...input, state: balanceStateOf(input.order, input.payoutStatus) })),
  );
  expect(new Set(answers)).toEqual(
    new Set([null, 'PENDING', 'APPROVED', 'AVAILABLE', 'IN_PAYMENT', 'PAID', 'HELD']),
  );
});

test('entryBalanceStateOf agrees with earning_balance_state on every hold and payout status', async () => {
  const inputs = combinations({
    heldReason: [null, ...Object.values(HoldReason)],
    payoutStatus: [null, ...Object.values(PayoutStatus)],
  });
  const answers = await sqlAnswers<BalanceState>(
    `SELECT earning_balance_state(jsonb_populate_record(NULL::"Earning", $1::jsonb),
                                  ($1::jsonb ->> 'payoutStatus')::"PayoutStatus") AS answer`,
    inputs,
  );
  expect(inputs.map((input, n) => ({ ...input, state: answers[n] }))).toEqual(
    inputs.map((input) => ({
      ...input,
      state: entryBalanceStateOf({ heldReason: input.heldReason }, input.payoutStatus),
    })),
  );
  expect(new Set(answers)).toEqual(new Set(['AVAILABLE', 'IN_PAYMENT', 'PAID', 'HELD']));
});

test('CATALOG_BRAND, as the catalog filters with it, agrees with is_visible_brand on every brand state', async () => {
  const states = combinations({
    onboardingStatus: Object.values(OnboardingStatus),
    approvalStatus: Object.values(ApprovalStatus),
    isActive: [false, true],
    isVisible: [false, true],
  });
  const brands = await Promise.all(states.map((state) => createBrand(state)));
  const ids = brands.map((brand) => brand.id);
  const shown = await prisma.organization.findMany({
    where: { id: { in: ids }, ...CATALOG_BRAND },
    select: { id: true },
  });
  const visible = await prisma.$queryRaw<{ id: string }[]>`
    SELECT o."id" FROM "Organization" o WHERE o."id" = ANY(${ids}::uuid[]) AND is_visible_brand(o)`;
  expect(visible.map((brand) => brand.id).sort()).toEqual(shown.map((brand) => brand.id).sort());
  expect(shown).toHaveLength(1);
});

test('lockedAtOf agrees with the lock pass (lock_due_orders) on orders due, not due and locked', async () => {
  const { affiliateId } = await createAffiliate();
  // Lock dates: a day's lock period from an order time long past is due at once (the lock date is
  // never before the order was recorded); the factory's brands lock a century on.
  const due = await createBrand({ orderLockDays: 1 });
  const notDue = await createBrand();
  const longAgo = new Date('2020-01-01T00:00:00.000Z');
  const placed = await Promise.all([
    createOrder(affiliateId, due.id, { orderedAt: longAgo }),
    createOrder(affiliateId, due.id, { orderedAt: longAgo, status: 'APPROVED' }),
    createOrder(affiliateId, notDue.id, { orderedAt: longAgo }),
    createOrder(affiliateId, notDue.id, { orderedAt: new Date() }),
  ]);
  const marked = await createOrder(affiliateId, notDue.id, { orderedAt: longAgo });
  await prisma.order.update({ where: { id: marked.id }, data: { lockedAt: LOCKED_AT } });

  const ids = [...placed, marked].map((order) => order.id);
  const read = () =>
    prisma.order.findMany({
      where: { id: { in: ids } },
      select: { id: true, locksAt: true, lockedAt: true },
      orderBy: { id: 'asc' },
    });
  const before = await read();
  const [{ now } = { now: new Date(0) }] = await prisma.$transaction(async (tx) => {
    const clock = await tx.$queryRaw<{ now: Date }[]>`SELECT now() AT TIME ZONE 'UTC' AS now`;
    await tx.$queryRaw`SELECT lock_due_orders(1000)`;
    return clock;
  });
  const after = await read();

  expect(after.map((order) => ({ id: order.id, lockedAt: order.lockedAt }))).toEqual(
    before.map((order) => ({ id: order.id, lockedAt: lockedAtOf(order, now) })),
  );
  const lockedAts = after.map((order) => order.lockedAt);
  expect(lockedAts.filter((lockedAt) => lockedAt === null)).toHaveLength(2);
  expect(lockedAts).toContainEqual(LOCKED_AT);
});
