// The ledger's entries beside the orders: bonuses, pay per click, manual credits and debits, and
// clawbacks of paid orders, written by the network's back office in SQL (migration ledger) and paid
// through the same payouts as the orders. GET /affiliate/earnings lists the key's affiliate's,
// GET /affiliate/earnings/{earningId} answers one; another affiliate's entry is not found.
import type { InputShapeFromFields } from '@pothos/core';
import {
  BalanceState,
  EarningKind,
  PayoutStatus,
  type Prisma,
} from '../../generated/prisma/client';
import { fromMinor } from '../../platform/currencies';
import { prisma } from '../../platform/db';
import { BadRequestError } from '../../platform/errors';
import { builder, keyAuth } from '../../schema/builder';
import { dateRange } from '../../schema/filters';
import { itemQuery, listQuery } from '../../schema/lists';
import { entryBalanceStateOf, payoutHolding } from './balance';
import { HoldReasonEnum } from './holds';
import { currencyFilter } from './payouts';

/** What a line of the ledger is: an order's earnings (ORDER), or one of the entries' kinds. */
export const LEDGER_KINDS = ['ORDER', ...Object.values(EarningKind)] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const LedgerKindEnum = builder.enumType('LedgerKind', {
  values: LEDGER_KINDS,
  description:
    "What a line of the ledger pays: ORDER (an order's earnings), BONUS, CPC (pay per click) and CREDIT (added by the network), DEBIT and CLAWBACK (taken back; a CLAWBACK from a paid order)",
});

export const BalanceStateEnum = builder.enumType(BalanceState, {
  name: 'BalanceState',
  description:
    'Where money stands in the balance: PENDING, APPROVED (orders only), AVAILABLE (payable, in no payout), IN_PAYMENT, PAID, HELD (never paid while held)',
});

/** The payout holding an entry: in payment or PAID (a failed or cancelled one lets it go). */
const payoutOfEntry = payoutHolding('heldEarningId');

export const Earning = builder.prismaObject('Earning', {
  description:
    "A ledger entry beside the orders' earnings: paid through the same payouts, counted in the same balance; money in `currency`, with its decimals (docs/payouts.md)",
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.field({ type: LedgerKindEnum, resolve: (entry) => entry.kind }),
    currency: t.exposeString('currency', { description: 'ISO 4217 code' }),
    amount: t.float({
      description: 'Positive for BONUS, CPC and CREDIT; negative for DEBIT and CLAWBACK',
      resolve: (entry) => fromMinor(entry.amountMinor, entry.currency),
    }),
    reason: t.exposeString('reason', { description: "The network's words for it" }),
    organizationId: t.exposeID('organizationId', {
      nullable: true,
      description: 'The brand it concerns, if any',
    }),
    campaignId: t.exposeID('campaignId', {
      nullable: true,
      description: 'The campaign it concerns, if any',
    }),
    orderId: t.exposeID('orderId', {
      nullable: true,
      description: 'The order it concerns: the paid order a CLAWBACK takes back from',
    }),
    state: t.field({
      type: BalanceStateEnum,
      description: 'Where it stands in the balance',
      select: payoutOfEntry,
      resolve: (entry) => entryBalanceStateOf(entry, entry.payoutItems[0]?.payout.status ?? null),
    }),
    heldReason: t.expose('heldReason', {
      type: HoldReasonEnum,
      nullable: true,
      description: 'Why it is held (never paid while held); null when not held',
    }),
    heldNote: t.exposeString('heldNote', {
      nullable: true,
      description: "The network's words beside `heldReason`",
    }),
    payoutId: t.field({
      type: 'UUID',
      nullable: true,
      description: 'The payout that pays (or paid) it; null while none holds it',
      select: payoutOfEntry,
      resolve: (entry) => entry.payoutItems[0]?.payout.id ?? null,
    }),
    payoutStatus: t.field({
      type: PayoutStatus,
      nullable: true,
      description: "That payout's status",
      select: payoutOfEntry,
      resolve: (entry) => entry.payoutItems[0]?.payout.status ?? null,
    }),
    paidAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When that payout paid it; null until it is PAID',
      select: payoutOfEntry,
      resolve: (entry) => entry.payoutItems[0]?.payout.paidAt ?? null,
    }),
    earnedAt: t.expose('earnedAt', {
      type: 'DateTime',
      description: 'When it was earned: the period it belongs to',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was written' }),
  }),
});

const earningFilterArgs = builder.args((t) => ({
  kind: t.field({
    type: [LedgerKindEnum],
    description:
      'Entries of any of these kinds (ORDER lines are the orders: GET /affiliate/orders)',
  }),
  currency: t.string({ description: 'Entries in this currency (ISO 4217 code)' }),
  orderId: t.field({ type: 'UUID', description: 'Entries concerning this order (its clawbacks)' }),
  startAt: t.field({ type: 'DateTime', description: 'Entries earned at or after this time' }),
  endAt: t.field({ type: 'DateTime', description: 'Entries earned at or before this time' }),
}));

/** The affiliate's entries matching the filter; every filter narrows the list (AND). */
function affiliateEarningWhere(
  affiliateId: string,
  filter: InputShapeFromFields<typeof earningFilterArgs>,
): Prisma.EarningWhereInput {
  const where: Prisma.EarningWhereInput = { affiliateId };
  if (filter.kind?.length) {
    if (filter.kind.includes('ORDER')) {
      throw new BadRequestError(
        "kind ORDER: an order's earnings are the order itself, listed by GET /affiliate/orders",
      );
    }
    where.kind = { in: filter.kind as EarningKind[] };
  }
  if (filter.currency != null) where.currency = currencyFilter(filter.currency);
  if (filter.orderId) where.orderId = filter.orderId;
  const earnedAt = dateRange(filter.startAt, filter.endAt);
  if (earnedAt) where.earnedAt = earnedAt;
  return where;
}

listQuery('affiliateEarnings', {
  item: Earning,
  envelope: 'meta',
  type: 'AffiliateEarningPage',
  description:
    "GET /affiliate/earnings: the key's affiliate's ledger entries beside its orders (bonuses, pay per click, credits, debits, clawbacks), newest first (by earnedAt)",
  auth: keyAuth('affiliate', 'payouts:read'),
  page: { defaultLimit: 10, maxLimit: 100, aboveMax: 'clamp' },
  args: earningFilterArgs,
  rows: prisma.earning,
  order: [{ earnedAt: 'desc' }, { id: 'desc' }],
  where: (filter, { affiliateId }) => affiliateEarningWhere(affiliateId, filter),
});

itemQuery('affiliateEarning', {
  item: Earning,
  type: 'AffiliateEarningResult',
  description: "GET /affiliate/earnings/{earningId}: one of the key's affiliate's ledger entries",
  auth: keyAuth('affiliate', 'payouts:read'),
  idArg: 'earningId',
  what: 'Earning',
  rows: prisma.earning,
  where: (id, { affiliateId }) => ({ id, affiliateId }),
});
