// GET /affiliate/balance: per currency, where the affiliate's earnings stand (pending, approved,
// available, in payment, paid) from the rollup the database keeps ("AffiliateBalance", migration
// payouts), and what payouts paid in a period. No order is read.
import { fromMinor } from '../../platform/currencies';
import { prisma } from '../../platform/db';
import { BadRequestError } from '../../platform/errors';
import { builder, keyAuth } from '../../schema/builder';
import { listQuery } from '../../schema/lists';
import type { Page } from '../../schema/pagination';
import { BALANCE_STATES } from './balance';

type BalanceStateName = (typeof BALANCE_STATES)[number];

interface Amount {
  orders: number;
  minor: number;
  /** The balance's currency, which `minor` is in. */
  currency: string;
}

export interface BalanceRecord {
  currency: string;
  states: Record<BalanceStateName, Amount>;
  paidInPeriod: { payouts: number; minor: number; currency: string };
}

interface BalanceQuery {
  affiliateId: string;
  startAt: Date;
  endAt: Date;
}

/**
 * The currencies a balance answers at most: more than any affiliate earns in, and few enough that
 * every affiliate query at full width still fits one operation's cost.
 */
export const BALANCE_CURRENCIES = 20;

/** The period "paid in period" covers: [startAt, endAt), by default the 30 days up to now. */
export function balancePeriod(startAt: Date | null | undefined, endAt: Date | null | undefined) {
  const end = endAt ?? new Date();
  const start = startAt ?? new Date(end.getTime() - 30 * 86_400_000);
  if (start >= end) throw new BadRequestError('startAt must be before endAt');
  return { startAt: start, endAt: end };
}

const noAmount = (currency: string): Amount => ({ orders: 0, minor: 0, currency });

async function balancePage(query: BalanceQuery, page: Page) {
  const [states, paid] = await Promise.all([
    prisma.affiliateBalance.findMany({ where: { affiliateId: query.affiliateId } }),
    prisma.payout.groupBy({
      by: ['currency'],
      where: {
        affiliateId: query.affiliateId,
        status: 'PAID',
        paidAt: { gte: query.startAt, lt: query.endAt },
      },
      _sum: { amountMinor: true },
      _count: { _all: true },
    }),
  ]);
  const byCurrency = new Map<string, BalanceRecord>();
  const recordOf = (currency: string) => {
    let record = byCurrency.get(currency);
    if (!record) {
      const empty = Object.fromEntries(BALANCE_STATES.map((state) => [state, noAmount(currency)]));
      record = {
        currency,
        states: empty as BalanceRecord['states'],
        paidInPeriod: { payouts: 0, minor: 0, currency },
      };
      byCurrency.set(currency, record);
    }
    return record;
  };
  for (const row of states) {
    if (row.orders === 0 && row.earningsMinor === 0n) continue;
    recordOf(row.currency).states[row.state] = {
      orders: row.orders,
      minor: Number(row.earningsMinor),
      currency: row.currency,
    };
  }
  for (const row of paid) {
    recordOf(row.currency).paidInPeriod = {
      payouts: row._count._all,
      minor: Number(row._sum.amountMinor ?? 0n),
      currency: row.currency,
    };
  }
  const rows = [...byCurrency.values()]
    .sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0))
    .slice(0, page.limit);
  return { rows, total: rows.length };
}

const BalanceAmount = builder.objectRef<Amount>('BalanceAmount').implement({
  description:
    "Earnings of some orders, in the balance's currency with its decimals, and how many orders",
  fields: (t) => ({
    amount: t.float({ resolve: (amount) => fromMinor(amount.minor, amount.currency) }),
    orders: t.int({ resolve: (amount) => amount.orders }),
  }),
});

const PaidInPeriod = builder
  .objectRef<BalanceRecord['paidInPeriod']>('BalancePaidInPeriod')
  .implement({
    description:
      "What payouts paid in the period (by `paidAt`), in the balance's currency with its decimals",
    fields: (t) => ({
      amount: t.float({ resolve: (paid) => fromMinor(paid.minor, paid.currency) }),
      payouts: t.int({ resolve: (paid) => paid.payouts }),
    }),
  });

const state = (name: BalanceStateName, description: string) => ({
  type: BalanceAmount,
  description,
  resolve: (record: BalanceRecord) => record.states[name],
});

const Balance = builder.objectRef<BalanceRecord>('Balance').implement({
  description:
    "The affiliate's earnings in one currency by where they stand; every order but REJECTED ones is in exactly one of pending, approved, available, inPayment and paid (docs/payouts.md)",
  fields: (t) => ({
    currency: t.string({ description: 'ISO 4217 code', resolve: (record) => record.currency }),
    pending: t.field(state('PENDING', 'Orders not approved yet (PENDING)')),
    approved: t.field(state('APPROVED', 'Approved orders not payable yet')),
    available: t.field(state('AVAILABLE', 'Payable orders in no payout')),
    inPayment: t.field(state('IN_PAYMENT', 'Orders in a SCHEDULED or PROCESSING payout')),
    paid: t.field(state('PAID', 'PAID orders, all time')),
    paidInPeriod: t.field({
      type: PaidInPeriod,
      description: 'Payouts PAID in the period of `startAt` and `endAt`',
      resolve: (record) => record.paidInPeriod,
    }),
  }),
});

listQuery('affiliateBalance', {
  item: Balance,
  envelope: 'count',
  type: 'AffiliateBalanceList',
  description: `GET /affiliate/balance: the key's affiliate's balance, one row per currency it has earnings or payouts in, by currency code (at most ${BALANCE_CURRENCIES}); count = number returned`,
  auth: keyAuth('affiliate', 'payouts:read'),
  page: { fixed: BALANCE_CURRENCIES },
  args: builder.args((t) => ({
    startAt: t.field({
      type: 'DateTime',
      description:
        'Start of the period of `paidInPeriod` (included). Default: 30 days before endAt',
    }),
    endAt: t.field({
      type: 'DateTime',
      description: 'End of the period of `paidInPeriod` (excluded). Default: now',
    }),
  })),
  rows: { page: balancePage },
  order: [],
  where: (args, { affiliateId }): BalanceQuery => ({
    affiliateId,
    ...balancePeriod(args.startAt, args.endAt),
  }),
});
