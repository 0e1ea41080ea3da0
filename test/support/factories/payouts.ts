// Payouts as the network's back office makes them: in SQL, the payout and then its items, in one
// transaction (docs/operating.md).
import {
  Prisma,
  type EarningKind,
  type HoldReason,
  type PayoutStatus,
} from '../../../src/generated/prisma/client';
import { prisma } from '../../../src/platform/db';
import { createOrder } from './commerce';

export interface PayoutInput {
  currency?: string;
  status?: 'SCHEDULED' | 'PROCESSING';
  periodStart?: Date;
  periodEnd?: Date;
  scheduledAt?: Date;
  method?: string | null;
  reference?: string | null;
  /** Ledger entries it pays beside the orders. */
  entryIds?: readonly string[];
  /** Default: the sum of the orders' earnings and the entries' amounts. */
  amountMinor?: number;
}

const uuids = (ids: readonly string[]) => Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`));

/** A payout of `orderIds` and `input.entryIds` (each item paying its line's amount); answers its id. */
export async function createPayout(
  affiliateId: string,
  orderIds: readonly string[],
  input: PayoutInput = {},
): Promise<string> {
  const entryIds = input.entryIds ?? [];
  const orders = orderIds.length
    ? await prisma.order.findMany({ where: { id: { in: [...orderIds] } } })
    : [];
  const entries = entryIds.length
    ? await prisma.earning.findMany({ where: { id: { in: [...entryIds] } } })
    : [];
  const amount =
    input.amountMinor ??
    orders.reduce((sum, order) => sum + order.earningsMinor, 0) +
      entries.reduce((sum, entry) => sum + entry.amountMinor, 0);
  const periodStart = input.periodStart ?? new Date('2026-01-01T00:00:00Z');
  const periodEnd = input.periodEnd ?? new Date('2026-02-01T00:00:00Z');
  return prisma.$transaction(async (tx) => {
    const [payout] = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO "Payout" ("affiliateId", "currency", "amountMinor", "status", "periodStart",
        "periodEnd", "scheduledAt", "method", "reference")
      VALUES (${affiliateId}::uuid, ${input.currency ?? 'EUR'}, ${amount},
        ${input.status ?? 'SCHEDULED'}::"PayoutStatus", ${periodStart}, ${periodEnd},
        ${input.scheduledAt ?? new Date()}, ${input.method ?? 'BANK_TRANSFER'},
        ${input.reference === undefined ? 'REF-1' : input.reference})
      RETURNING "id"::text`;
    if (orderIds.length) {
      await tx.$executeRaw`
        INSERT INTO "PayoutItem" ("payoutId", "orderId", "amountMinor")
        SELECT ${payout!.id}::uuid, o."id", o."earningsMinor" FROM "Order" o
        WHERE o."id" IN (${uuids(orderIds)})`;
    }
    if (entryIds.length) {
      await tx.$executeRaw`
        INSERT INTO "PayoutItem" ("payoutId", "earningId", "amountMinor")
        SELECT ${payout!.id}::uuid, e."id", e."amountMinor" FROM "Earning" e
        WHERE e."id" IN (${uuids(entryIds)})`;
    }
    return payout!.id;
  });
}

/** Moves a payout to `status`, as the back office does. */
export async function setPayoutStatus(payoutId: string, status: PayoutStatus): Promise<void> {
  // A failure says why, as the database asks.
  const reason = status === 'FAILED' ? 'the bank refused the transfer' : null;
  await prisma.$executeRaw`UPDATE "Payout" SET "status" = ${status}::"PayoutStatus",
    "failureReason" = coalesce(${reason}, "failureReason") WHERE "id" = ${payoutId}::uuid`;
}

/**
 * Locks orders as the lock pass does once their lock date passes (the test brands' lock dates are
 * a century off): only locked orders are payable.
 */
export async function lockOrders(orderIds: readonly string[]): Promise<void> {
  if (orderIds.length === 0) return;
  await prisma.$executeRaw`
    UPDATE "Order" SET "lockedAt" = now() AT TIME ZONE 'UTC' WHERE "id" IN (${uuids(orderIds)})`;
}

/** An approved order, locked: payable. */
export async function payableOrder(
  affiliateId: string,
  organizationId: string,
  data: Parameters<typeof createOrder>[2] = {},
) {
  const order = await createOrder(affiliateId, organizationId, { status: 'APPROVED', ...data });
  await lockOrders([order.id]);
  return order;
}

export interface EntryInput {
  kind?: EarningKind;
  currency?: string;
  /** Default: 500 (or -500 for DEBIT and CLAWBACK). */
  amountMinor?: number;
  reason?: string;
  orderId?: string | null;
  organizationId?: string | null;
  heldReason?: HoldReason | null;
  earnedAt?: Date;
}

/** A ledger entry of the affiliate's, written as the back office writes one (a BONUS by default). */
export async function createEntry(affiliateId: string, input: EntryInput = {}) {
  const kind = input.kind ?? 'BONUS';
  const negative = kind === 'DEBIT' || kind === 'CLAWBACK';
  return prisma.earning.create({
    data: {
      affiliateId,
      kind,
      currency: input.currency ?? 'EUR',
      amountMinor: input.amountMinor ?? (negative ? -500 : 500),
      reason: input.reason ?? `a ${kind.toLowerCase()} of the tests`,
      orderId: input.orderId ?? null,
      organizationId: input.organizationId ?? null,
      heldReason: input.heldReason ?? null,
      ...(input.earnedAt && { earnedAt: input.earnedAt }),
    },
  });
}
