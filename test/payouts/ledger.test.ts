// The ledger beside the orders (scope payouts:read): entries of the network's (bonuses, pay per
// click, credits, debits, clawbacks) on GET /affiliate/earnings and its GraphQL twin; paid through
// payouts as orders are; clawbacks after payment, which can leave the balance below zero; money held
// for review; the payout terms the balance reads; and their events at a real receiver.
import { prisma } from '../../src/platform/db';
import { nextPayoutDate } from '../../src/modules/payouts/terms';
import { call, expectError, graphql, useTestDatabase } from '../support/app';
import {
  createApiKey,
  createBrand,
  createEntry,
  createOrder,
  createPayout,
  createUser,
  payableOrder,
  setPayoutStatus,
} from '../support/factories';
import { fetchOpenApiDocument, schemaValidators } from '../support/openapi';
import { subscribeAtReceiver, useWebhookDelivery } from '../support/webhookDelivery';
import { until } from '../support/wait';

useTestDatabase();

let brandId: string;
beforeAll(async () => {
  brandId = (await createBrand({ name: 'Ledger brand' })).id;
});

async function createAffiliate() {
  const user = await createUser('AFFILIATE');
  const { apiKey } = await createApiKey('affiliate', { ownerId: user.id });
  return { affiliateId: user.id, apiKey };
}

/** A paid order: approved, locked and paid by a payout of its own. */
async function paidOrder(affiliateId: string, data: Parameters<typeof createOrder>[2] = {}) {
  const order = await payableOrder(affiliateId, brandId, data);
  const payout = await createPayout(affiliateId, [order.id], { currency: order.currency });
  await setPayoutStatus(payout, 'PAID');
  return order;
}

async function balanceOf(apiKey: string, currency: string) {
  const { body } = await call('/affiliate/balance', { key: apiKey });
  return body.data.find((row: { currency: string }) => row.currency === currency);
}

/** The database's refusal of a write: its message. */
async function refusal(write: Promise<unknown>): Promise<string> {
  const error = await write.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).not.toBeNull();
  return String((error as Error).message);
}

describe('GET /affiliate/earnings', () => {
  test('answers the entries in the meta envelope, newest first, each with its state and amount in its currency', async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const at = (day: number) => new Date(Date.UTC(2026, 10, day, 12));
    const bonus = await createEntry(affiliateId, {
      kind: 'BONUS',
      currency: 'JPY',
      amountMinor: 1500,
      organizationId: brandId,
      earnedAt: at(1),
    });
    const debit = await createEntry(affiliateId, {
      kind: 'DEBIT',
      currency: 'BHD',
      amountMinor: -1234,
      reason: 'a chargeback fee',
      earnedAt: at(2),
    });
    const credit = await createEntry(affiliateId, {
      kind: 'CREDIT',
      amountMinor: 1250,
      heldReason: 'REVIEW',
      earnedAt: at(3),
    });
    await createEntry((await createAffiliate()).affiliateId);

    const { status, body } = await call('/affiliate/earnings', { key: apiKey });
    expect(status).toBe(200);
    expect(body.meta).toEqual({ total: 3, page: 1, limit: 10, totalPages: 1 });
    expect(body.data.map((entry: { id: string }) => entry.id)).toEqual([
      credit.id,
      debit.id,
      bonus.id,
    ]);
    expect(body.data[2]).toEqual({
      id: bonus.id,
      kind: 'BONUS',
      currency: 'JPY',
      amount: 1500,
      reason: 'a bonus of the tests',
      organizationId: brandId,
      campaignId: null,
      orderId: null,
      state: 'AVAILABLE',
      heldReason: null,
      heldNote: null,
      payoutId: null,
      payoutStatus: null,
      paidAt: null,
      earnedAt: at(1).toISOString(),
      createdAt: expect.any(String),
    });
    expect(body.data[1]).toMatchObject({ kind: 'DEBIT', currency: 'BHD', amount: -1.234 });
    expect(body.data[0]).toMatchObject({ amount: 12.5, state: 'HELD', heldReason: 'REVIEW' });

    const one = await call(`/affiliate/earnings/${debit.id}`, { key: apiKey });
    expect(one.body).toEqual({ data: body.data[1] });

    const filtered = async (query: string) =>
      (await call(`/affiliate/earnings?${query}`, { key: apiKey })).body.data.map(
        (entry: { id: string }) => entry.id,
      );
    expect(await filtered('kind=BONUS,CREDIT')).toEqual([credit.id, bonus.id]);
    expect(await filtered('currency=BHD')).toEqual([debit.id]);
    expect(await filtered(`startAt=${at(2).toISOString()}&endAt=${at(2).toISOString()}`)).toEqual([
      debit.id,
    ]);
  });

  test.each([
    [
      'kind=ORDER',
      "kind ORDER: an order's earnings are the order itself, listed by GET /affiliate/orders",
    ],
    ['currency=eur', 'currency must be an ISO 4217 code: three capital letters (EUR)'],
    ['kind=TIP', undefined],
  ])('?%s answers 400', async (query, message) => {
    const { apiKey } = await createAffiliate();
    const answer = await call(`/affiliate/earnings?${query}`, { key: apiKey });
    expect(answer.status).toBe(400);
    if (message) expectError(answer, 'BAD_REQUEST', message);
  });

  test("another affiliate's entry, a malformed id and none are 404", async () => {
    const { apiKey } = await createAffiliate();
    const other = await createEntry((await createAffiliate()).affiliateId);
    for (const id of [other.id, 'nope', '00000000-0000-4000-8000-000000000000']) {
      expectError(
        await call(`/affiliate/earnings/${id}`, { key: apiKey }),
        'NOT_FOUND',
        `Earning ${id} not found`,
      );
    }
  });

  test('the same on GraphQL', async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const entry = await createEntry(affiliateId, { kind: 'CPC', amountMinor: 42 });
    const { body } = await graphql(
      `
        query ($id: ID!) {
          affiliateEarnings(kind: [CPC]) {
            data {
              id
              kind
              amount
              state
            }
            meta {
              total
            }
          }
          affiliateEarning(earningId: $id) {
            data {
              reason
            }
          }
        }
      `,
      { id: entry.id },
      { key: apiKey },
    );
    expect(body).toEqual({
      data: {
        affiliateEarnings: {
          data: [{ id: entry.id, kind: 'CPC', amount: 0.42, state: 'AVAILABLE' }],
          meta: { total: 1 },
        },
        affiliateEarning: { data: { reason: 'a cpc of the tests' } },
      },
    });
  });
});

describe('entries in payouts', () => {
  test("a payout pays orders and entries together; its items say each line's kind, and the entries their payout", async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const order = await payableOrder(affiliateId, brandId, { earningsMinor: 2000 });
    const bonus = await createEntry(affiliateId, { amountMinor: 500, reason: 'launch bonus' });
    const debit = await createEntry(affiliateId, { kind: 'DEBIT', amountMinor: -300 });
    const payout = await createPayout(affiliateId, [order.id], { entryIds: [bonus.id, debit.id] });
    expect((await call(`/affiliate/payouts/${payout}`, { key: apiKey })).body.data).toMatchObject({
      amount: 22,
      orders: 3,
    });
    const items = (await call(`/affiliate/payouts/${payout}/items`, { key: apiKey })).body.data;
    expect(
      items.map((item: Record<string, unknown>) => [item.kind, item.amount, item.reason]).sort(),
    ).toEqual([
      ['BONUS', 5, 'launch bonus'],
      ['DEBIT', -3, 'a debit of the tests'],
      ['ORDER', 20, null],
    ]);
    expect((await balanceOf(apiKey, 'EUR')).inPayment).toEqual({
      amount: 22,
      orders: 1,
      entries: 2,
    });
    await setPayoutStatus(payout, 'PAID');
    const paid = (await call(`/affiliate/earnings/${bonus.id}`, { key: apiKey })).body.data;
    expect(paid).toMatchObject({ state: 'PAID', payoutId: payout, payoutStatus: 'PAID' });
    expect(paid.paidAt).toEqual(expect.any(String));
    expect((await balanceOf(apiKey, 'EUR')).paid).toEqual({ amount: 22, orders: 1, entries: 2 });
  });

  test("the database refuses an entry in two payouts, a held entry, another affiliate's entry, and a paid entry that changes", async () => {
    const { affiliateId } = await createAffiliate();
    const entry = await createEntry(affiliateId, { amountMinor: 700 });
    expect(
      await refusal(
        createPayout(affiliateId, [], { entryIds: [entry.id], amountMinor: 700 }).then((first) =>
          createPayout(affiliateId, [], { entryIds: [entry.id] }).finally(() => first),
        ),
      ),
    ).toMatch(/is already in payout/);
    const held = await createEntry(affiliateId, { heldReason: 'DISPUTE' });
    expect(await refusal(createPayout(affiliateId, [], { entryIds: [held.id] }))).toMatch(
      /held money is never paid/,
    );
    const payout = (await prisma.payoutItem.findFirstOrThrow({ where: { earningId: entry.id } }))
      .payoutId;
    await setPayoutStatus(payout, 'PAID');
    expect(
      await refusal(prisma.earning.update({ where: { id: entry.id }, data: { amountMinor: 900 } })),
    ).toMatch(/keeps what it pays/);
    const other = await createUser('AFFILIATE');
    expect(
      await refusal(createPayout(other.id, [], { entryIds: [held.id], amountMinor: 500 })),
    ).toMatch(/a payout pays its own affiliate/);
  });
});

describe('clawbacks after payment', () => {
  test('a clawback of a paid order reduces the next payout, can leave the balance below zero, and the next earnings fill it', async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const order = await paidOrder(affiliateId, { earningsMinor: 3000 });
    const clawback = await createEntry(affiliateId, {
      kind: 'CLAWBACK',
      orderId: order.id,
      amountMinor: -3000,
      reason: 'returned after payment',
    });
    const balance = await balanceOf(apiKey, 'EUR');
    expect(balance.available).toEqual({ amount: -30, orders: 0, entries: 1 });
    expect(balance.paid).toEqual({ amount: 30, orders: 1, entries: 0 });
    // The order stays paid: the clawback is its own line, listed with the order's events.
    const history = (await call(`/affiliate/orders/${order.id}/events`, { key: apiKey })).body.data;
    expect(history.at(-1)).toMatchObject({
      type: 'CLAWBACK',
      status: 'PAID',
      earningId: clawback.id,
      clawback: -30,
      note: 'returned after payment',
    });
    expect(
      (await call(`/affiliate/earnings?orderId=${order.id}`, { key: apiKey })).body.data,
    ).toEqual([expect.objectContaining({ id: clawback.id, kind: 'CLAWBACK', amount: -30 })]);

    // The next earnings fill the gap; the next payout nets the clawback against them.
    const next = await payableOrder(affiliateId, brandId, { earningsMinor: 4500 });
    expect((await balanceOf(apiKey, 'EUR')).available).toEqual({
      amount: 15,
      orders: 1,
      entries: 1,
    });
    const payout = await createPayout(affiliateId, [next.id], { entryIds: [clawback.id] });
    expect((await call(`/affiliate/payouts/${payout}`, { key: apiKey })).body.data.amount).toBe(15);
    await setPayoutStatus(payout, 'PAID');
    const after = await balanceOf(apiKey, 'EUR');
    expect(after.available).toEqual({ amount: 0, orders: 0, entries: 0 });
    expect(after.paid).toEqual({ amount: 45, orders: 2, entries: 1 });
  });

  test('the database refuses a clawback beyond what the order earned, also from concurrent writers, and of an order not paid', async () => {
    const { affiliateId } = await createAffiliate();
    const order = await paidOrder(affiliateId, { currency: 'JPY', earningsMinor: 1000 });
    await createEntry(affiliateId, {
      kind: 'CLAWBACK',
      currency: 'JPY',
      orderId: order.id,
      amountMinor: -600,
    });
    expect(
      await refusal(
        createEntry(affiliateId, {
          kind: 'CLAWBACK',
          currency: 'JPY',
          orderId: order.id,
          amountMinor: -401,
        }),
      ),
    ).toMatch(/would take 1001 back, more than the 1000 it earned/);
    // Ten writers at once, each taking 100 of the 400 left: four pass, the order locked meanwhile.
    const attempts = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        createEntry(affiliateId, {
          kind: 'CLAWBACK',
          currency: 'JPY',
          orderId: order.id,
          amountMinor: -100,
        }),
      ),
    );
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(4);
    const taken = await prisma.earning.aggregate({
      where: { orderId: order.id },
      _sum: { amountMinor: true },
    });
    expect(taken._sum.amountMinor).toBe(-1000);

    const approved = await payableOrder(affiliateId, brandId);
    expect(
      await refusal(createEntry(affiliateId, { kind: 'CLAWBACK', orderId: approved.id })),
    ).toMatch(/must be of a PAID order/);
    expect(await refusal(createEntry(affiliateId, { kind: 'CLAWBACK' }))).toMatch(
      /Earning_clawback_order_check/,
    );
    expect(await refusal(createEntry(affiliateId, { kind: 'BONUS', amountMinor: -5 }))).toMatch(
      /Earning_sign_check/,
    );
  });
});

describe('money held', () => {
  test('a held order is in the balance as held, is never paid while held, and is payable again once released', async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const order = await payableOrder(affiliateId, brandId, { earningsMinor: 900 });
    await prisma.order.update({
      where: { id: order.id },
      data: { heldReason: 'FRAUD_CHECK', heldNote: 'many orders from one address' },
    });
    expect((await balanceOf(apiKey, 'EUR')).held).toEqual({ amount: 9, orders: 1, entries: 0 });
    expect((await call(`/affiliate/orders/${order.id}`, { key: apiKey })).body.data).toMatchObject({
      heldReason: 'FRAUD_CHECK',
      heldNote: 'many orders from one address',
    });
    expect(await refusal(createPayout(affiliateId, [order.id]))).toMatch(/not payable/);

    await prisma.order.update({ where: { id: order.id }, data: { heldReason: null } });
    const released = await call(`/affiliate/orders/${order.id}`, { key: apiKey });
    expect(released.body.data).toMatchObject({ heldReason: null, heldNote: null });
    expect((await balanceOf(apiKey, 'EUR')).available).toEqual({
      amount: 9,
      orders: 1,
      entries: 0,
    });
    const events = (await call(`/affiliate/orders/${order.id}/events`, { key: apiKey })).body.data;
    expect(events.slice(-2)).toEqual([
      expect.objectContaining({
        type: 'HELD',
        heldReason: 'FRAUD_CHECK',
        note: 'many orders from one address',
      }),
      expect.objectContaining({ type: 'RELEASED', heldReason: null }),
    ]);
  });

  test('an order in payment is not held; a paid one cannot be; a rejection ends a hold', async () => {
    const { affiliateId } = await createAffiliate();
    const inPayment = await payableOrder(affiliateId, brandId);
    await createPayout(affiliateId, [inPayment.id]);
    expect(
      await refusal(
        prisma.order.update({ where: { id: inPayment.id }, data: { heldReason: 'REVIEW' } }),
      ),
    ).toMatch(/an order in payment is not held/);
    const paid = await paidOrder(affiliateId);
    expect(
      await refusal(
        prisma.order.update({ where: { id: paid.id }, data: { heldReason: 'REVIEW' } }),
      ),
    ).toMatch(/Order_held_check/);
    const pending = await createOrder(affiliateId, brandId, { status: 'PENDING' });
    await prisma.order.update({ where: { id: pending.id }, data: { heldReason: 'DISPUTE' } });
    const rejected = await prisma.order.update({
      where: { id: pending.id },
      data: { status: 'REJECTED', statusReason: 'FRAUD' },
    });
    expect(rejected.heldReason).toBeNull();
  });
});

describe("docs/payouts.md's worked examples, to the minor unit", () => {
  /** The balance row of a currency, as its amounts and counts. */
  const row = async (apiKey: string, currency: string) => {
    const { available, paid, held } = await balanceOf(apiKey, currency);
    return { available, paid, held };
  };
  const amount = (value: number, orders: number, entries: number) => ({
    amount: value,
    orders,
    entries,
  });

  test('yen: a clawback below zero, filled by later earnings, paid once above the minimum', async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const jpy = { currency: 'JPY' };
    await prisma.payoutTerms.create({
      data: { affiliateId, currency: 'JPY', minimumMinor: 1000, payoutDay: 15 },
    });
    const note = async () => (await balanceOf(apiKey, 'JPY')).payoutNote;
    const first = await payableOrder(affiliateId, brandId, { ...jpy, earningsMinor: 1200 });
    const second = await payableOrder(affiliateId, brandId, { ...jpy, earningsMinor: 800 });
    await setPayoutStatus(await createPayout(affiliateId, [first.id, second.id], jpy), 'PAID');
    const clawback = await createEntry(affiliateId, {
      ...jpy,
      kind: 'CLAWBACK',
      orderId: first.id,
      amountMinor: -600,
    });
    expect(await row(apiKey, 'JPY')).toMatchObject({
      available: amount(-600, 0, 1),
      paid: amount(2000, 2, 0),
    });
    const third = await payableOrder(affiliateId, brandId, { ...jpy, earningsMinor: 450 });
    expect((await row(apiKey, 'JPY')).available).toEqual(amount(-150, 1, 1));
    expect(await note()).toBe(
      'The available balance is -150 JPY after clawbacks and debits: later earnings fill it before anything is paid.',
    );
    const bonus = await createEntry(affiliateId, { ...jpy, amountMinor: 1000 });
    expect((await row(apiKey, 'JPY')).available).toEqual(amount(850, 1, 2));
    expect(await note()).toBe(
      'Available 850 JPY is below the minimum payout of 1000 JPY: it carries forward until it reaches it.',
    );
    const fourth = await payableOrder(affiliateId, brandId, { ...jpy, earningsMinor: 300 });
    expect((await row(apiKey, 'JPY')).available).toEqual(amount(1150, 2, 2));
    expect(await note()).toMatch(/^Available 1150 JPY is paid in the payout of \d{4}-\d{2}-15\.$/);
    const payout = await createPayout(affiliateId, [third.id, fourth.id], {
      ...jpy,
      entryIds: [bonus.id, clawback.id],
    });
    expect((await call(`/affiliate/payouts/${payout}`, { key: apiKey })).body.data.amount).toBe(
      1150,
    );
    await setPayoutStatus(payout, 'PAID');
    expect(await row(apiKey, 'JPY')).toMatchObject({
      available: amount(0, 0, 0),
      paid: amount(3150, 4, 2),
    });
  });

  test('euros: orders, a bonus and a fee paid together, a held order kept out', async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const orders = [
      await payableOrder(affiliateId, brandId, { earningsMinor: 1250 }),
      await payableOrder(affiliateId, brandId, { earningsMinor: 735 }),
    ];
    const entries = [
      await createEntry(affiliateId, { amountMinor: 2500 }),
      await createEntry(affiliateId, { kind: 'DEBIT', amountMinor: -499 }),
    ];
    const held = await payableOrder(affiliateId, brandId, { earningsMinor: 1990 });
    await prisma.order.update({ where: { id: held.id }, data: { heldReason: 'REVIEW' } });
    expect(await row(apiKey, 'EUR')).toMatchObject({
      available: amount(39.86, 2, 2),
      held: amount(19.9, 1, 0),
    });
    const payout = await createPayout(
      affiliateId,
      orders.map((order) => order.id),
      { entryIds: entries.map((entry) => entry.id) },
    );
    const items = (await call(`/affiliate/payouts/${payout}/items`, { key: apiKey })).body.data;
    expect(items.map((item: { amount: number }) => item.amount).sort()).toEqual(
      [-4.99, 12.5, 25, 7.35].sort(),
    );
    expect((await call(`/affiliate/payouts/${payout}`, { key: apiKey })).body.data.amount).toBe(
      39.86,
    );
    await prisma.order.update({ where: { id: held.id }, data: { heldReason: null } });
    expect((await row(apiKey, 'EUR')).available).toEqual(amount(19.9, 1, 0));
  });

  test('dinars: two clawbacks take back all a paid order earned, a third mill is refused', async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const bhd = { currency: 'BHD' };
    const order = await paidOrder(affiliateId, { ...bhd, earningsMinor: 1234 });
    const clawback = { ...bhd, kind: 'CLAWBACK' as const, orderId: order.id };
    await createEntry(affiliateId, { ...clawback, amountMinor: -617 });
    expect(await refusal(createEntry(affiliateId, { ...clawback, amountMinor: -618 }))).toMatch(
      /would take 1235 back, more than the 1234 it earned/,
    );
    await createEntry(affiliateId, { ...clawback, amountMinor: -617 });
    expect((await row(apiKey, 'BHD')).available).toEqual(amount(-1.234, 0, 2));
    await payableOrder(affiliateId, brandId, { ...bhd, earningsMinor: 500 });
    await payableOrder(affiliateId, brandId, { ...bhd, earningsMinor: 900 });
    expect((await row(apiKey, 'BHD')).available).toEqual(amount(0.166, 2, 2));
  });
});

describe('the performance report', () => {
  test("counts the entries in `ledger`, beside the orders' earnings: by day on their day, by brand on their brand's row, by link on the row of none", async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const day = (d: number) => new Date(Date.UTC(2026, 2, d, 10));
    await createOrder(affiliateId, brandId, {
      status: 'APPROVED',
      earningsMinor: 500,
      orderedAt: day(2),
    });
    await createEntry(affiliateId, {
      amountMinor: 2500,
      organizationId: brandId,
      earnedAt: day(2),
    });
    await createEntry(affiliateId, { kind: 'DEBIT', amountMinor: -499, earnedAt: day(3) });
    const report = async (query: string) =>
      (
        await call(
          `/affiliate/reports/performance?startAt=2026-03-01T00:00:00Z&endAt=2026-03-04T00:00:00Z&${query}`,
          { key: apiKey },
        )
      ).body.data.map((row: Record<string, unknown>) => ({
        key: row.date ?? row.organizationId ?? row.urlCode,
        currency: row.currency,
        earnings: row.earnings,
        ledger: row.ledger,
      }));
    expect(await report('groupBy=day')).toEqual([
      { key: '2026-03-01', currency: null, earnings: 0, ledger: 0 },
      { key: '2026-03-02', currency: 'EUR', earnings: 5, ledger: 25 },
      { key: '2026-03-03', currency: 'EUR', earnings: 0, ledger: -4.99 },
    ]);
    // The debit names no brand: no brand's row has it.
    expect(await report('groupBy=brand')).toEqual([
      { key: brandId, currency: 'EUR', earnings: 5, ledger: 25 },
    ]);
    expect(await report('groupBy=link')).toEqual([
      { key: null, currency: 'EUR', earnings: 5, ledger: 20.01 },
    ]);
  });
});

describe('payout terms in the balance', () => {
  test("the balance says the minimum payout, the next payout date and what happens to the money, the affiliate's own terms before the network's", async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    await payableOrder(affiliateId, brandId, { currency: 'BHD', earningsMinor: 12_345 });
    await payableOrder(affiliateId, brandId, { currency: 'JPY', earningsMinor: 900 });
    await prisma.payoutTerms.createMany({
      data: [
        { affiliateId: null, currency: 'BHD', minimumMinor: 10_000, payoutDay: 15 },
        { affiliateId: null, currency: 'JPY', minimumMinor: 5_000, payoutDay: 1 },
        { affiliateId, currency: 'JPY', minimumMinor: 1_000, payoutDay: 20 },
      ],
      skipDuplicates: true,
    });
    const bhd = await balanceOf(apiKey, 'BHD');
    const networkBhd = await prisma.payoutTerms.findFirstOrThrow({
      where: { affiliateId: null, currency: 'BHD' },
    });
    const nextBhd = nextPayoutDate(networkBhd.payoutDay, new Date());
    expect(bhd).toMatchObject({
      minimumPayout: networkBhd.minimumMinor / 1000,
      nextPayoutAt: nextBhd.toISOString(),
    });
    if (networkBhd.minimumMinor <= 12_345) {
      expect(bhd.payoutNote).toBe(
        `Available 12.345 BHD is paid in the payout of ${nextBhd.toISOString().slice(0, 10)}.`,
      );
    }
    const jpy = await balanceOf(apiKey, 'JPY');
    expect(jpy).toMatchObject({
      minimumPayout: 1000,
      nextPayoutAt: nextPayoutDate(20, new Date()).toISOString(),
      payoutNote:
        'Available 900 JPY is below the minimum payout of 1000 JPY: it carries forward until it reaches it.',
    });
  });

  test('the next payout date is the first payout day after now, in UTC', () => {
    expect(nextPayoutDate(15, new Date('2026-11-28T10:00:00Z')).toISOString()).toBe(
      '2026-12-15T00:00:00.000Z',
    );
    expect(nextPayoutDate(28, new Date('2026-11-28T00:00:00Z')).toISOString()).toBe(
      '2026-12-28T00:00:00.000Z',
    );
    expect(nextPayoutDate(1, new Date('2026-12-31T23:59:59Z')).toISOString()).toBe(
      '2027-01-01T00:00:00.000Z',
    );
    expect(nextPayoutDate(5, new Date('2026-11-04T23:59:59Z')).toISOString()).toBe(
      '2026-11-05T00:00:00.000Z',
    );
  });
});

describe('ledger events', () => {
  const delivery = useWebhookDelivery();

  test('earning.created, order.held, order.released and order.clawback arrive signed, with the entry or order as its route answers it, as the OpenAPI document says', async () => {
    const { receiver } = delivery;
    const user = await createUser('AFFILIATE');
    await subscribeAtReceiver(receiver, user.id, '/ledger', [
      'earning.created',
      'order.held',
      'order.released',
      'order.clawback',
    ]);
    const held = await payableOrder(user.id, brandId);
    await prisma.order.update({
      where: { id: held.id },
      data: { heldReason: 'REVIEW', heldNote: 'a second look' },
    });
    await prisma.order.update({ where: { id: held.id }, data: { heldReason: null } });
    const paid = await paidOrder(user.id, { currency: 'BHD', earningsMinor: 2500 });
    const clawback = await createEntry(user.id, {
      kind: 'CLAWBACK',
      currency: 'BHD',
      orderId: paid.id,
      amountMinor: -1250,
      reason: 'half returned',
    });

    await until(() => receiver.received.length === 4, 'four events');
    expect(receiver.rejected).toEqual([]);
    const byType = Object.fromEntries(
      receiver.received.map((webhook) => [webhook.body.type, webhook.body]),
    );
    expect(Object.keys(byType).sort()).toEqual([
      'earning.created',
      'order.clawback',
      'order.held',
      'order.released',
    ]);
    const { apiKey } = await createApiKey('affiliate', { ownerId: user.id });
    expect(byType['earning.created'].data).toEqual({
      earning: (await call(`/affiliate/earnings/${clawback.id}`, { key: apiKey })).body.data,
    });
    expect(byType['order.held'].data).toMatchObject({
      order: { id: held.id },
      heldReason: 'REVIEW',
      note: 'a second look',
    });
    expect(byType['order.clawback'].data).toMatchObject({
      order: { id: paid.id, status: 'PAID' },
      earningId: clawback.id,
      clawback: -1.25,
      note: 'half returned',
    });
    const validator = schemaValidators(await fetchOpenApiDocument());
    for (const [type, schema] of [
      ['earning.created', 'EarningCreatedWebhook'],
      ['order.held', 'OrderHeldWebhook'],
      ['order.released', 'OrderReleasedWebhook'],
      ['order.clawback', 'OrderClawbackWebhook'],
    ] as const) {
      const validate = validator(schema);
      expect([schema, validate(byType[type]), validate.errors ?? null]).toEqual([
        schema,
        true,
        null,
      ]);
    }
  });
});
