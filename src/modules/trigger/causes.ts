// What each event of triggerEvents.ts writes: the rows the back office would write, in plain INSERTs and
// UPDATEs on "Order", "OrderItem", "Earning", "Payout" and "PayoutItem", so the database's triggers
// run as for any writer (the outbox and its webhook and postback deliveries, the balance, the
// performance and sub-ID rollups, updatedAt).
import { randomBytes, randomInt } from 'node:crypto';
import { amountText, exponentOf, fromMinor, toMinor } from '../../platform/currencies';
import { databaseRefusalOf } from '../../platform/databaseOutage';
import { prisma } from '../../platform/db';
import { BadRequestError, notFound } from '../../platform/errors';
import { isUuid } from '../../platform/formats';
import {
  OrderStatus,
  type HoldReason,
  type OrderStatusReason,
  type PayoutStatus,
  type Prisma,
} from '../../generated/prisma/client';
import type { LedgerKind } from '../payouts/earnings';
import { termsByCurrency } from '../payouts/terms';
import { isSubId, MAX_SUB_ID_LENGTH, SUB_ID_NAMES } from '../links/subIds';
import type { TriggerEventType } from './triggerEvents';

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
  /** order.created: the coupon code the brand reports with the order (its brand's order). */
  couponCode: string | null;
  /** payout.*: the payout to move (default: the newest that can). */
  payoutId: string | null;
  /** order.held: why (default REVIEW). */
  holdReason: HoldReason | null;
  /** earning.created: the entry's kind (default BONUS), amount and currency; order.clawback: how much. */
  kind: LedgerKind | null;
  amount: number | null;
  currency: string | null;
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

/**
 * The brand of a code the affiliate may use (GET /affiliate/coupons, AffiliateCoupon): its own
 * PersonalCoupon code, or a GenericCoupon code of one of its brands; compared trimmed and in any
 * case, as the database matches it.
 */
async function couponBrandOf(affiliateId: string, couponCode: string): Promise<string> {
  const code = { equals: couponCode.trim(), mode: 'insensitive' } as const;
  const campaign = await prisma.campaign.findFirst({
    where: {
      affiliates: { some: { affiliateId } },
      OR: [
        { type: 'PersonalCoupon', personalCoupons: { some: { affiliateId, code } } },
        { type: 'GenericCoupon', code },
      ],
    },
    orderBy: [{ type: 'asc' }, { createdAt: 'desc' }],
    select: { organizationId: true },
  });
  if (!campaign) {
    throw new BadRequestError(
      `coupon code ${couponCode} is none of yours: GET /affiliate/coupons lists them`,
    );
  }
  return campaign.organizationId;
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
  const couponBrand =
    request.couponCode === null ? null : await couponBrandOf(affiliateId, request.couponCode);
  if (link && couponBrand !== null && couponBrand !== link.organizationId) {
    throw new BadRequestError('the coupon code and the link are of different brands');
  }
  const brandId = couponBrand ?? link?.organizationId;
  const relations = await prisma.affiliateBrand.findMany({
    where: { affiliateId, ...(brandId && { organizationId: brandId }) },
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
  const order = await prisma.order
    .create({
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
        couponCode: request.couponCode,
        ...Object.fromEntries(SUB_ID_NAMES.map((name, n) => [name, subIds[n]])),
        items: { createMany: { data: items } },
      },
      select: {
        id: true,
        orderNumber: true,
        earningsMinor: true,
        couponCode: true,
        attribution: true,
      },
    })
    .catch(asBadRequest);
  const tags = SUB_ID_NAMES.flatMap((name, n) => (subIds[n] ? [`${name} ${subIds[n]}`] : []));
  const source = [
    ...(link ? [`link ${link.urlCode}`] : []),
    // What the code made of the order: a link's alone says nothing new.
    ...(order.couponCode ? [`code ${order.couponCode}`] : []),
    ...(order.couponCode && order.attribution ? [`by ${order.attribution}`] : []),
    ...tags,
  ].join(', ');
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
 * A payout of the user's available money in the currency given, or the one with the most payable
 * lines, scheduled as the back office does (docs/operating.md, "Payouts"): the payout, then its items (the payable orders, and
 * the entries neither held nor in a payout, clawbacks included), in one transaction; only when it
 * pays more than nothing, and at least the minimum of the user's payout terms.
 */
async function schedulePayout({
  affiliateId,
  currency: asked,
}: TriggerRequest): Promise<Triggered> {
  const reference = `TRIG-PAYOUT-${randomBytes(4).toString('hex').toUpperCase()}`;
  const terms = await termsByCurrency(affiliateId);
  const payout = await prisma
    .$transaction(async (tx) => {
      const [available] = await tx.$queryRaw<
        { currency: string; amountMinor: number; since: Date }[]
      >`
        SELECT "currency", sum("amountMinor")::int AS "amountMinor", min("at") AS "since" FROM (
          SELECT o."currency", o."earningsMinor" AS "amountMinor", o."orderedAt" AS "at"
          FROM "Order" o
          WHERE o."affiliateId" = ${affiliateId}::uuid AND order_is_payable(o)
            AND NOT EXISTS (SELECT 1 FROM "PayoutItem" i WHERE i."heldOrderId" = o."id")
          UNION ALL
          SELECT e."currency", e."amountMinor", e."earnedAt" FROM "Earning" e
          WHERE e."affiliateId" = ${affiliateId}::uuid AND e."heldReason" IS NULL
            AND NOT EXISTS (SELECT 1 FROM "PayoutItem" i WHERE i."heldEarningId" = e."id")
        ) payable
        WHERE ${asked}::text IS NULL OR "currency" = ${asked}
        GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`;
      if (!available) {
        throw new BadRequestError(
          `payout.scheduled pays available money, and you have none${asked ? ` in ${asked}` : ''}: approve an order (order.status_changed), then lock it (order.locked)`,
        );
      }
      const { currency, amountMinor } = available;
      if (amountMinor <= 0) {
        throw new BadRequestError(
          `payout.scheduled pays available money, and yours is ${money(amountMinor, currency)} after clawbacks and debits: later earnings fill it first`,
        );
      }
      const minimum = terms.get(currency)?.minimumMinor ?? 0;
      if (amountMinor < minimum) {
        throw new BadRequestError(
          `payout.scheduled: your available ${money(amountMinor, currency)} is below the minimum payout of ${money(minimum, currency)}; it carries forward until it reaches it`,
        );
      }
      const [made] = await tx.$queryRaw<{ id: string }[]>`
        INSERT INTO "Payout" ("affiliateId", "currency", "amountMinor", "periodStart", "periodEnd",
          "method", "reference")
        VALUES (${affiliateId}::uuid, ${currency}, ${amountMinor},
          date_trunc('day', ${available.since}::timestamp), now(), 'BANK_TRANSFER', ${reference})
        RETURNING "id"::text`;
      const payoutId = made!.id;
      await tx.$executeRaw`
        INSERT INTO "PayoutItem" ("payoutId", "orderId", "amountMinor")
        SELECT ${payoutId}::uuid, o."id", o."earningsMinor" FROM "Order" o
        WHERE o."affiliateId" = ${affiliateId}::uuid AND o."currency" = ${currency}
          AND order_is_payable(o)
          AND NOT EXISTS (SELECT 1 FROM "PayoutItem" i WHERE i."heldOrderId" = o."id")`;
      await tx.$executeRaw`
        INSERT INTO "PayoutItem" ("payoutId", "earningId", "amountMinor")
        SELECT ${payoutId}::uuid, e."id", e."amountMinor" FROM "Earning" e
        WHERE e."affiliateId" = ${affiliateId}::uuid AND e."currency" = ${currency}
          AND e."heldReason" IS NULL
          AND NOT EXISTS (SELECT 1 FROM "PayoutItem" i WHERE i."heldEarningId" = e."id")`;
      return { id: payoutId, currency, amountMinor };
    })
    .catch(asBadRequest);
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

/** An order of the user's, by id, or not found. */
async function ownOrder<S extends Prisma.OrderSelect>(
  affiliateId: string,
  orderId: string,
  select: S,
) {
  const order = isUuid(orderId)
    ? await prisma.order.findFirst({ where: { id: orderId, affiliateId }, select })
    : null;
  if (!order) throw notFound('Order', orderId);
  return order;
}

/** The order named, or the user's newest that matches; `none` says why there is none. */
async function namedOrNewest(
  { affiliateId, orderId }: TriggerRequest,
  where: Prisma.OrderWhereInput,
  none: string,
) {
  const select = { id: true, orderNumber: true, heldReason: true } as const;
  if (orderId !== null) return ownOrder(affiliateId, orderId, select);
  const order = await prisma.order.findFirst({
    where: { affiliateId, ...where },
    orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
    select,
  });
  if (!order) throw new BadRequestError(none);
  return order;
}

/** Holds an order for review (or the reason given), as the network does: its money is held. */
async function holdOrder(request: TriggerRequest): Promise<Triggered> {
  const order = await namedOrNewest(
    request,
    {
      status: { in: ['PENDING', 'APPROVED'] },
      heldReason: null,
      payoutItems: { none: { heldOrderId: { not: null } } },
    },
    'order.held holds a pending or approved order in no payout, and you have none: trigger order.created first',
  );
  const heldReason = request.holdReason ?? 'REVIEW';
  await prisma.order
    .update({
      where: { id: order.id },
      data: { heldReason, heldNote: request.note ?? 'held with npm run trigger' },
      select: { id: true },
    })
    .catch(asBadRequest);
  return {
    orderId: order.id,
    summary: `order ${order.orderNumber} held, ${heldReason} (id ${order.id})`,
  };
}

async function releaseOrder(request: TriggerRequest): Promise<Triggered> {
  const order = await namedOrNewest(
    request,
    { heldReason: { not: null } },
    'order.released releases a held order, and you have none: trigger order.held first',
  );
  if (order.heldReason === null) {
    throw new BadRequestError(`Order ${order.orderNumber} is not held`);
  }
  await prisma.order
    .update({ where: { id: order.id }, data: { heldReason: null }, select: { id: true } })
    .catch(asBadRequest);
  return { orderId: order.id, summary: `order ${order.orderNumber} released (id ${order.id})` };
}

/** An amount given in major units as minor units of `currency`, or 400 when it has more decimals. */
function minorOf(amount: number, currency: string): number {
  const minor = toMinor(amount, currency);
  if (fromMinor(minor, currency) !== amount) {
    throw new BadRequestError(
      `amount ${amount} has more decimals than ${currency} has (${exponentOf(currency)})`,
    );
  }
  return minor;
}

/**
 * A return after payment, as the back office writes it: a CLAWBACK entry taking back what is left
 * of a paid order's earnings (or the amount given) from the next payout.
 */
async function clawBack(request: TriggerRequest): Promise<Triggered> {
  const order = await namedOrNewest(
    request,
    { status: 'PAID' },
    'order.clawback takes back from a paid order, and you have none: trigger payout.scheduled and payout.paid first',
  );
  const paid = await prisma.order.findUniqueOrThrow({
    where: { id: order.id },
    select: { currency: true, earningsMinor: true, clawbacks: { select: { amountMinor: true } } },
  });
  const left =
    paid.earningsMinor + paid.clawbacks.reduce((sum, entry) => sum + entry.amountMinor, 0);
  const amountMinor =
    request.amount === null ? -left : -Math.abs(minorOf(request.amount, paid.currency));
  if (amountMinor === 0) {
    throw new BadRequestError(`Order ${order.orderNumber}'s earnings were all taken back already`);
  }
  const entry = await prisma.earning
    .create({
      data: {
        affiliateId: request.affiliateId,
        kind: 'CLAWBACK',
        currency: paid.currency,
        amountMinor,
        reason: request.note ?? 'returned after payment (npm run trigger)',
        orderId: order.id,
      },
      select: { id: true },
    })
    .catch(asBadRequest);
  return {
    orderId: order.id,
    summary: `order ${order.orderNumber}: ${money(amountMinor, paid.currency)} clawed back (entry ${entry.id})`,
  };
}

/** A ledger entry of the network's: a BONUS of 10 in the newest order's currency by default. */
async function writeEntry(request: TriggerRequest): Promise<Triggered> {
  const kind = request.kind ?? 'BONUS';
  if (kind === 'CLAWBACK' || kind === 'ORDER') {
    throw new BadRequestError(
      kind === 'ORDER'
        ? "An order's earnings come with the order: trigger order.created"
        : 'A clawback takes back from a paid order: trigger order.clawback',
    );
  }
  const newest = await prisma.order.findFirst({
    where: { affiliateId: request.affiliateId },
    orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
    select: { currency: true },
  });
  const currency = request.currency ?? newest?.currency ?? 'EUR';
  if (!/^[A-Z]{3}$/.test(currency)) {
    throw new BadRequestError('currency must be an ISO 4217 code: three capital letters (EUR)');
  }
  const magnitude = Math.abs(minorOf(request.amount ?? 10, currency));
  const amountMinor = kind === 'DEBIT' ? -magnitude : magnitude;
  const entry = await prisma.earning
    .create({
      data: {
        affiliateId: request.affiliateId,
        kind,
        currency,
        amountMinor,
        reason: request.note ?? `${kind.toLowerCase()} written with npm run trigger`,
      },
      select: { id: true },
    })
    .catch(asBadRequest);
  return {
    orderId: null,
    summary: `${kind} of ${money(amountMinor, currency)} written (entry ${entry.id})`,
  };
}

export const CAUSES: Record<TriggerEventType, Cause> = {
  'order.created': recordOrder,
  'order.status_changed': changeOrderStatus,
  'order.adjusted': adjustOrder,
  'order.locked': lockOrder,
  'order.held': holdOrder,
  'order.released': releaseOrder,
  'order.clawback': clawBack,
  'earning.created': writeEntry,
  'payout.scheduled': schedulePayout,
  'payout.processing': payoutStep('payout.processing'),
  'payout.paid': payoutStep('payout.paid'),
  'payout.failed': payoutStep('payout.failed'),
  'payout.cancelled': payoutStep('payout.cancelled'),
};
