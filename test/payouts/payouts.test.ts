// Balances and payouts on REST and GraphQL (scope payouts:read): GET /affiliate/balance equals the
// orders it summarises; the payouts list, a payout and its items (JSON and CSV); another affiliate's
// payout is not found; payout events reach a real receiver once, signed, in order.
import { prisma } from '../../src/platform/db';
import type { BalanceState } from '../../src/generated/prisma/client';
import { balanceStateOf, entryBalanceStateOf } from '../../src/modules/payouts/balance';
import { signDashboardToken } from '../../src/auth/dashboardToken';
import { SCOPES_BY_KEY_TYPE } from '../../src/auth/scopes';
import { app, call, expectError, graphql, useTestDatabase } from '../support/app';
import {
  createApiKey,
  createBrand,
  createOrder,
  createPayout,
  lockOrders,
  payableOrder,
  createUser,
  setPayoutStatus,
} from '../support/factories';
import { fetchOpenApiDocument, schemaValidators } from '../support/openapi';
import { subscribeAtReceiver, useWebhookDelivery } from '../support/webhookDelivery';
import { until } from '../support/wait';

useTestDatabase();

async function createAffiliate() {
  const user = await createUser('AFFILIATE');
  const { apiKey } = await createApiKey('affiliate', { ownerId: user.id });
  return { affiliateId: user.id, apiKey };
}

let brandId: string;
beforeAll(async () => {
  brandId = (await createBrand({ name: 'Lumen' })).id;
});

/** The decimals of the currencies these tests pay in (ISO 4217). */
const DECIMALS: Record<string, number> = { EUR: 2, USD: 2, JPY: 0 };

/** The balance summed directly over the affiliate's orders and entries, in major units, by currency. */
async function summedBalance(affiliateId: string) {
  const holding = {
    payoutItems: { where: { heldOrderId: { not: null } }, include: { payout: true } },
  };
  const orders = await prisma.order.findMany({ where: { affiliateId }, include: holding });
  const entries = await prisma.earning.findMany({
    where: { affiliateId },
    include: {
      payoutItems: { where: { heldEarningId: { not: null } }, include: { payout: true } },
    },
  });
  const names = {
    PENDING: 'pending',
    APPROVED: 'approved',
    AVAILABLE: 'available',
    IN_PAYMENT: 'inPayment',
    PAID: 'paid',
    HELD: 'held',
  } as const;
  type Sum = { minor: number; orders: number; entries: number };
  const sums: Record<string, Record<string, Sum>> = {};
  const add = (currencyCode: string, state: BalanceState, minor: number, line: keyof Sum) => {
    const currency = (sums[currencyCode] ??= Object.fromEntries(
      Object.values(names).map((name) => [name, { minor: 0, orders: 0, entries: 0 }]),
    ));
    currency[names[state]]!.minor += minor;
    currency[names[state]]![line] += 1;
  };
  for (const order of orders) {
    const state = balanceStateOf(order, order.payoutItems[0]?.payout.status ?? null);
    if (state !== null) add(order.currency, state, order.earningsMinor, 'orders');
  }
  for (const entry of entries) {
    const state = entryBalanceStateOf(entry, entry.payoutItems[0]?.payout.status ?? null);
    add(entry.currency, state, entry.amountMinor, 'entries');
  }
  return Object.entries(sums)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency, states]) => ({
      currency,
      ...Object.fromEntries(
        Object.entries(states).map(([name, { minor, orders, entries }]) => [
          name,
          { amount: minor / 10 ** DECIMALS[currency]!, orders, entries },
        ]),
      ),
    }));
}

describe('GET /affiliate/balance', () => {
  test('equals a direct sum over the orders after inserts, status changes, payouts paid, failed and cancelled, in several currencies', async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const expectBalance = async () => {
      const { status, body } = await call('/affiliate/balance', { key: apiKey });
      expect(status).toBe(200);
      const withoutPeriod = body.data.map(
        ({
          paidInPeriod: _,
          minimumPayout,
          nextPayoutAt,
          payoutNote,
          ...rest
        }: Record<string, unknown>) => {
          // No payout terms in these currencies.
          expect([minimumPayout, nextPayoutAt, payoutNote]).toEqual([null, null, null]);
          return rest;
        },
      );
      expect(withoutPeriod).toEqual(await summedBalance(affiliateId));
      expect(body.count).toBe(body.data.length);
      return body;
    };
    const eur = [
      await payableOrder(affiliateId, brandId, { earningsMinor: 1001 }),
      await payableOrder(affiliateId, brandId, { earningsMinor: 2002 }),
      // Approved, not locked yet: not payable, so it can still be rejected.
      await createOrder(affiliateId, brandId, { status: 'APPROVED', earningsMinor: 3003 }),
    ];
    const usd = [
      await payableOrder(affiliateId, brandId, { currency: 'USD', earningsMinor: 4004 }),
      await payableOrder(affiliateId, brandId, { currency: 'USD', earningsMinor: 5005 }),
    ];
    await createOrder(affiliateId, brandId, { status: 'PENDING', earningsMinor: 606 });
    await createOrder(affiliateId, brandId, { status: 'REJECTED', earningsMinor: 707 });
    await createOrder(affiliateId, brandId, {
      status: 'PAID',
      currency: 'JPY',
      earningsMinor: 808,
    });
    await expectBalance();

    const paid = await createPayout(affiliateId, [eur[0]!.id, eur[1]!.id]);
    const failed = await createPayout(affiliateId, [usd[0]!.id], { currency: 'USD' });
    const cancelled = await createPayout(affiliateId, [usd[1]!.id], { currency: 'USD' });
    await expectBalance();
    await setPayoutStatus(paid, 'PROCESSING');
    await setPayoutStatus(paid, 'PAID');
    await setPayoutStatus(failed, 'FAILED');
    await setPayoutStatus(cancelled, 'CANCELLED');
    await prisma.$executeRaw`UPDATE "Order" SET "status" = 'REJECTED', "statusReason" = 'RETURNED'
      WHERE "id" = ${eur[2]!.id}::uuid`;
    const body = await expectBalance();
    expect(body.data.find((row: { currency: string }) => row.currency === 'EUR')).toEqual({
      currency: 'EUR',
      pending: { amount: 6.06, orders: 1, entries: 0 },
      approved: { amount: 0, orders: 0, entries: 0 },
      available: { amount: 0, orders: 0, entries: 0 },
      inPayment: { amount: 0, orders: 0, entries: 0 },
      paid: { amount: 30.03, orders: 2, entries: 0 },
      held: { amount: 0, orders: 0, entries: 0 },
      paidInPeriod: { amount: 30.03, payouts: 1 },
      minimumPayout: null,
      nextPayoutAt: null,
      payoutNote: null,
    });
    const usdRow = body.data.find((row: { currency: string }) => row.currency === 'USD');
    expect(usdRow.available).toEqual({ amount: 90.09, orders: 2, entries: 0 });
    expect(usdRow.paidInPeriod).toEqual({ amount: 0, payouts: 0 });
  });

  test('paidInPeriod counts payouts by paidAt within [startAt, endAt)', async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const order = await payableOrder(affiliateId, brandId, { earningsMinor: 1234 });
    const payout = await createPayout(affiliateId, [order.id]);
    await setPayoutStatus(payout, 'PAID');
    const { paidAt } = await prisma.payout.findUniqueOrThrow({ where: { id: payout } });
    const at = (ms: number) => new Date(paidAt!.getTime() + ms).toISOString();
    const period = async (startAt: string, endAt: string) =>
      (await call(`/affiliate/balance?startAt=${startAt}&endAt=${endAt}`, { key: apiKey })).body
        .data[0].paidInPeriod;
    expect(await period(at(0), at(1))).toEqual({ amount: 12.34, payouts: 1 });
    expect(await period(at(-1000), at(0))).toEqual({ amount: 0, payouts: 0 });
  });

  test('a period that ends before it starts answers 400', async () => {
    const { apiKey } = await createAffiliate();
    expectError(
      await call('/affiliate/balance?startAt=2026-02-01T00:00:00Z&endAt=2026-01-01T00:00:00Z', {
        key: apiKey,
      }),
      'BAD_REQUEST',
      'startAt must be before endAt',
    );
  });

  test('an affiliate without orders has an empty balance', async () => {
    const { apiKey } = await createAffiliate();
    expect((await call('/affiliate/balance', { key: apiKey })).body).toEqual({
      data: [],
      count: 0,
    });
  });
});

describe('scope payouts:read', () => {
  test('a key without it answers 403 naming it on every payout route and field', async () => {
    const { affiliateId } = await createAffiliate();
    const scopes = SCOPES_BY_KEY_TYPE.affiliate.filter((scope) => scope !== 'payouts:read');
    const { apiKey } = await createApiKey('affiliate', {
      ownerId: affiliateId,
      scopes: [...scopes],
    });
    const payout = await createPayout(affiliateId, []);
    for (const path of [
      '/affiliate/balance',
      '/affiliate/payouts',
      `/affiliate/payouts/${payout}`,
      `/affiliate/payouts/${payout}/items`,
    ]) {
      expectError(
        await call(path, { key: apiKey }),
        'FORBIDDEN',
        'This API key lacks the scope payouts:read',
      );
    }
    const { body } = await graphql('{ affiliateBalance { count } }', {}, { key: apiKey });
    expect(body.errors[0]).toMatchObject({
      message: 'This API key lacks the scope payouts:read',
      extensions: { code: 'FORBIDDEN' },
    });
  });

  test('new keys get it', async () => {
    const user = await createUser('AFFILIATE');
    const { body } = await graphql(
      `
        mutation {
          createApiKey(input: { name: "books" }) {
            key {
              scopes
            }
          }
        }
      `,
      {},
      { token: await signDashboardToken(user.id) },
    );
    expect(body.data.createApiKey.key.scopes).toContain('payouts:read');
  });

  test('a partner key answers 401', async () => {
    const { apiKey } = await createApiKey('partner');
    expectError(await call('/affiliate/payouts', { key: apiKey }), 'UNAUTHORIZED');
  });
});

describe('GET /affiliate/payouts', () => {
  let key: string;
  let ids: Record<string, string>;
  beforeAll(async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    key = apiKey;
    const day = (n: number) => new Date(Date.UTC(2026, 0, n));
    const make = async (name: string, currency: string, n: number) => {
      const order = await payableOrder(affiliateId, brandId, { currency });
      return [
        name,
        await createPayout(affiliateId, [order.id], {
          currency,
          scheduledAt: day(n + 1),
          periodStart: day(n - 10 > 0 ? n - 10 : 1),
          periodEnd: day(n),
        }),
      ] as const;
    };
    ids = Object.fromEntries([
      await make('january', 'EUR', 11),
      await make('late', 'EUR', 21),
      await make('dollars', 'USD', 25),
    ]);
    await setPayoutStatus(ids.january!, 'PAID');
  });

  const list = async (query = '') => (await call(`/affiliate/payouts${query}`, { key })).body;

  test('answers the meta envelope, newest first', async () => {
    const body = await list();
    expect(body.meta).toEqual({ total: 3, page: 1, limit: 10, totalPages: 1 });
    expect(body.data.map((payout: { id: string }) => payout.id)).toEqual([
      ids.dollars,
      ids.late,
      ids.january,
    ]);
    expect(body.data[2]).toEqual({
      id: ids.january,
      status: 'PAID',
      currency: 'EUR',
      amount: 5,
      orders: 1,
      periodStart: '2026-01-01T00:00:00.000Z',
      periodEnd: '2026-01-11T00:00:00.000Z',
      scheduledAt: '2026-01-12T00:00:00.000Z',
      initiatedAt: null,
      paidAt: expect.any(String),
      failureReason: null,
      method: 'BANK_TRANSFER',
      reference: 'REF-1',
      updatedAt: expect.any(String),
    });
  });

  test('filters on status, currency and period', async () => {
    const idsOf = (body: { data: { id: string }[] }) => body.data.map((payout) => payout.id);
    expect(idsOf(await list('?status=PAID'))).toEqual([ids.january]);
    expect(idsOf(await list('?status=SCHEDULED,PROCESSING'))).toEqual([ids.dollars, ids.late]);
    expect(idsOf(await list('?currency=USD'))).toEqual([ids.dollars]);
    expect(idsOf(await list('?startAt=2026-01-15T00:00:00Z'))).toEqual([ids.dollars, ids.late]);
    expect(idsOf(await list('?endAt=2026-01-05T00:00:00Z'))).toEqual([ids.january]);
  });

  test.each([
    ['?currency=eur', 'currency must be an ISO 4217 code'],
    ['?status=LOST', 'status'],
    ['?startAt=2026-02-01T00:00:00Z&endAt=2026-01-01T00:00:00Z', 'startAt must be before endAt'],
  ])('%s answers 400', async (query, message) => {
    expectError(
      await call(`/affiliate/payouts${query}`, { key }),
      'BAD_REQUEST',
      expect.stringContaining(message),
    );
  });
});

describe('GET /affiliate/payouts/{payoutId} and its items', () => {
  test('answer the payout and the orders it pays, newest first, a page at a time', async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const orders = [];
    for (let day = 1; day <= 3; day++) {
      orders.push(
        await payableOrder(affiliateId, brandId, {
          orderNumber: `PAY-${day}-${affiliateId.slice(0, 8)}`,
          earningsMinor: 100 * day,
          transactionValueMinor: 2000 * day,
          orderedAt: new Date(Date.UTC(2026, 0, day, 12)),
        }),
      );
    }
    const payout = await createPayout(
      affiliateId,
      orders.map((order) => order.id),
    );
    const one = await call(`/affiliate/payouts/${payout}`, { key: apiKey });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: payout, amount: 6, orders: 3, status: 'SCHEDULED' });

    const page = await call(`/affiliate/payouts/${payout}/items?limit=2`, { key: apiKey });
    expect(page.body.meta).toEqual({ total: 3, page: 1, limit: 2, totalPages: 2 });
    expect(page.body.data[0]).toEqual({
      kind: 'ORDER',
      orderId: orders[2]!.id,
      earningId: null,
      reason: null,
      orderNumber: orders[2]!.orderNumber,
      organizationId: brandId,
      organizationName: 'Lumen',
      orderStatus: 'APPROVED',
      currency: 'EUR',
      amount: 3,
      transactionValue: 60,
      commissionRate: 5,
      earnings: 3,
      orderedAt: '2026-01-03T12:00:00.000Z',
      orderUpdatedAt: expect.any(String),
    });
    const second = await call(`/affiliate/payouts/${payout}/items?limit=2&page=2`, { key: apiKey });
    expect(second.body.data.map((item: { orderId: string }) => item.orderId)).toEqual([
      orders[0]!.id,
    ]);
    // The items add up to the payout's amount.
    const all = await call(`/affiliate/payouts/${payout}/items?limit=500`, { key: apiKey });
    const sum = all.body.data.reduce(
      (total: number, item: { amount: number }) => total + item.amount * 100,
      0,
    );
    expect(Math.round(sum)).toBe(Math.round(one.body.data.amount * 100));

    await setPayoutStatus(payout, 'PAID');
    const paid = await call(`/affiliate/payouts/${payout}/items`, { key: apiKey });
    expect(paid.body.data.map((item: { orderStatus: string }) => item.orderStatus)).toEqual([
      'PAID',
      'PAID',
      'PAID',
    ]);
  });

  test("another affiliate's payout, a malformed id and none are 404 on REST and GraphQL", async () => {
    const { apiKey } = await createAffiliate();
    const other = await createAffiliate();
    const theirs = await createPayout(other.affiliateId, [
      (await payableOrder(other.affiliateId, brandId)).id,
    ]);
    for (const id of [theirs, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      for (const path of [`/affiliate/payouts/${id}`, `/affiliate/payouts/${id}/items`]) {
        expectError(await call(path, { key: apiKey }), 'NOT_FOUND', `Payout ${id} not found`);
      }
      const { body } = await graphql(
        'query ($id: ID!) { affiliatePayout(payoutId: $id) { data { id } } affiliatePayoutItems(payoutId: $id) { data { orderId } } }',
        { id },
        { key: apiKey },
      );
      expect(body.data).toBeNull();
      expect(
        body.errors.map((error: { extensions: { code: string } }) => error.extensions.code),
      ).toContain('NOT_FOUND');
    }
    // Their payout is in no list or balance of this affiliate.
    expect((await call('/affiliate/payouts', { key: apiKey })).body.meta.total).toBe(0);
    expect((await call('/affiliate/balance', { key: apiKey })).body.data).toEqual([]);
  });

  test('the same on GraphQL', async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const order = await payableOrder(affiliateId, brandId);
    const payout = await createPayout(affiliateId, [order.id]);
    const { body } = await graphql(
      `
        query ($id: ID!) {
          affiliatePayouts(status: [SCHEDULED]) {
            data {
              id
              amount
            }
            meta {
              total
            }
          }
          affiliatePayout(payoutId: $id) {
            data {
              id
              status
              currency
              amount
              orders
            }
          }
          affiliatePayoutItems(payoutId: $id) {
            data {
              orderId
              amount
            }
            meta {
              total
            }
          }
          affiliateBalance {
            data {
              currency
              inPayment {
                amount
                orders
              }
            }
            count
          }
        }
      `,
      { id: payout },
      { key: apiKey },
    );
    expect(body).toEqual({
      data: {
        affiliatePayouts: { data: [{ id: payout, amount: 5 }], meta: { total: 1 } },
        affiliatePayout: {
          data: { id: payout, status: 'SCHEDULED', currency: 'EUR', amount: 5, orders: 1 },
        },
        affiliatePayoutItems: { data: [{ orderId: order.id, amount: 5 }], meta: { total: 1 } },
        affiliateBalance: {
          data: [{ currency: 'EUR', inPayment: { amount: 5, orders: 1 } }],
          count: 1,
        },
      },
    });
  });

  test('the items as CSV quote text cells and neutralise formulas, as the report does', async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const brand = await createBrand({ name: '＝HYPERLINK("https://evil.example")' });
    const order = await createOrder(affiliateId, brand.id, {
      status: 'APPROVED',
      orderNumber: '=1+1;@SUM(A1)',
      earningsMinor: 250,
      orderedAt: new Date('2026-01-05T10:00:00Z'),
    });
    await lockOrders([order.id]);
    const payout = await createPayout(affiliateId, [order.id]);
    const response = await app.fetch(`http://api.test/affiliate/payouts/${payout}/items`, {
      headers: { 'x-api-key': apiKey, accept: 'text/csv' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(response.headers.get('x-total-count')).toBe('1');
    const [header, row, end] = (await response.text()).split('\r\n');
    expect(header).toBe(
      '"kind","orderId","earningId","reason","orderNumber","organizationId","organizationName","orderStatus","currency","amount","transactionValue","commissionRate","earnings","orderedAt","orderUpdatedAt"',
    );
    expect(row).toMatch(
      new RegExp(
        `^"ORDER","${order.id}",,,"'=1\\+1;@SUM\\(A1\\)","${brand.id}","'＝HYPERLINK\\(""https://evil.example""\\)","APPROVED","EUR",2.5,100,5,2.5,"2026-01-05T10:00:00.000Z","[^"]+"$`,
      ),
    );
    expect(end).toBe('');
  });
});

describe('payout events', () => {
  const delivery = useWebhookDelivery();

  test('payout.scheduled, payout.processing, payout.paid, payout.failed and payout.cancelled arrive once each, signed, in order, with the payout as its route answers it; no postback takes them', async () => {
    const { receiver } = delivery;
    const user = await createUser('AFFILIATE');
    await subscribeAtReceiver(receiver, user.id, '/payouts', [
      'payout.scheduled',
      'payout.processing',
      'payout.paid',
      'payout.failed',
      'payout.cancelled',
    ]);
    // The first attempt of the first event fails: the next event of the payout waits for it.
    let failedOnce = false;
    receiver.answer = (webhook) => {
      if (webhook.body.type === 'payout.scheduled' && !failedOnce) {
        failedOnce = true;
        return 500;
      }
      return 204;
    };
    const order = await payableOrder(user.id, brandId, { earningsMinor: 4321 });
    const paid = await createPayout(user.id, [order.id]);
    await setPayoutStatus(paid, 'PROCESSING');
    await setPayoutStatus(paid, 'PAID');
    const failed = await createPayout(user.id, [(await payableOrder(user.id, brandId)).id]);
    await setPayoutStatus(failed, 'FAILED');
    const cancelled = await createPayout(user.id, [(await payableOrder(user.id, brandId)).id]);
    await setPayoutStatus(cancelled, 'CANCELLED');

    const ofPayout = (id: string) =>
      receiver.received.filter((webhook) => webhook.body.data.payout?.id === id);
    const types = (id: string) => ofPayout(id).map((webhook) => webhook.body.type);
    await until(
      () =>
        ofPayout(paid).length === 3 &&
        ofPayout(failed).length === 2 &&
        ofPayout(cancelled).length === 2,
      'seven events',
    );
    expect(types(paid)).toEqual(['payout.scheduled', 'payout.processing', 'payout.paid']);
    expect(types(failed)).toEqual(['payout.scheduled', 'payout.failed']);
    expect(types(cancelled)).toEqual(['payout.scheduled', 'payout.cancelled']);
    // A body is built when the event is first sent: the payout as it is then (PAID by now).
    expect(ofPayout(paid)[1]!.body.data.payout).toMatchObject({
      initiatedAt: expect.any(String),
    });
    expect(ofPayout(failed)[1]!.body.data.payout).toMatchObject({
      status: 'FAILED',
      failureReason: 'the bank refused the transfer',
    });
    expect(failedOnce).toBe(true);
    expect(receiver.rejected).toEqual([]);
    const all = [...ofPayout(paid), ...ofPayout(failed), ...ofPayout(cancelled)];
    expect(new Set(all.map((webhook) => webhook.id)).size).toBe(7);
    // The payout as its route answers it, without items; and as the OpenAPI document says.
    const { apiKey } = await createApiKey('affiliate', { ownerId: user.id });
    const answer = await call(`/affiliate/payouts/${paid}`, { key: apiKey });
    expect(ofPayout(paid)[2]!.body.data).toEqual({ payout: answer.body.data });
    const validator = schemaValidators(await fetchOpenApiDocument());
    for (const webhook of all) {
      const schema = {
        'payout.scheduled': 'PayoutScheduledWebhook',
        'payout.processing': 'PayoutProcessingWebhook',
        'payout.paid': 'PayoutPaidWebhook',
        'payout.failed': 'PayoutFailedWebhook',
        'payout.cancelled': 'PayoutCancelledWebhook',
      }[webhook.body.type as string]!;
      const validate = validator(schema);
      expect([schema, validate(webhook.body), validate.errors ?? null]).toEqual([
        schema,
        true,
        null,
      ]);
    }
    // Delivered once each: no delivery left to send, none to a postback. The receiver answers
    // before the dispatcher records the answer.
    const ofThesePayouts = { payoutId: { in: [paid, failed, cancelled] } };
    await until(
      async () =>
        (await prisma.webhookDelivery.count({
          where: { ...ofThesePayouts, state: 'DELIVERED' },
        })) === 7,
      'the seven deliveries recorded',
    );
    const deliveries = await prisma.webhookDelivery.findMany({ where: ofThesePayouts });
    expect(deliveries.map((delivery) => delivery.state)).toEqual(Array(7).fill('DELIVERED'));
    expect(deliveries.filter((delivery) => delivery.postbackId !== null)).toEqual([]);
    receiver.answer = () => 204;
  });
});

describe("an order's payout", () => {
  test("an order answers the payout that holds it, its status and when it paid; ?payoutId= lists a payout's orders", async () => {
    const { affiliateId, apiKey } = await createAffiliate();
    const [first, second, free] = [
      await payableOrder(affiliateId, brandId),
      await payableOrder(affiliateId, brandId),
      await payableOrder(affiliateId, brandId),
    ];
    const failed = await createPayout(affiliateId, [first.id]);
    await setPayoutStatus(failed, 'FAILED');
    const paid = await createPayout(affiliateId, [first.id, second.id]);
    const scheduled = await createPayout(affiliateId, [free.id]);
    await setPayoutStatus(paid, 'PAID');
    const payoutOf = async (orderId: string) => {
      const { data } = (await call(`/affiliate/orders/${orderId}`, { key: apiKey })).body;
      return { payoutId: data.payoutId, payoutStatus: data.payoutStatus, paidAt: data.paidAt };
    };
    // The failed payout let the order go; the paid one holds it.
    expect(await payoutOf(first.id)).toEqual({
      payoutId: paid,
      payoutStatus: 'PAID',
      paidAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(await payoutOf(free.id)).toEqual({
      payoutId: scheduled,
      payoutStatus: 'SCHEDULED',
      paidAt: null,
    });
    const listed = async (payoutId: string) =>
      (await call(`/affiliate/orders?payoutId=${payoutId}`, { key: apiKey })).body.data
        .map((order: { id: string }) => order.id)
        .sort();
    expect(await listed(paid)).toEqual([first.id, second.id].sort());
    expect(await listed(scheduled)).toEqual([free.id]);
    expect((await call('/affiliate/orders?payoutId=nope', { key: apiKey })).status).toBe(400);
  });
});

describe('a payout says when its payment started, and why it failed', () => {
  test('PROCESSING sets initiatedAt; FAILED without a failureReason is refused by the database', async () => {
    const { affiliateId } = await createAffiliate();
    const payout = await createPayout(affiliateId, [(await payableOrder(affiliateId, brandId)).id]);
    await setPayoutStatus(payout, 'PROCESSING');
    expect((await prisma.payout.findUniqueOrThrow({ where: { id: payout } })).initiatedAt).toEqual(
      expect.any(Date),
    );
    await expect(
      prisma.$executeRaw`UPDATE "Payout" SET "status" = 'FAILED' WHERE "id" = ${payout}::uuid`,
    ).rejects.toThrow(/Payout_failureReason_check/);
  });
});
