// The affiliate's payouts: what the network pays or paid, when, how, for which period. Only the
// key's affiliate's payouts exist for a request; another affiliate's payout is not found.
import type { InputShapeFromFields } from '@pothos/core';
import { PayoutStatus, type Prisma } from '../../generated/prisma/client';
import { prisma } from '../../platform/db';
import { BadRequestError } from '../../platform/errors';
import { builder, keyAuth } from '../../schema/builder';
import { itemQuery, listQuery } from '../../schema/lists';
import { fromMinor } from '../../platform/currencies';

builder.enumType(PayoutStatus, {
  name: 'PayoutStatus',
  description:
    'SCHEDULED (to be paid), PROCESSING (being paid), PAID (its orders are PAID), FAILED or CANCELLED (its orders are free for another payout)',
});

/** An ISO 4217 code as the API writes it, or 400. */
export function currencyFilter(currency: string): string {
  if (!/^[A-Z]{3}$/.test(currency)) {
    throw new BadRequestError('currency must be an ISO 4217 code: three capital letters (EUR)');
  }
  return currency;
}

export const Payout = builder.prismaObject('Payout', {
  description:
    "A payment to the affiliate of its orders' earnings and ledger entries; money in `currency`, with its decimals",
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.expose('status', { type: PayoutStatus }),
    currency: t.exposeString('currency', { description: 'ISO 4217 code' }),
    amount: t.float({
      description:
        "The sum of its items: the orders' earnings and the entries' amounts it pays (never below zero)",
      resolve: (payout) => fromMinor(payout.amountMinor, payout.currency),
    }),
    orders: t.exposeInt('itemCount', {
      description: 'Its items: the orders and ledger entries it pays',
    }),
    periodStart: t.expose('periodStart', {
      type: 'DateTime',
      description: 'Start of the period it covers (included)',
    }),
    periodEnd: t.expose('periodEnd', {
      type: 'DateTime',
      description: 'End of the period it covers (excluded)',
    }),
    scheduledAt: t.expose('scheduledAt', { type: 'DateTime' }),
    initiatedAt: t.expose('initiatedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When its payment started (it became PROCESSING); null before, or not recorded',
    }),
    paidAt: t.expose('paidAt', { type: 'DateTime', nullable: true, description: 'Set once PAID' }),
    failureReason: t.exposeString('failureReason', {
      nullable: true,
      description: 'Why the payment failed, in words (set with FAILED); null otherwise',
    }),
    method: t.exposeString('method', {
      nullable: true,
      description: 'How it is paid (BANK_TRANSFER, PAYPAL ...), as the network names it',
    }),
    reference: t.exposeString('reference', {
      nullable: true,
      description: "The payment's reference (a bank transfer's, an invoice number)",
    }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'Its last change' }),
  }),
});

const payoutFilterArgs = builder.args((t) => ({
  status: t.field({ type: [PayoutStatus], description: 'Payouts in any of these statuses' }),
  currency: t.string({ description: 'Payouts in this currency (ISO 4217 code)' }),
  startAt: t.field({
    type: 'DateTime',
    description: 'Payouts whose period ends after this time',
  }),
  endAt: t.field({
    type: 'DateTime',
    description: 'Payouts whose period starts before this time',
  }),
}));

/** The affiliate's payouts matching the filter; every filter narrows the list (AND). */
function affiliatePayoutWhere(
  affiliateId: string,
  filter: InputShapeFromFields<typeof payoutFilterArgs>,
): Prisma.PayoutWhereInput {
  if (filter.startAt && filter.endAt && filter.startAt >= filter.endAt) {
    throw new BadRequestError('startAt must be before endAt');
  }
  const where: Prisma.PayoutWhereInput = { affiliateId };
  if (filter.status?.length) where.status = { in: filter.status };
  if (filter.currency != null) where.currency = currencyFilter(filter.currency);
  if (filter.startAt) where.periodEnd = { gt: filter.startAt };
  if (filter.endAt) where.periodStart = { lt: filter.endAt };
  return where;
}

listQuery('affiliatePayouts', {
  item: Payout,
  envelope: 'meta',
  type: 'AffiliatePayoutPage',
  description:
    "GET /affiliate/payouts: the key's affiliate's payouts, newest first (by scheduledAt)",
  auth: keyAuth('affiliate', 'payouts:read'),
  page: { defaultLimit: 10, maxLimit: 100, aboveMax: 'clamp' },
  args: payoutFilterArgs,
  rows: prisma.payout,
  order: [{ scheduledAt: 'desc' }, { id: 'desc' }],
  where: (filter, { affiliateId }) => affiliatePayoutWhere(affiliateId, filter),
});

itemQuery('affiliatePayout', {
  item: Payout,
  type: 'AffiliatePayoutResult',
  description: "GET /affiliate/payouts/{payoutId}: one of the key's affiliate's payouts",
  auth: keyAuth('affiliate', 'payouts:read'),
  idArg: 'payoutId',
  what: 'Payout',
  rows: prisma.payout,
  where: (id, { affiliateId }) => ({ id, affiliateId }),
});
