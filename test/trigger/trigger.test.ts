// triggerEvent (and `npm run trigger`, which calls it): a development installation causes the back
// office's order events for the dashboard user's own orders, written in SQL as the back office
// writes them, so the outbox and the rollups follow; a service in production or with
// KEY_ENV=live has no such field. The documented try-out, trigger to a signed webhook at
// `npm run webhook:listen`: test/readme.test.ts (docs/webhooks.md).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { signDashboardToken } from '../../src/auth/dashboardToken';
import { prisma } from '../../src/platform/db';
import { app, graphql, useTestDatabase } from '../support/app';
import {
  createBrand,
  createCampaign,
  createLink,
  createOrder,
  createPersonalCode,
  createPayout,
  createProduct,
  lockOrders,
  createUser,
  recordSubIdClicks,
  relateAffiliateToBrand,
} from '../support/factories';
import { startReplica, type Replica } from '../support/replica';

useTestDatabase();

const ROOT = path.join(__dirname, '..', '..');

/** `npm run trigger -- <args>` to its end, as its own process: its exit code and what it printed. */
function runTrigger(
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/trigger.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output: output.trim() }));
  });
}

const TRIGGER = `mutation ($type: TriggerEventType!, $orderId: ID, $status: OrderStatus,
  $reason: OrderStatusReason, $note: String, $linkCode: String, $subIds: [String],
  $latestClick: Boolean, $couponCode: String, $payoutId: ID, $holdReason: HoldReason,
  $kind: LedgerKind, $amount: Float, $currency: String) {
  triggerEvent(type: $type, orderId: $orderId, status: $status, reason: $reason, note: $note,
    linkCode: $linkCode, subIds: $subIds, latestClick: $latestClick, couponCode: $couponCode,
    payoutId: $payoutId,
    holdReason: $holdReason, kind: $kind, amount: $amount, currency: $currency) {
    type orderId summary }
}`;

/** An affiliate user related to one brand with products, and its dashboard token. */
async function affiliateWithBrand() {
  const user = await createUser('AFFILIATE');
  const brand = await createBrand({ name: 'Trigger Brand' });
  await createProduct(brand.id, { priceMinor: 2_000, salePriceMinor: null });
  await relateAffiliateToBrand(user.id, brand.id, { commissionValue: 1_000 });
  return { user, brand, token: await signDashboardToken(user.id) };
}

async function trigger(token: string, variables: Record<string, unknown>) {
  const { status, body } = await graphql(TRIGGER, variables, { token });
  expect(status).toBe(200);
  return body as {
    /** Null when refused. */
    data: { triggerEvent: { type: string; orderId: string | null; summary: string } };
    errors?: { message: string; extensions: { code: string } }[];
  };
}

describe('order.created', () => {
  test("records a PENDING order of the user's brand with its items, and the outbox hears of it", async () => {
    const { user, brand, token } = await affiliateWithBrand();
    const { data, errors } = await trigger(token, { type: 'ORDER_CREATED' });
    expect(errors).toBeUndefined();
    const { orderId, summary, type } = data.triggerEvent!;
    expect(type).toBe('ORDER_CREATED');
    const order = await prisma.order.findUniqueOrThrow({
      where: { id: orderId! },
      include: { items: true },
    });
    expect(order).toMatchObject({
      affiliateId: user.id,
      organizationId: brand.id,
      status: 'PENDING',
      currency: 'EUR',
      commissionRateBps: 1_000,
    });
    expect(order.items.length).toBeGreaterThan(0);
    expect(order.transactionValueMinor).toBe(
      order.items.reduce((sum, item) => sum + item.totalMinor, 0),
    );
    expect(order.earningsMinor).toBe(Math.round(order.transactionValueMinor / 10));
    expect(summary).toBe(
      `order ${order.orderNumber} of Trigger Brand recorded, PENDING, ` +
        `${(order.earningsMinor / 100).toFixed(2)} EUR earnings (id ${order.id})`,
    );
    // The database's triggers ran: the outbox event and the day report's rollup.
    expect(await prisma.webhookEvent.findMany({ where: { orderId: order.id } })).toEqual([
      expect.objectContaining({ type: 'order.created', status: 'PENDING' }),
    ]);
    expect(await prisma.orderAffiliateHour.findMany({ where: { affiliateId: user.id } })).toEqual([
      expect.objectContaining({ orders: 1, status: 'PENDING' }),
    ]);
  });

  test("with a link: the link's brand and code, the sub-IDs given or those of its latest counted click", async () => {
    const { user, brand, token } = await affiliateWithBrand();
    const link = await createLink(user.id, brand.id);
    const earlier = new Date(Math.floor(Date.now() / 3_600_000 - 3) * 3_600_000);
    await recordSubIdClicks(link, earlier, 1, 'older', { clicks: 1 });
    await recordSubIdClicks(link, earlier, 2, 'hero', { clicks: 1 });
    // A browser follows the link tagged with sub1 just now: counted in this hour.
    const followed = await app.fetch(`http://api.test/s/${link.urlCode}?sub1=newsletter`, {
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Firefox/128.0' },
      redirect: 'manual',
    });
    expect(followed.status).toBe(302);
    const created = async (variables: Record<string, unknown>) => {
      const { data, errors } = await trigger(token, { type: 'ORDER_CREATED', ...variables });
      expect(errors).toBeUndefined();
      return prisma.order.findUniqueOrThrow({ where: { id: data.triggerEvent!.orderId! } });
    };
    expect(await created({ linkCode: link.urlCode, latestClick: true })).toMatchObject({
      organizationId: brand.id,
      shortUrlCode: link.urlCode,
      sub1: 'newsletter',
      sub2: 'hero',
      sub3: null,
    });
    expect(
      await created({ linkCode: link.urlCode, latestClick: true, subIds: [null, 'given'] }),
    ).toMatchObject({ sub1: 'newsletter', sub2: 'given' });
    expect(await created({ linkCode: link.urlCode, subIds: ['only-this'] })).toMatchObject({
      shortUrlCode: link.urlCode,
      sub1: 'only-this',
      sub2: null,
    });
  });

  test('with a coupon code: its brand, and the attribution the database gives it', async () => {
    const { user, brand, token } = await affiliateWithBrand();
    const personal = await createCampaign(brand.id, { type: 'PersonalCoupon', offerType: null });
    await createPersonalCode(personal.id, user.id, 'Tia10');
    await createCampaign(brand.id, { type: 'GenericCoupon', offerType: null, code: 'ALL5' });
    const link = await createLink(user.id, brand.id);
    const { data, errors } = await trigger(token, { type: 'ORDER_CREATED', couponCode: 'tia10' });
    expect(errors).toBeUndefined();
    const order = await prisma.order.findUniqueOrThrow({
      where: { id: data.triggerEvent.orderId! },
    });
    expect(order).toMatchObject({
      organizationId: brand.id,
      couponCode: 'TIA10',
      campaignId: personal.id,
      attribution: 'COUPON',
    });
    expect(data.triggerEvent.summary).toMatch(/\(code TIA10, by COUPON\) recorded/);
    const generic = await trigger(token, {
      type: 'ORDER_CREATED',
      couponCode: 'ALL5',
      linkCode: link.urlCode,
    });
    expect(generic.data.triggerEvent.summary).toMatch(
      new RegExp(`\\(link ${link.urlCode}, code ALL5, by LINK_AND_COUPON\\) recorded`),
    );
    for (const [variables, message] of [
      [
        { couponCode: 'NOPE' },
        'coupon code NOPE is none of yours: GET /affiliate/coupons lists them',
      ],
      [
        { couponCode: 'ALL5' },
        /coupon code ALL5 is the public code of GenericCoupon campaign .* only with a click/,
      ],
    ] as const) {
      const { errors: refused } = await trigger(token, { type: 'ORDER_CREATED', ...variables });
      expect(refused).toEqual([
        expect.objectContaining({
          message: expect.stringMatching(message),
          extensions: { code: 'BAD_REQUEST' },
        }),
      ]);
    }
  });

  test("another's link, a click without a link, or a sub-ID that cannot be one is refused", async () => {
    const { token } = await affiliateWithBrand();
    const other = await affiliateWithBrand();
    const theirs = await createLink(other.user.id, other.brand.id);
    for (const [variables, code, message] of [
      [{ linkCode: theirs.urlCode }, 'NOT_FOUND', `Short link ${theirs.urlCode} not found`],
      [
        { latestClick: true },
        'BAD_REQUEST',
        'latestClick reads the sub-IDs of a link: name it (linkCode)',
      ],
      [
        { subIds: ['has space'] },
        'BAD_REQUEST',
        'subIds are sub1 to sub5, each 1 to 100 visible ASCII characters',
      ],
    ] as const) {
      const { errors } = await trigger(token, { type: 'ORDER_CREATED', ...variables });
      expect(errors).toEqual([expect.objectContaining({ message, extensions: { code } })]);
    }
  });

  test('a user related to no brand is answered BAD_REQUEST saying so', async () => {
    const user = await createUser('AFFILIATE');
    const { data, errors } = await trigger(await signDashboardToken(user.id), {
      type: 'ORDER_CREATED',
    });
    expect(data).toBeNull();
    expect(errors).toEqual([
      expect.objectContaining({
        message: 'order.created records an order of one of your brands, and this user has none',
        extensions: { code: 'BAD_REQUEST' },
      }),
    ]);
  });

  test('a partner user is FORBIDDEN', async () => {
    const partner = await createUser('PARTNER');
    const { errors } = await trigger(await signDashboardToken(partner.id), {
      type: 'ORDER_CREATED',
    });
    expect(errors).toEqual([
      expect.objectContaining({
        message: 'Triggered events are for affiliate accounts',
        extensions: { code: 'FORBIDDEN' },
      }),
    ]);
  });
});

describe('order.status_changed', () => {
  test('moves the newest order that can to its next status, as the outbox records', async () => {
    const { user, brand, token } = await affiliateWithBrand();
    const older = await createOrder(user.id, brand.id, {
      orderedAt: new Date(Date.now() - 60_000),
    });
    const newest = await createOrder(user.id, brand.id);
    // An approved order is paid by a payout, not moved on by default.
    await createOrder(user.id, brand.id, {
      status: 'APPROVED',
      orderedAt: new Date(Date.now() + 1),
    });

    const first = await trigger(token, { type: 'ORDER_STATUS_CHANGED' });
    expect(first.data.triggerEvent).toEqual({
      type: 'ORDER_STATUS_CHANGED',
      orderId: newest.id,
      summary: `order ${newest.orderNumber} PENDING -> APPROVED (id ${newest.id})`,
    });
    const second = await trigger(token, { type: 'ORDER_STATUS_CHANGED' });
    expect(second.data.triggerEvent!.orderId).toBe(older.id);
    expect(
      await prisma.webhookEvent.findMany({
        where: { type: 'order.status_changed', orderId: { in: [older.id, newest.id] } },
        select: { orderId: true, status: true, previousStatus: true },
        orderBy: { seq: 'asc' },
      }),
    ).toEqual([
      { orderId: newest.id, status: 'APPROVED', previousStatus: 'PENDING' },
      { orderId: older.id, status: 'APPROVED', previousStatus: 'PENDING' },
    ]);
  });

  test('sets the status given on the order named, with the reason and note given', async () => {
    const { user, brand, token } = await affiliateWithBrand();
    const order = await createOrder(user.id, brand.id, { status: 'APPROVED' });
    const { data } = await trigger(token, {
      type: 'ORDER_STATUS_CHANGED',
      orderId: order.id,
      status: 'REJECTED',
      reason: 'RETURNED',
      note: 'sent back in a week',
    });
    expect(data.triggerEvent!.summary).toBe(
      `order ${order.orderNumber} APPROVED -> REJECTED, RETURNED (id ${order.id})`,
    );
    expect(
      await prisma.orderEvent.findFirst({
        where: { orderId: order.id, type: 'STATUS_CHANGED' },
        select: { status: true, reason: true, note: true },
      }),
    ).toEqual({ status: 'REJECTED', reason: 'RETURNED', note: 'sent back in a week' });
  });

  test('a rejection without a reason is OTHER, saying it was triggered; OTHER without a note, or PAID, is refused', async () => {
    const { user, brand, token } = await affiliateWithBrand();
    const order = await createOrder(user.id, brand.id, { status: 'APPROVED' });
    for (const [args, message] of [
      [
        { status: 'REJECTED', reason: 'OTHER' },
        'The reason OTHER needs a note saying what it is (note)',
      ],
      [
        { status: 'PAID' },
        'An order is paid by a payout, as the back office pays it: lock it (order.locked), then trigger payout.scheduled and payout.paid',
      ],
    ] as const) {
      const { errors } = await trigger(token, {
        type: 'ORDER_STATUS_CHANGED',
        orderId: order.id,
        ...args,
      });
      expect(errors).toEqual([
        expect.objectContaining({ message, extensions: { code: 'BAD_REQUEST' } }),
      ]);
    }
    const { data } = await trigger(token, {
      type: 'ORDER_STATUS_CHANGED',
      orderId: order.id,
      status: 'REJECTED',
    });
    expect(data.triggerEvent!.summary).toBe(
      `order ${order.orderNumber} APPROVED -> REJECTED, OTHER (id ${order.id})`,
    );
    expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({
      status: 'REJECTED',
      statusReason: 'OTHER',
      statusNote: 'rejected with npm run trigger',
    });
  });

  test.each([
    [
      'a final status without a status given',
      { status: 'PAID' },
      {},
      'is PAID, which moves on only to a status given (status)',
    ],
    [
      'an approval without a status given',
      { status: 'APPROVED' },
      {},
      'is APPROVED, which moves on only to a status given (status), or is paid by a payout (payout.scheduled)',
    ],
    ['the status it has', { status: 'APPROVED' }, { status: 'APPROVED' }, 'is already APPROVED'],
  ])('an order with %s is answered BAD_REQUEST saying so', async (_case, data, args, message) => {
    const { user, brand, token } = await affiliateWithBrand();
    const order = await createOrder(user.id, brand.id, data as { status: 'PAID' });
    const { errors } = await trigger(token, {
      type: 'ORDER_STATUS_CHANGED',
      orderId: order.id,
      ...args,
    });
    expect(errors).toEqual([
      expect.objectContaining({
        message: `Order ${order.orderNumber} ${message}`,
        extensions: { code: 'BAD_REQUEST' },
      }),
    ]);
  });

  test("another affiliate's order, or no order at all, is NOT_FOUND", async () => {
    const { token } = await affiliateWithBrand();
    const other = await affiliateWithBrand();
    const theirs = await createOrder(other.user.id, other.brand.id);
    for (const orderId of [theirs.id, 'not-an-order']) {
      const { errors } = await trigger(token, { type: 'ORDER_STATUS_CHANGED', orderId });
      expect(errors).toEqual([
        expect.objectContaining({
          message: `Order ${orderId} not found`,
          extensions: { code: 'NOT_FOUND' },
        }),
      ]);
    }
    expect((await prisma.order.findUniqueOrThrow({ where: { id: theirs.id } })).status).toBe(
      'PENDING',
    );
  });

  test("a change the database refuses is a BAD_REQUEST in the database's words", async () => {
    const { user, brand, token } = await affiliateWithBrand();
    const held = await createOrder(user.id, brand.id, { status: 'APPROVED' });
    await lockOrders([held.id]);
    const payoutId = await createPayout(user.id, [held.id]);
    // It changes only with its payout.
    const { errors } = await trigger(token, {
      type: 'ORDER_STATUS_CHANGED',
      orderId: held.id,
      status: 'PENDING',
    });
    expect(errors).toEqual([
      expect.objectContaining({
        message: expect.stringContaining(`order ${held.id} is in payout ${payoutId}`),
        extensions: { code: 'BAD_REQUEST' },
      }),
    ]);
    expect((await prisma.order.findUniqueOrThrow({ where: { id: held.id } })).status).toBe(
      'APPROVED',
    );
  });

  test('the newest order a payout does not hold is the one that moves', async () => {
    const { user, brand, token } = await affiliateWithBrand();
    const free = await createOrder(user.id, brand.id, {
      status: 'APPROVED',
      orderedAt: new Date(Date.now() - 60_000),
    });
    const held = await createOrder(user.id, brand.id, { status: 'APPROVED' });
    await lockOrders([held.id]);
    await createPayout(user.id, [held.id]);
    const { data, errors } = await trigger(token, {
      type: 'ORDER_STATUS_CHANGED',
      status: 'REJECTED',
    });
    expect(errors).toBeUndefined();
    expect(data.triggerEvent.orderId).toBe(free.id);
  });

  test('a user without an order that can change is told to record one first', async () => {
    const { token } = await affiliateWithBrand();
    const { errors } = await trigger(token, { type: 'ORDER_STATUS_CHANGED' });
    expect(errors).toEqual([
      expect.objectContaining({
        message:
          'order.status_changed found no order of yours to change: trigger order.created first',
        extensions: { code: 'BAD_REQUEST' },
      }),
    ]);
  });
});

describe('order.adjusted', () => {
  test("corrects the newest unlocked order's amounts with a reason, as an order event says", async () => {
    const { user, brand, token } = await affiliateWithBrand();
    const order = await createOrder(user.id, brand.id, {
      transactionValueMinor: 10_000,
      earningsMinor: 1_000,
    });
    const { data, errors } = await trigger(token, { type: 'ORDER_ADJUSTED' });
    expect(errors).toBeUndefined();
    expect(data.triggerEvent).toEqual({
      type: 'ORDER_ADJUSTED',
      orderId: order.id,
      summary: `order ${order.orderNumber} adjusted: earnings 10.00 EUR -> 9.00 EUR (id ${order.id})`,
    });
    expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({
      transactionValueMinor: 9_000,
      earningsMinor: 900,
      originalEarningsMinor: 1_000,
      statusReason: 'AMOUNT_CORRECTED',
    });
    expect(
      await prisma.webhookEvent.findMany({ where: { orderId: order.id }, select: { type: true } }),
    ).toContainEqual({ type: 'order.adjusted' });
  });
});

describe('payouts, step by step', () => {
  /** An affiliate with one available (approved and locked) order of 7.00 EUR, and a pending one. */
  async function withAvailableOrder() {
    const { user, brand, token } = await affiliateWithBrand();
    const approved = await createOrder(user.id, brand.id, {
      status: 'APPROVED',
      earningsMinor: 700,
    });
    const pending = await createOrder(user.id, brand.id, { status: 'PENDING' });
    const locked = await trigger(token, { type: 'ORDER_LOCKED' });
    expect(locked.data.triggerEvent).toEqual({
      type: 'ORDER_LOCKED',
      orderId: approved.id,
      summary: `order ${approved.orderNumber} locked (id ${approved.id})`,
    });
    return { user, token, approved, pending };
  }

  const payoutEvents = async (payoutId: string) =>
    (
      await prisma.webhookEvent.findMany({
        where: { payoutId },
        select: { type: true },
        orderBy: { seq: 'asc' },
      })
    ).map(({ type }) => type);

  test('scheduled, processing, then paid: each its own step, its own event and state, its orders PAID at the end', async () => {
    const { user, token, approved, pending } = await withAvailableOrder();
    const scheduled = await trigger(token, { type: 'PAYOUT_SCHEDULED' });
    expect(scheduled.errors).toBeUndefined();
    const payout = await prisma.payout.findFirstOrThrow({
      where: { affiliateId: user.id },
      include: { items: { select: { orderId: true, amountMinor: true } } },
    });
    expect(payout).toMatchObject({
      status: 'SCHEDULED',
      currency: 'EUR',
      amountMinor: 700n,
      items: [{ orderId: approved.id, amountMinor: 700 }],
    });
    expect(scheduled.data.triggerEvent.summary).toBe(
      `payout ${payout.reference} of 7.00 EUR scheduled (id ${payout.id})`,
    );
    const processing = await trigger(token, { type: 'PAYOUT_PROCESSING' });
    expect(processing.data.triggerEvent.summary).toBe(
      `payout ${payout.reference} of 7.00 EUR processing (id ${payout.id})`,
    );
    expect(await prisma.payout.findUniqueOrThrow({ where: { id: payout.id } })).toMatchObject({
      status: 'PROCESSING',
      initiatedAt: expect.any(Date),
    });
    const paid = await trigger(token, { type: 'PAYOUT_PAID' });
    expect(paid.data.triggerEvent.summary).toBe(
      `payout ${payout.reference} of 7.00 EUR paid (id ${payout.id})`,
    );
    const statuses = await prisma.order.findMany({
      where: { id: { in: [approved.id, pending.id] } },
      select: { id: true, status: true },
    });
    expect(Object.fromEntries(statuses.map(({ id, status }) => [id, status]))).toEqual({
      [approved.id]: 'PAID',
      [pending.id]: 'PENDING',
    });
    expect(await payoutEvents(payout.id)).toEqual([
      'payout.scheduled',
      'payout.processing',
      'payout.paid',
    ]);
  });

  test('failed with its reason, or cancelled: its event, and its orders available again', async () => {
    const { user, token } = await withAvailableOrder();
    await trigger(token, { type: 'PAYOUT_SCHEDULED' });
    const failed = await trigger(token, { type: 'PAYOUT_FAILED', note: 'the account is closed' });
    const first = await prisma.payout.findFirstOrThrow({ where: { affiliateId: user.id } });
    expect(failed.data.triggerEvent.summary).toBe(
      `payout ${first.reference} of 7.00 EUR failed: the account is closed (id ${first.id})`,
    );
    expect(first).toMatchObject({ status: 'FAILED', failureReason: 'the account is closed' });
    // Available again: the next payout takes the order.
    await trigger(token, { type: 'PAYOUT_SCHEDULED' });
    const cancelled = await trigger(token, { type: 'PAYOUT_CANCELLED' });
    expect(cancelled.errors).toBeUndefined();
    const second = await prisma.payout.findFirstOrThrow({
      where: { affiliateId: user.id, id: { not: first.id } },
    });
    expect(second.status).toBe('CANCELLED');
    expect(await payoutEvents(first.id)).toEqual(['payout.scheduled', 'payout.failed']);
    expect(await payoutEvents(second.id)).toEqual(['payout.scheduled', 'payout.cancelled']);
  });

  test('with nothing to pay or to move, says which step comes first', async () => {
    const { user, brand, token } = await affiliateWithBrand();
    await createOrder(user.id, brand.id, { status: 'PENDING' });
    for (const [type, message] of [
      [
        'PAYOUT_SCHEDULED',
        'payout.scheduled pays available money, and you have none: approve an order (order.status_changed), then lock it (order.locked)',
      ],
      [
        'PAYOUT_PAID',
        'payout.paid moves a payout of yours that is SCHEDULED or PROCESSING, and you have none: trigger payout.scheduled first',
      ],
    ] as const) {
      const { errors } = await trigger(token, { type });
      expect(errors).toEqual([
        expect.objectContaining({ message, extensions: { code: 'BAD_REQUEST' } }),
      ]);
    }
    expect(await prisma.payout.count({ where: { affiliateId: user.id } })).toBe(0);
  });
});

describe('the ledger, step by step', () => {
  const summaryOf = async (token: string, variables: Record<string, unknown>) => {
    const { data, errors } = await trigger(token, variables);
    expect(errors).toBeUndefined();
    return data.triggerEvent.summary as string;
  };
  const refusalOf = async (token: string, variables: Record<string, unknown>) => {
    const { errors } = await trigger(token, variables);
    expect(errors?.[0]?.extensions).toEqual({ code: 'BAD_REQUEST' });
    return errors![0]!.message as string;
  };

  test("earning.created writes a bonus in the newest order's currency, or the kind, amount and currency given, in the currency's decimals", async () => {
    const { user, brand, token } = await affiliateWithBrand();
    await createOrder(user.id, brand.id, { currency: 'JPY' });
    expect(await summaryOf(token, { type: 'EARNING_CREATED' })).toMatch(
      /^BONUS of 10 JPY written \(entry [0-9a-f-]{36}\)$/,
    );
    const debit = { type: 'EARNING_CREATED', kind: 'DEBIT', currency: 'BHD', note: 'a fee' };
    expect(await summaryOf(token, { ...debit, amount: 1.5 })).toMatch(
      /^DEBIT of -1\.500 BHD written/,
    );
    const entries = await prisma.earning.findMany({
      where: { affiliateId: user.id },
      orderBy: { createdAt: 'asc' },
    });
    expect(
      entries.map((entry) => [entry.kind, entry.currency, entry.amountMinor, entry.reason]),
    ).toEqual([
      ['BONUS', 'JPY', 10, 'bonus written with npm run trigger'],
      ['DEBIT', 'BHD', -1500, 'a fee'],
    ]);
    expect(await refusalOf(token, { ...debit, amount: 1.2345 })).toBe(
      'amount 1.2345 has more decimals than BHD has (3)',
    );
    expect(await refusalOf(token, { type: 'EARNING_CREATED', kind: 'CLAWBACK' })).toBe(
      'A clawback takes back from a paid order: trigger order.clawback',
    );
    // Each entry is an event, as the back office's are.
    expect(
      await prisma.webhookEvent.count({
        where: { type: 'earning.created', earningId: { in: entries.map((entry) => entry.id) } },
      }),
    ).toBe(2);
  });

  test('order.held and order.released hold and release the newest order that can be, each with its event', async () => {
    const { user, brand, token } = await affiliateWithBrand();
    const order = await createOrder(user.id, brand.id, { status: 'PENDING' });
    expect(
      await summaryOf(token, {
        type: 'ORDER_HELD',
        holdReason: 'FRAUD_CHECK',
        note: 'one address',
      }),
    ).toBe(`order ${order.orderNumber} held, FRAUD_CHECK (id ${order.id})`);
    expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({
      heldReason: 'FRAUD_CHECK',
      heldNote: 'one address',
    });
    expect(await refusalOf(token, { type: 'ORDER_HELD' })).toMatch(/^order\.held holds a pending/);
    expect(await summaryOf(token, { type: 'ORDER_RELEASED' })).toBe(
      `order ${order.orderNumber} released (id ${order.id})`,
    );
    const events = await prisma.orderEvent.findMany({
      where: { orderId: order.id },
      orderBy: { number: 'asc' },
      select: { type: true },
    });
    expect(events.map(({ type }) => type)).toEqual(['CREATED', 'HELD', 'RELEASED']);
    expect(await refusalOf(token, { type: 'ORDER_RELEASED' })).toMatch(/you have none/);
  });

  test('order.clawback takes back what is left of a paid order; the next payout nets it, and none is made below zero or the minimum', async () => {
    const { user, brand, token } = await affiliateWithBrand();
    const paid = await createOrder(user.id, brand.id, { status: 'APPROVED', earningsMinor: 900 });
    await lockOrders([paid.id]);
    await summaryOf(token, { type: 'PAYOUT_SCHEDULED' });
    await summaryOf(token, { type: 'PAYOUT_PAID' });
    expect(await summaryOf(token, { type: 'ORDER_CLAWBACK', amount: 2.5 })).toMatch(
      new RegExp(`^order ${paid.orderNumber}: -2\\.50 EUR clawed back \\(entry [0-9a-f-]{36}\\)$`),
    );
    expect(await summaryOf(token, { type: 'ORDER_CLAWBACK' })).toMatch(/: -6\.50 EUR clawed back/);
    expect(await refusalOf(token, { type: 'ORDER_CLAWBACK' })).toBe(
      `Order ${paid.orderNumber}'s earnings were all taken back already`,
    );
    expect(await refusalOf(token, { type: 'PAYOUT_SCHEDULED' })).toBe(
      'payout.scheduled pays available money, and yours is -9.00 EUR after clawbacks and debits: later earnings fill it first',
    );
    const next = await createOrder(user.id, brand.id, { status: 'APPROVED', earningsMinor: 1500 });
    await lockOrders([next.id]);
    await prisma.payoutTerms.create({
      data: { affiliateId: user.id, currency: 'EUR', minimumMinor: 1000, payoutDay: 1 },
    });
    expect(await refusalOf(token, { type: 'PAYOUT_SCHEDULED' })).toBe(
      'payout.scheduled: your available 6.00 EUR is below the minimum payout of 10.00 EUR; it carries forward until it reaches it',
    );
    await prisma.payoutTerms.updateMany({
      where: { affiliateId: user.id },
      data: { minimumMinor: 500 },
    });
    expect(await summaryOf(token, { type: 'PAYOUT_SCHEDULED', currency: 'EUR' })).toMatch(
      /^payout TRIG-PAYOUT-\w+ of 6\.00 EUR scheduled/,
    );
    const payout = await prisma.payout.findFirstOrThrow({
      where: { affiliateId: user.id, status: 'SCHEDULED' },
      include: { items: true },
    });
    expect(payout.items.map((item) => item.amountMinor).sort((a, b) => a - b)).toEqual([
      -650, -250, 1500,
    ]);
  });
});

describe.each([
  ['NODE_ENV=production', { NODE_ENV: 'production', ALLOW_EMBEDDED_DATABASE: '1' }],
  ['KEY_ENV=live', { NODE_ENV: 'development', KEY_ENV: 'live' }],
])('a service with %s', (_name, env) => {
  const secret = 'trigger-test-dashboard-secret-0123456789';
  let replica: Replica;

  beforeAll(async () => {
    replica = await startReplica(
      {
        ...env,
        DATABASE_URL: undefined,
        REDIS_URL: undefined,
        PGLITE_DATA_DIR: 'memory://',
        DASHBOARD_JWT_SECRET: secret,
      },
      'src/server.ts',
    );
  }, 180_000);

  afterAll(async () => {
    replica?.process.kill();
    await replica?.exited;
  });

  test('has no triggerEvent: the mutation is a 400 naming the field', async () => {
    const response = await fetch(`${replica.base}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
      },
      body: JSON.stringify({ query: 'mutation { triggerEvent(type: ORDER_CREATED) { summary } }' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: [
        expect.objectContaining({
          message: 'Cannot query field "triggerEvent" on type "Mutation".',
        }),
      ],
    });
  });

  test('npm run trigger, from a development shell, says the service causes no events', async () => {
    const answer = await runTrigger(['order.created'], {
      NODE_ENV: 'development',
      KEY_ENV: undefined,
      DATABASE_URL: undefined,
      PGLITE_DATA_DIR: 'memory://',
      DASHBOARD_JWT_SECRET: secret,
      PORT: new URL(replica.base).port,
    });
    expect(answer).toEqual({
      code: 1,
      output: `The service at http://127.0.0.1:${new URL(replica.base).port} causes no events: triggerEvent is served in development only (not with NODE_ENV=production or KEY_ENV=live)`,
    });
  }, 90_000);
});

test.each([
  ['NODE_ENV=production', { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://api.example.com' }],
  ['KEY_ENV=live', { NODE_ENV: 'development', KEY_ENV: 'live' }],
])(
  'npm run trigger with %s refuses before calling anything',
  async (_name, env) => {
    const answer = await runTrigger(['order.created'], {
      ...env,
      DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none',
      DASHBOARD_JWT_SECRET: 'trigger-test-dashboard-secret-0123456789',
    });
    expect(answer).toEqual({
      code: 2,
      output:
        'npm run trigger is for development: a service with NODE_ENV=production or KEY_ENV=live causes no events on request',
    });
  },
  90_000,
);
