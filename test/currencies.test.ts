// Every amount in its currency's own decimals (ISO 4217: JPY 0, EUR 2, BHD 3), on every surface
// that answers one: an order, its items and events (the order's history and the affiliate's
// feed) over REST and GraphQL, the webhooks a real receiver verifies, the postback macros a real
// tracker records, the performance report (JSON and CSV), the balance, payouts and their items
// (JSON and CSV), ledger entries and the balance's outlook, products and their price filter, and
// the trigger's summaries.
import { signDashboardToken } from '../src/auth/dashboardToken';
import { prisma } from '../src/platform/db';
import { startDeliveryDispatcher, type Dispatcher } from '../src/outbox/dispatcher';
import { startWebhookDispatcher } from '../src/modules/webhooks/webhookLane';
import { eventAnswersOf } from '../src/modules/webhooks/eventAnswers';
import { postbackLane } from '../src/modules/postbacks/lane';
import { app, call, graphql, useTestDatabase } from './support/app';
import {
  createApiKey,
  createBrand,
  createEntry,
  createLink,
  createOrder,
  createPayout,
  createProduct,
  createUser,
  lockOrders,
  payableOrder,
  recordClicks,
  relateAffiliateToBrand,
  setPayoutStatus,
} from './support/factories';
import { startTracker, type Tracker } from './support/postbackReceiver';
import { allowPrivateUrls } from './support/loopbackServer';
import { until } from './support/wait';
import { startReceiver, type Receiver } from './support/webhookReceiver';

useTestDatabase();
// The receiver and the tracker listen on 127.0.0.1.
allowPrivateUrls(true);

/**
 * What each stored amount reads as in each currency, written out by hand: the order records
 * 123456 minor of sale and 1234 of earnings (one line: 2 x 61728), is corrected to 111110 and 1111,
 * then paid; a second order of 100 minor earns 5 and stays pending; 3 clicks on the first order's
 * link; after payment, 555 of its earnings are clawed back, under a minimum payout of 1000.
 */
const CASES = [
  {
    currency: 'JPY',
    sale: 123456,
    earnings: 1234,
    unitPrice: 61728,
    adjustedSale: 111110,
    adjustedEarnings: 1111,
    saleDelta: -12346,
    earningsDelta: -123,
    smallEarnings: 5,
    epc: 370.33,
    salePrice: 99999,
    oneMinorLess: 99998,
    clawback: -555,
    minimumPayout: 1000,
    // As postback macros and the trigger write them: every decimal of the currency.
    text: {
      sale: '123456',
      earnings: '1234',
      adjustedSale: '111110',
      adjustedEarnings: '1111',
      smallSale: '100',
      smallEarnings: '5',
      clawback: '-555',
    },
    decimals: 0,
  },
  {
    currency: 'EUR',
    sale: 1234.56,
    earnings: 12.34,
    unitPrice: 617.28,
    adjustedSale: 1111.1,
    adjustedEarnings: 11.11,
    saleDelta: -123.46,
    earningsDelta: -1.23,
    smallEarnings: 0.05,
    epc: 3.7033,
    salePrice: 999.99,
    oneMinorLess: 999.98,
    clawback: -5.55,
    minimumPayout: 10,
    text: {
      sale: '1234.56',
      earnings: '12.34',
      adjustedSale: '1111.10',
      adjustedEarnings: '11.11',
      smallSale: '1.00',
      smallEarnings: '0.05',
      clawback: '-5.55',
    },
    decimals: 2,
  },
  {
    currency: 'BHD',
    sale: 123.456,
    earnings: 1.234,
    unitPrice: 61.728,
    adjustedSale: 111.11,
    adjustedEarnings: 1.111,
    saleDelta: -12.346,
    earningsDelta: -0.123,
    smallEarnings: 0.005,
    epc: 0.37033,
    salePrice: 99.999,
    oneMinorLess: 99.998,
    clawback: -0.555,
    minimumPayout: 1,
    text: {
      sale: '123.456',
      earnings: '1.234',
      adjustedSale: '111.110',
      adjustedEarnings: '1.111',
      smallSale: '0.100',
      smallEarnings: '0.005',
      clawback: '-0.555',
    },
    decimals: 3,
  },
];

const HOUR = 3_600_000;

let receiver: Receiver;
let tracker: Tracker;
let webhooks: Dispatcher;
let postbacks: Dispatcher;

beforeAll(async () => {
  [receiver, tracker] = await Promise.all([startReceiver(), startTracker()]);
  const settings = {
    pollIntervalMs: 100,
    leaseS: 30,
    retryDelaysS: [1, 1],
    disableAfterS: 60,
    allowPrivateUrls: true,
  };
  webhooks = startWebhookDispatcher(eventAnswersOf(app.runRoute), settings);
  postbacks = startDeliveryDispatcher(postbackLane, settings);
});

afterAll(async () => {
  await Promise.all([webhooks.stop(), postbacks.stop()]);
  await Promise.all([receiver.close(), tracker.close()]);
});

/** The cells of a CSV answer's rows by column name (cells are plain: no comma inside quotes). */
function csvRows(text: string): Record<string, string>[] {
  const [header, ...lines] = text.split('\r\n').filter((line) => line !== '');
  const names = header!.split(',').map((name) => name.replace(/^"|"$/g, ''));
  return lines.map((line) =>
    Object.fromEntries(line.split(',').map((cell, n) => [names[n], cell.replace(/^"|"$/g, '')])),
  );
}

const csvOf = async (path: string, apiKey: string) => {
  const response = await app.fetch(`http://api.test${path}`, {
    headers: { 'x-api-key': apiKey, accept: 'text/csv' },
  });
  expect(response.status).toBe(200);
  return csvRows(await response.text());
};

describe.each(CASES)('$currency amounts, $decimals decimals', (amounts) => {
  const { currency } = amounts;
  let apiKey: string;
  let orderId: string;
  let pendingOrderId: string;
  let payoutId: string;
  let urlCode: string;
  let brandId: string;
  let hour: Date;
  let trackerPath: string;

  const ofOrder = (type: string) =>
    receiver.received.filter(
      (webhook) => webhook.body.type === type && webhook.body.data.order?.id === orderId,
    );
  const postbacksOf = () => tracker.received.filter((postback) => postback.path === trackerPath);

  // The order's life, as the network's back office writes it; each step waits for the webhook and
  // the postback of the one before, so each body shows the order as that step left it.
  beforeAll(async () => {
    const user = await createUser('AFFILIATE');
    const token = await signDashboardToken(user.id);
    ({ apiKey } = await createApiKey('affiliate', { ownerId: user.id }));
    const brand = await createBrand();
    brandId = brand.id;
    const created = await graphql(
      `
        mutation ($input: CreateWebhookEndpointInput!) {
          createWebhookEndpoint(input: $input) {
            secret
          }
        }
      `,
      {
        input: {
          url: `${receiver.url}/${currency}`,
          events: ['order.created', 'order.adjusted', 'payout.paid'],
        },
      },
      { token },
    );
    receiver.secrets.push(created.body.data.createWebhookEndpoint.secret);
    trackerPath = `/${currency}-postback`;
    const postback = await graphql(
      `
        mutation ($input: CreatePostbackInput!) {
          createPostback(input: $input) {
            id
          }
        }
      `,
      {
        input: {
          name: currency,
          events: ['order.created', 'order.adjusted'],
          urlTemplate: `${tracker.url}${trackerPath}?event={event}&payout={payout}&first={original_payout}&sale={sale_amount}&currency={currency}`,
        },
      },
      { token },
    );
    expect(postback.body.errors).toBeUndefined();

    const link = await createLink(user.id, brand.id);
    urlCode = link.urlCode;
    hour = new Date(Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR);
    await recordClicks(link, hour, { clicks: 3 });
    const order = await createOrder(
      user.id,
      brand.id,
      {
        currency,
        transactionValueMinor: 123456,
        earningsMinor: 1234,
        commissionRateBps: 100,
        shortUrlCode: link.urlCode,
        sub1: 'clk-1',
        orderedAt: new Date(hour.getTime() + HOUR / 2),
      },
      [{ quantity: 2, unitPriceMinor: 61728, totalMinor: 123456, commissionValueMinor: 1234 }],
    );
    orderId = order.id;
    await until(
      () => ofOrder('order.created').length === 1 && postbacksOf().length === 1,
      'order.created',
    );
    await prisma.$executeRaw`UPDATE "Order" SET "transactionValueMinor" = 111110,
      "earningsMinor" = 1111, "statusReason" = 'AMOUNT_CORRECTED' WHERE "id" = ${orderId}::uuid`;
    await until(
      () => ofOrder('order.adjusted').length === 1 && postbacksOf().length === 2,
      'order.adjusted',
    );
    await prisma.$executeRaw`UPDATE "Order" SET "status" = 'APPROVED' WHERE "id" = ${orderId}::uuid`;
    await lockOrders([orderId]);
    payoutId = await createPayout(user.id, [orderId], { currency });
    await setPayoutStatus(payoutId, 'PROCESSING');
    await setPayoutStatus(payoutId, 'PAID');
    pendingOrderId = (
      await createOrder(user.id, brand.id, {
        currency,
        transactionValueMinor: 100,
        earningsMinor: 5,
        orderedAt: new Date(hour.getTime() + HOUR / 2),
      })
    ).id;
    await until(
      () =>
        receiver.received.some((webhook) => webhook.body.data.payout?.id === payoutId) &&
        postbacksOf().length === 3,
      'payout.paid and the second order',
    );
  });

  /** The paid order as every order answer shows it. */
  const paidOrder = () => ({
    id: orderId,
    currency,
    status: 'PAID',
    transactionValue: amounts.adjustedSale,
    earnings: amounts.adjustedEarnings,
    originalSaleAmount: amounts.sale,
    originalEarnings: amounts.earnings,
    commissionRate: 1,
    items: [
      {
        quantity: 2,
        unitPrice: amounts.unitPrice,
        total: amounts.sale,
        commissionValue: amounts.earnings,
      },
    ],
  });

  test('an order and its items: REST (one and the list) and GraphQL', async () => {
    const one = await call(`/affiliate/orders/${orderId}`, { key: apiKey });
    expect(one.body.data).toMatchObject(paidOrder());
    const list = await call('/affiliate/orders?status=PAID', { key: apiKey });
    expect(list.body.data).toMatchObject([paidOrder()]);
    const { body } = await graphql(
      `
        query ($id: ID!) {
          affiliateOrder(orderId: $id) {
            data {
              id
              currency
              status
              transactionValue
              earnings
              originalSaleAmount
              originalEarnings
              commissionRate
              items {
                quantity
                unitPrice
                total
                commissionValue
              }
            }
          }
        }
      `,
      { id: orderId },
      { key: apiKey },
    );
    expect(body.data.affiliateOrder.data).toEqual(paidOrder());
  });

  test("the order's events: its history (REST and GraphQL) and the feed", async () => {
    const created = {
      type: 'CREATED',
      currency,
      saleAmount: amounts.sale,
      earnings: amounts.earnings,
      previousSaleAmount: null,
      previousEarnings: null,
      saleAmountDelta: null,
      earningsDelta: null,
    };
    const adjusted = {
      type: 'ADJUSTED',
      currency,
      saleAmount: amounts.adjustedSale,
      earnings: amounts.adjustedEarnings,
      previousSaleAmount: amounts.sale,
      previousEarnings: amounts.earnings,
      saleAmountDelta: amounts.saleDelta,
      earningsDelta: amounts.earningsDelta,
    };
    const history = await call(`/affiliate/orders/${orderId}/events`, { key: apiKey });
    expect(history.body.data.slice(0, 2)).toEqual([
      expect.objectContaining(created),
      expect.objectContaining(adjusted),
    ]);
    const feed = await call('/affiliate/order-events?types=CREATED,ADJUSTED', { key: apiKey });
    expect(feed.body.data).toEqual([
      expect.objectContaining({ orderId, ...created }),
      expect.objectContaining({ orderId, ...adjusted }),
      expect.objectContaining({
        orderId: pendingOrderId,
        type: 'CREATED',
        earnings: amounts.smallEarnings,
      }),
    ]);
    const fields = Object.keys(created).join(' ');
    const { body } = await graphql(
      `query ($id: ID!) { affiliateOrderHistory(orderId: $id) { data { ${fields} } }
        affiliateOrder(orderId: $id) { data { events { ${fields} } } } }`,
      { id: orderId },
      { key: apiKey },
    );
    expect(body.data.affiliateOrderHistory.data.slice(0, 2)).toEqual([created, adjusted]);
    expect(body.data.affiliateOrder.data.events.slice(0, 2)).toEqual([created, adjusted]);
  });

  test('webhook bodies: the order, the adjustment and the payout', async () => {
    const [created] = ofOrder('order.created');
    expect(created!.body.data.order).toMatchObject({
      transactionValue: amounts.sale,
      earnings: amounts.earnings,
      items: [{ unitPrice: amounts.unitPrice, total: amounts.sale }],
    });
    const [adjusted] = ofOrder('order.adjusted');
    expect(adjusted!.body.data).toMatchObject({
      order: { transactionValue: amounts.adjustedSale, earnings: amounts.adjustedEarnings },
      previousSaleAmount: amounts.sale,
      previousEarnings: amounts.earnings,
      saleAmountDelta: amounts.saleDelta,
      earningsDelta: amounts.earningsDelta,
    });
    // The bytes signed: each amount written as its decimal.
    expect(adjusted!.raw).toContain(`"earningsDelta":${amounts.earningsDelta}`);
    const paid = receiver.received.find((webhook) => webhook.body.data.payout?.id === payoutId);
    expect(paid!.body).toMatchObject({
      type: 'payout.paid',
      data: { payout: { currency, amount: amounts.adjustedEarnings, orders: 1 } },
    });
  });

  test('postback macros {payout}, {original_payout} and {sale_amount}', () => {
    expect(postbacksOf().map((postback) => Object.fromEntries(postback.query))).toEqual([
      {
        event: 'order.created',
        payout: amounts.text.earnings,
        first: amounts.text.earnings,
        sale: amounts.text.sale,
        currency,
      },
      {
        event: 'order.adjusted',
        payout: amounts.text.adjustedEarnings,
        first: amounts.text.earnings,
        sale: amounts.text.adjustedSale,
        currency,
      },
      {
        event: 'order.created',
        payout: amounts.text.smallEarnings,
        first: amounts.text.smallEarnings,
        sale: amounts.text.smallSale,
        currency,
      },
    ]);
  });

  const reportQuery = () =>
    `groupBy=link&startAt=${new Date(hour.getTime() - HOUR).toISOString()}` +
    `&endAt=${new Date(hour.getTime() + 2 * HOUR).toISOString()}`;

  test('the performance report: earnings, EPC and earningsByStatus, JSON and CSV', async () => {
    const { body } = await call(`/affiliate/reports/performance?${reportQuery()}`, {
      key: apiKey,
    });
    const linkRow = body.data.find((row: { urlCode: string | null }) => row.urlCode === urlCode);
    expect(linkRow).toMatchObject({
      currency,
      clicks: 3,
      orders: 1,
      transactionValue: amounts.adjustedSale,
      earnings: amounts.adjustedEarnings,
      earningsByStatus: {
        PENDING: 0,
        APPROVED: 0,
        PAID: amounts.adjustedEarnings,
        REJECTED: 0,
      },
      conversionRate: 0.3333,
      epc: amounts.epc,
    });
    const withoutLink = body.data.find((row: { urlCode: string | null }) => row.urlCode === null);
    expect(withoutLink.earningsByStatus.PENDING).toBe(amounts.smallEarnings);

    const rows = await csvOf(`/affiliate/reports/performance?${reportQuery()}`, apiKey);
    expect(rows.find((row) => row.urlCode === urlCode)).toMatchObject({
      currency,
      transactionValue: String(amounts.adjustedSale),
      earnings: String(amounts.adjustedEarnings),
      'earningsByStatus.PAID': String(amounts.adjustedEarnings),
      epc: String(amounts.epc),
    });
    expect(rows.find((row) => row.urlCode === '')!['earningsByStatus.PENDING']).toBe(
      String(amounts.smallEarnings),
    );
  });

  test('the balance', async () => {
    const { body } = await call('/affiliate/balance', { key: apiKey });
    expect(body.data).toEqual([
      {
        currency,
        pending: { amount: amounts.smallEarnings, orders: 1, entries: 0 },
        approved: { amount: 0, orders: 0, entries: 0 },
        available: { amount: 0, orders: 0, entries: 0 },
        inPayment: { amount: 0, orders: 0, entries: 0 },
        paid: { amount: amounts.adjustedEarnings, orders: 1, entries: 0 },
        held: { amount: 0, orders: 0, entries: 0 },
        paidInPeriod: { amount: amounts.adjustedEarnings, payouts: 1 },
        minimumPayout: null,
        nextPayoutAt: null,
        payoutNote: null,
      },
    ]);
    const { body: answer } = await graphql(
      '{ affiliateBalance { data { currency pending { amount } paid { amount } } } }',
      {},
      { key: apiKey },
    );
    expect(answer.data.affiliateBalance.data).toEqual([
      {
        currency,
        pending: { amount: amounts.smallEarnings },
        paid: { amount: amounts.adjustedEarnings },
      },
    ]);
  });

  test('payouts and payout items, JSON and CSV', async () => {
    const payout = { id: payoutId, currency, amount: amounts.adjustedEarnings, orders: 1 };
    expect((await call(`/affiliate/payouts/${payoutId}`, { key: apiKey })).body.data).toMatchObject(
      payout,
    );
    expect((await call('/affiliate/payouts', { key: apiKey })).body.data).toEqual([
      expect.objectContaining(payout),
    ]);
    const item = {
      orderId,
      currency,
      amount: amounts.adjustedEarnings,
      transactionValue: amounts.adjustedSale,
      earnings: amounts.adjustedEarnings,
    };
    const items = await call(`/affiliate/payouts/${payoutId}/items`, { key: apiKey });
    expect(items.body.data).toEqual([expect.objectContaining(item)]);
    expect(await csvOf(`/affiliate/payouts/${payoutId}/items`, apiKey)).toEqual([
      expect.objectContaining({
        orderId,
        currency,
        amount: String(amounts.adjustedEarnings),
        transactionValue: String(amounts.adjustedSale),
        earnings: String(amounts.adjustedEarnings),
      }),
    ]);
    const { body } = await graphql(
      `
        query ($id: ID!) {
          affiliatePayout(payoutId: $id) {
            data {
              amount
            }
          }
          affiliatePayoutItems(payoutId: $id) {
            data {
              amount
              transactionValue
            }
          }
        }
      `,
      { id: payoutId },
      { key: apiKey },
    );
    expect(body.data).toEqual({
      affiliatePayout: { data: { amount: amounts.adjustedEarnings } },
      affiliatePayoutItems: {
        data: [{ amount: amounts.adjustedEarnings, transactionValue: amounts.adjustedSale }],
      },
    });
  });

  test('a clawback after payment: the entry, the order event, the report, the balance below zero and its outlook', async () => {
    const { affiliateId } = await prisma.order.findUniqueOrThrow({ where: { id: orderId } });
    await prisma.payoutTerms.create({
      data: { affiliateId, currency, minimumMinor: 1000, payoutDay: 15 },
    });
    const entry = await createEntry(affiliateId, {
      kind: 'CLAWBACK',
      currency,
      orderId,
      amountMinor: -555,
    });
    expect(
      (await call(`/affiliate/earnings/${entry.id}`, { key: apiKey })).body.data,
    ).toMatchObject({ currency, amount: amounts.clawback, state: 'AVAILABLE' });
    const history = (await call(`/affiliate/orders/${orderId}/events`, { key: apiKey })).body.data;
    expect(history.at(-1)).toMatchObject({ type: 'CLAWBACK', clawback: amounts.clawback });
    const report = await call('/affiliate/reports/performance?groupBy=link', { key: apiKey });
    expect(
      report.body.data.find((row: { urlCode: string | null }) => row.urlCode === null),
    ).toMatchObject({
      currency,
      ledger: amounts.clawback,
    });
    const [balance] = (await call('/affiliate/balance', { key: apiKey })).body.data;
    expect(balance).toMatchObject({
      available: { amount: amounts.clawback, orders: 0, entries: 1 },
      minimumPayout: amounts.minimumPayout,
      payoutNote: `The available balance is ${amounts.text.clawback} ${currency} after clawbacks and debits: later earnings fill it before anything is paid.`,
    });
  });

  test('products: price, salePrice and variants; the price filter reads the same decimals', async () => {
    const product = await createProduct(
      brandId,
      { currency, priceMinor: 123456, salePriceMinor: 99999 },
      [{ priceMinor: 61728 }],
    );
    const shown = { id: product.id, currency, price: amounts.sale, salePrice: amounts.salePrice };
    const listed = async (query: string) =>
      (await call(`/affiliate/products?organizationId=${brandId}${query}`, { key: apiKey })).body
        .data;
    expect(await listed('')).toEqual([
      expect.objectContaining({
        ...shown,
        variants: [expect.objectContaining({ price: amounts.unitPrice })],
      }),
    ]);
    const { body } = await graphql(
      `
        query ($brand: UUID, $min: Float) {
          affiliateProducts(organizationId: $brand, minPrice: $min) {
            data {
              id
              currency
              price
              salePrice
              variants {
                price
              }
            }
          }
        }
      `,
      { brand: brandId, min: amounts.salePrice },
      { key: apiKey },
    );
    expect(body.data.affiliateProducts.data).toEqual([
      { ...shown, variants: [{ price: amounts.unitPrice }] },
    ]);
    // The effective price is the sale price: exactly it matches, one minor unit less does not.
    const exactly = `&minPrice=${amounts.salePrice}&maxPrice=${amounts.salePrice}`;
    expect((await listed(exactly)).map((p: { id: string }) => p.id)).toEqual([product.id]);
    expect(await listed(`&maxPrice=${amounts.oneMinorLess}`)).toEqual([]);
  });

  test("the trigger's summaries: an order recorded and adjusted, a payout paid", async () => {
    const user = await createUser('AFFILIATE');
    const token = await signDashboardToken(user.id);
    const brand = await createBrand();
    await createProduct(brand.id, { currency, priceMinor: 2000, salePriceMinor: null });
    await relateAffiliateToBrand(user.id, brand.id, { commissionValue: 1_000 });
    const trigger = async (variables: Record<string, unknown>) => {
      const { body } = await graphql(
        `
          mutation ($type: TriggerEventType!, $orderId: ID) {
            triggerEvent(type: $type, orderId: $orderId) {
              orderId
              summary
            }
          }
        `,
        variables,
        { token },
      );
      expect(body.errors).toBeUndefined();
      return body.data.triggerEvent as { orderId: string | null; summary: string };
    };
    /** Minor units as the trigger writes them, worked out here with the case's decimals. */
    const written = (minor: number) =>
      `${(minor / 10 ** amounts.decimals).toFixed(amounts.decimals)} ${currency}`;

    const recorded = await trigger({ type: 'ORDER_CREATED' });
    const order = await prisma.order.findUniqueOrThrow({ where: { id: recorded.orderId! } });
    expect(order.currency).toBe(currency);
    expect(recorded.summary).toContain(`PENDING, ${written(order.earningsMinor)} earnings`);

    const unlocked = await createOrder(user.id, brand.id, { currency, earningsMinor: 1234 });
    const adjusted = await trigger({ type: 'ORDER_ADJUSTED', orderId: unlocked.id });
    expect(adjusted.summary).toContain(
      `adjusted: earnings ${amounts.text.earnings} ${currency} -> ${amounts.text.adjustedEarnings} ${currency}`,
    );

    await payableOrder(user.id, brand.id, { currency, earningsMinor: 1234 });
    const scheduled = await trigger({ type: 'PAYOUT_SCHEDULED' });
    expect(scheduled.summary).toMatch(
      new RegExp(`^payout TRIG-PAYOUT-\\w+ of ${amounts.text.earnings} ${currency} scheduled`),
    );
    const paid = await trigger({ type: 'PAYOUT_PAID' });
    expect(paid.summary).toMatch(
      new RegExp(`^payout TRIG-PAYOUT-\\w+ of ${amounts.text.earnings} ${currency} paid`),
    );
  });
});
