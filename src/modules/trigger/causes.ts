// What each event of events.ts writes: the rows the back office would write, in plain INSERTs and
// UPDATEs on "Order" and "OrderItem", so the database's triggers run as for any writer (the outbox
// and its webhook and postback deliveries, the performance and sub-ID rollups, updatedAt).
import { randomBytes, randomInt } from 'node:crypto';
import { amountText } from '../../platform/currencies';
import { databaseRefusalOf } from '../../platform/databaseOutage';
import { prisma } from '../../platform/db';
import { BadRequestError, notFound } from '../../platform/errors';
import { isUuid } from '../../platform/formats';
import {
  OrderStatus,
  type OrderStatusReason,
  type PayoutStatus,
  type Prisma,
} from '../../generated/prisma/client';
import { isSubId, MAX_SUB_ID_LENGTH, SUB_ID_NAMES } from '../links/subIds';
import type { TriggerEventType } from './events';

/** What a trigger asks for: whose event, and the arguments given. */
export interface TriggerRequest {
  affiliateId: string;
  orderId: string | null;
  status: OrderStatus | null;
  /** order.status_changed: why (a rejection needs a reason; OTHER needs a note). */
  reason: OrderStatusReason | null;
  note: string | null;
  /** order.created: the affiliate's link the order came through, and its sub-IDs (sub1 first). */
  linkCode: string | null;
  subIds: readonly (string | null)[];
  /** order.created: the sub-IDs the link's newest counted clicks carried, where none is given. */
  latestClick: boolean;
  /** payout.*: the payout to move (default: the newest that can). */
  payoutId: string | null;
}

/** What it did: the order it wrote, and a line saying so. */
export interface Triggered {
  orderId: string | null;
  summary: string;
}

type Cause = (request: TriggerRequest) => Promise<Triggered>;

/**
 * Where an order's status moves on by default; others move only when told. An order is never told
 * PAID: a payout pays it, as the back office's does (order.locked, then payout.paid).
 */
const NEXT_STATUS: Partial<Record<OrderStatus, OrderStatus>> = { PENDING: 'APPROVED' };

/** A made-up line when the brand has no products. */
const SAMPLE_ITEM = {
  sku: 'TRIGGER-1',
  name: 'Triggered item',
  priceMinor: 4_990,
  currency: 'EUR',
};

/** 1500 JPY-minor -> "1500 JPY", 1250 EUR-minor -> "12.50 EUR". */
const money = (minor: number, currency: string) => `${amountText(minor, currency)} ${currency}`;

/** An order number of its own, recognisable as a triggered one: TRIG-20261127-5F2K9Q. */
function triggeredOrderNumber(at: Date): string {
  const day = at.toISOString().slice(0, 10).replace(/-/g, '');
  return `TRIG-${day}-${randomBytes(4).toString('hex').toUpperCase()}`;
}

/** The link an order comes through: the affiliate's own, by its code. */
async function linkOf(affiliateId: string, linkCode: string) {
  const link = await prisma.shortUrl.findFirst({
    where: { urlCode: linkCode, affiliateId },
    select: { id: true, urlCode: true, organizationId: true },
  });
  if (!link) throw notFound('Short link', linkCode);
  return link;
}

/**
 * The sub-IDs a link's newest counted clicks carried: per sub-ID, the value counted most in the
 * newest hour that counted one (the service keeps clicks per hour and value, not one by one).
 */
async function latestClickSubIds(linkId: string): Promise<(string | null)[]> {
  const rows = await prisma.$queryRaw<{ slot: number; value: string }[]>`
    SELECT DISTINCT ON ("slot") "slot", "value" FROM "LinkSubIdClickHour"
    WHERE "linkId" = ${linkId}::uuid AND "clicks" > 0
    ORDER BY "slot", "hour" DESC, "clicks" DESC, "value"`;
  return SUB_ID_NAMES.map((_, n) => rows.find((row) => row.slot === n + 1)?.value ?? null);
}

async function recordOrder(request: TriggerRequest): Promise<Triggered> {
  const { affiliateId, linkCode } = request;
  if (
    request.subIds.length > SUB_ID_NAMES.length ||
    request.subIds.some((value) => value !== null && !isSubId(value))
  ) {
    throw new BadRequestError(
      `subIds are sub1 to sub5, each 1 to ${MAX_SUB_ID_LENGTH} visible ASCII characters`,
    );
  }
  if (request.latestClick && linkCode === null) {
    throw new BadRequestError('latestClick reads the sub-IDs of a link: name it (linkCode)');
  }
  const link = linkCode === null ? null : await linkOf(affiliateId, linkCode);
  const relations = await prisma.affiliateBrand.findMany({
    where: { affiliateId, ...(link && { organizationId: link.organizationId }) },
    select: {
      commissionType: true,
      commissionValue: true,
      organization: { select: { id: true, name: true } },
    },
  });
  if (relations.length === 0) {
    throw new BadRequestError(
      link
        ? `order.created records an order of the link's brand, which is not one of yours`
        : 'order.created records an order of one of your brands, and this user has none',
    );
  }
  const clicked = link && request.latestClick ? await latestClickSubIds(link.id) : [];
  const subIds = SUB_ID_NAMES.map((_, n) => request.subIds[n] ?? clicked[n] ?? null);
  const relation = relations[randomInt(relations.length)]!;
  const brand = relation.organization;
  const products = await prisma.product.findMany({
    where: { organizationId: brand.id },
    select: {
      id: true,
      sku: true,
      name: true,
      priceMinor: true,
      salePriceMinor: true,
      currency: true,
    },
    orderBy: { id: 'asc' },
    take: 20,
  });
  const rateBps = relation.commissionType === 'PERCENTAGE' ? relation.commissionValue : 0;
  const choices = products.length > 0 ? products : [{ id: null, ...SAMPLE_ITEM }];
  // One or two of the brand's products, from a random place in its list; the order is in the
  // first one's currency, which the second must share.
  const first = randomInt(choices.length);
  const currency = choices[first]!.currency;
  const lines = [...new Set([first, (first + 1) % choices.length].slice(0, randomInt(1, 3)))]
    .map((index) => choices[index]!)
    .filter((line) => line.currency === currency);
  const items = lines.map((line, position) => {
    const quantity = randomInt(1, 4);
    const unitPriceMinor = ('salePriceMinor' in line && line.salePriceMinor) || line.priceMinor;
    const totalMinor = quantity * unitPriceMinor;
    return {
      productId: line.id,
      sku: line.sku,
      name: line.name,
      quantity,
      unitPriceMinor,
      totalMinor,
      commissionRateBps: rateBps,
      // A fixed commission is the order's, counted on its first line.
      commissionValueMinor:
        relation.commissionType === 'PERCENTAGE'
          ? Math.round((totalMinor * rateBps) / 10_000)
          : position === 0
            ? relation.commissionValue
            : 0,
      position,
    } satisfies Omit<Prisma.OrderItemCreateManyInput, 'orderId'>;
  });
  const orderedAt = new Date();
  const order = await prisma.order.create({
    data: {
      orderNumber: triggeredOrderNumber(orderedAt),
      affiliateId,
      organizationId: brand.id,
      status: 'PENDING',
      currency,
      transactionValueMinor: items.reduce((sum, item) => sum + item.totalMinor, 0),
      commissionRateBps: rateBps,
      earningsMinor: items.reduce((sum, item) => sum + item.commissionValueMinor, 0),
      orderedAt,
      shortUrlCode: link?.urlCode ?? null,
      ...Object.fromEntries(SUB_ID_NAMES.map((name, n) => [name, subIds[n]])),
      items: { createMany: { data: items } },
    },
    select: { id: true, orderNumber: true, earningsMinor: true },
  });
  const tags = SUB_ID_NAMES.flatMap((name, n) => (subIds[n] ? [`${name} ${subIds[n]}`] : []));
  const source = [...(link ? [`link ${link.urlCode}`] : []), ...tags].join(', ');
  return {
    orderId: order.id,
    summary:
      `order ${order.orderNumber} of ${brand.name}${source ? ` (${source})` : ''} recorded, ` +
      `PENDING, ${money(order.earningsMinor, currency)} earnings (id ${order.id})`,
  };
}

/** A write the database's rules refuse (a held or locked order) is the caller's to change. */
function asBadRequest(error: unknown): never {
  const refusal = databaseRefusalOf(error);
  throw refusal ? new BadRequestError(refusal) : error;
}

/** The order named, or the user's newest order, held by no payout, whose status moves on by default. */
async function orderToChange({ affiliateId, orderId, status }: TriggerRequest) {
  const select = { id: true, orderNumber: true, status: true } as const;
  if (orderId !== null) {
    const order = isUuid(orderId)
      ? await prisma.order.findFirst({ where: { id: orderId, affiliateId }, select })
      : null;
    if (!order) throw notFound('Order', orderId);
    return order;
  }
  const from =
    status === null
      ? (Object.keys(NEXT_STATUS) as OrderStatus[])
      : Object.values(OrderStatus).filter((other) => other !== status);
  const order = await prisma.order.findFirst({
    // An order a payout holds changes only with its payout.
    where: {
      affiliateId,
      status: { in: from },
      payoutItems: { none: { heldOrderId: { not: null } } },
    },
    orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
    select,
  });
  if (!order) {
    throw new BadRequestError(
      'order.status_changed found no order of yours to change: trigger order.created first',
    );
  }
  return order;
}

/** The reason and note a status change is written with; a rejection's default says who rejected. */
function reasonOf({ status, reason, note }: TriggerRequest) {
  if (reason === 'OTHER' && !note) {
    throw new BadRequestError('The reason OTHER needs a note saying what it is (note)');
  }
  if (reason === null && note !== null) throw new BadRequestError('A note goes with a reason');
  if (reason !== null) return { statusReason: reason, statusNote: note };
  return status === 'REJECTED'
    ? { statusReason: 'OTHER' as const, statusNote: 'rejected with npm run trigger' }
    : {};
}

async function changeOrderStatus(request: TriggerRequest): Promise<Triggered> {
  if (request.status === 'PAID') {
    throw new BadRequestError(
      'An order is paid by a payout, as the back office pays it: lock it (order.locked), then trigger payout.scheduled and payout.paid',
    );
  }
  const order = await orderToChange(request);
  const status = request.status ?? NEXT_STATUS[order.status];
  if (!status) {
    throw new BadRequestError(
      `Order ${order.orderNumber} is ${order.status}, which moves on only to a status given (status)` +
        (order.status === 'APPROVED' ? ', or is paid by a payout (payout.scheduled)' : ''),
    );
  }
  if (status === order.status) {
    throw new BadRequestError(`Order ${order.orderNumber} is already ${status}`);
  }
  const reason = reasonOf({ ...request, status });
  await prisma.order
    .update({ where: { id: order.id }, data: { status, ...reason }, select: { id: true } })
    .catch(asBadRequest);
  const why = reason.statusReason ? `, ${reason.statusReason}` : '';
  return {
    orderId: order.id,
    summary: `order ${order.orderNumber} ${order.status} -> ${status}${why} (id ${order.id})`,
  };
}

/** An order's amounts corrected down by a tenth, as a brand reports a partial return. */
async function adjustOrder({ affiliateId, orderId }: TriggerRequest): Promise<Triggered> {
  const select = { id: true, orderNumber: true, earningsMinor: true, currency: true } as const;
  const unlocked = { affiliateId, lockedAt: null, status: { not: 'PAID' as const } };
  const order =
    orderId !== null
      ? isUuid(orderId)
        ? await prisma.order.findFirst({ where: { id: orderId, ...unlocked }, select })
        : null
      : await prisma.order.findFirst({
          where: unlocked,
          orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
          select,
        });
  if (!order) {
    if (orderId !== null) throw notFound('Unlocked order', orderId);
    throw new BadRequestError(
      'order.adjusted corrects an unlocked order, and you have none: trigger order.created first',
    );
  }
  const [adjusted] = await prisma.$queryRaw<{ earningsMinor: number }[]>`
    UPDATE "Order" SET
      "transactionValueMinor" = "transactionValueMinor" - "transactionValueMinor" / 10,
      "earningsMinor" = "earningsMinor" - "earningsMinor" / 10,
      "statusReason" = 'AMOUNT_CORRECTED', "statusNote" = 'a partial return (npm run trigger)'
    WHERE "id" = ${order.id}::uuid
    RETURNING "earningsMinor"`.catch(asBadRequest);
  return {
    orderId: order.id,
    summary:
      `order ${order.orderNumber} adjusted: earnings ${money(order.earningsMinor, order.currency)} -> ` +
      `${money(adjusted!.earningsMinor, order.currency)} (id ${order.id})`,
  };
}

/**
 * Locks an order, as the lock pass (lock_due_orders) does once its lock date passed; here before
 * it, so a development installation need not wait the brand's lock period.
 */
async function lockOrder({ affiliateId, orderId }: TriggerRequest): Promise<Triggered> {
  const select = { id: true, orderNumber: true } as const;
  const order =
    orderId !== null
      ? isUuid(orderId)
        ? await prisma.order.findFirst({
            where: { id: orderId, affiliateId, lockedAt: null },
            select,
          })
        : null
      : await prisma.order.findFirst({
          where: { affiliateId, status: 'APPROVED', lockedAt: null },
          orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
          select,
        });
  if (!order) {
    if (orderId !== null) throw notFound('Unlocked order', orderId);
    throw new BadRequestError(
      'order.locked locks an approved order, and you have none unlocked: approve one first (order.status_changed)',
    );
  }
  await prisma.$executeRaw`
    UPDATE "Order" SET "lockedAt" = now() AT TIME ZONE 'UTC' WHERE "id" = ${order.id}::uuid`;
  return { orderId: order.id, summary: `order ${order.orderNumber} locked (id ${order.id})` };
}

/**
 * A payout of the user's available orders in the currency that has the most, scheduled as the back
 * office does (docs/operating.md, "Payouts"): the payout, then its items, in one transaction.
 */
async function schedulePayout({ affiliateId }: TriggerRequest): Promise<Triggered> {
  const reference = `TRIG-PAYOUT-${randomBytes(4).toString('hex').toUpperCase()}`;
  const payout = await prisma
    .$transaction(async (tx) => {
      const [made] = await tx.$queryRaw<{ id: string; currency: string; amountMinor: number }[]>`
        WITH available AS (
          SELECT o."currency", sum(o."earningsMinor") AS "amountMinor", count(*) AS "orders",
            min(o."orderedAt") AS "since"
          FROM "Order" o
          WHERE o."affiliateId" = ${affiliateId}::uuid AND order_is_payable(o)
            AND NOT EXISTS (SELECT 1 FROM "PayoutItem" i WHERE i."heldOrderId" = o."id")
          GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT 1
        )
        INSERT INTO "Payout" ("affiliateId", "currency", "amountMinor", "periodStart", "periodEnd",
          "method", "reference")
        SELECT ${affiliateId}::uuid, "currency", "amountMinor", date_trunc('day', "since"),
          now(), 'BANK_TRANSFER', ${reference}
        FROM available
        RETURNING "id"::text, "currency", "amountMinor"::int`;
      if (!made) return null;
      await tx.$executeRaw`
        INSERT INTO "PayoutItem" ("payoutId", "orderId", "amountMinor")
        SELECT p."id", o."id", o."earningsMinor"
        FROM "Payout" p
        JOIN "Order" o ON o."affiliateId" = p."affiliateId" AND o."currency" = p."currency"
        WHERE p."id" = ${made.id}::uuid AND order_is_payable(o)
          AND NOT EXISTS (SELECT 1 FROM "PayoutItem" i WHERE i."heldOrderId" = o."id")`;
      return made;
    })
    .catch(asBadRequest);
  if (!payout) {
    throw new BadRequestError(
      'payout.scheduled pays available orders, and you have none: approve one (order.status_changed), then lock it (order.locked)',
    );
  }
  return {
    orderId: null,
    summary: `payout ${reference} of ${money(payout.amountMinor, payout.currency)} scheduled (id ${payout.id})`,
  };
}

/** What each later step of a payout sets, and from which statuses. */
const PAYOUT_STEPS = {
  'payout.processing': { status: 'PROCESSING', from: ['SCHEDULED'], done: 'processing' },
  'payout.paid': { status: 'PAID', from: ['SCHEDULED', 'PROCESSING'], done: 'paid' },
  'payout.failed': { status: 'FAILED', from: ['SCHEDULED', 'PROCESSING'], done: 'failed' },
  'payout.cancelled': { status: 'CANCELLED', from: ['SCHEDULED', 'PROCESSING'], done: 'cancelled' },
} as const satisfies Record<string, { status: PayoutStatus; from: PayoutStatus[]; done: string }>;

/**
 * The next step of the user's newest open payout (or the one named), as the back office writes it:
 * its payment started, paid (its orders PAID), failed (with its reason) or cancelled.
 */
function payoutStep(type: keyof typeof PAYOUT_STEPS): Cause {
  const step = PAYOUT_STEPS[type];
  return async ({ affiliateId, payoutId, note }) => {
    const open = { affiliateId, status: { in: [...step.from] } };
    const payout =
      payoutId !== null
        ? isUuid(payoutId)
          ? await prisma.payout.findFirst({ where: { id: payoutId, affiliateId } })
          : null
        : await prisma.payout.findFirst({
            where: open,
            orderBy: [{ scheduledAt: 'desc' }, { id: 'desc' }],
          });
    if (!payout) {
      if (payoutId !== null) throw notFound('Payout', payoutId);
      throw new BadRequestError(
        `${type} moves a payout of yours that is ${step.from.join(' or ')}, and you have none: trigger payout.scheduled first`,
      );
    }
    const failureReason =
      step.status === 'FAILED' ? (note ?? 'the bank refused the transfer (npm run trigger)') : null;
    await prisma.payout
      .update({
        where: { id: payout.id },
        data: { status: step.status, ...(failureReason && { failureReason }) },
        select: { id: true },
      })
      .catch(asBadRequest);
    const why = failureReason ? `: ${failureReason}` : '';
    return {
      orderId: null,
      summary: `payout ${payout.reference ?? payout.id} of ${money(Number(payout.amountMinor), payout.currency)} ${step.done}${why} (id ${payout.id})`,
    };
  };
}

export const CAUSES: Record<TriggerEventType, Cause> = {
  'order.created': recordOrder,
  'order.status_changed': changeOrderStatus,
  'order.adjusted': adjustOrder,
  'order.locked': lockOrder,
  'payout.scheduled': schedulePayout,
  'payout.processing': payoutStep('payout.processing'),
  'payout.paid': payoutStep('payout.paid'),
  'payout.failed': payoutStep('payout.failed'),
  'payout.cancelled': payoutStep('payout.cancelled'),
};
