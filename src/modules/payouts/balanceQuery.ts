// GET /affiliate/balance: per currency, where the affiliate's earnings stand (pending, approved,
// available, in payment, paid, held) from the rollup the database keeps ("AffiliateBalance",
// migrations payouts and ledger), what payouts paid in a period, and what is next for the available
// money under the affiliate's payout terms. No order or entry is read.
import { fromMinor } from '../../platform/currencies';
import { prisma } from '../../platform/db';
import { BadRequestError } from '../../platform/errors';
import { builder, keyAuth } from '../../schema/builder';
import { listQuery } from '../../schema/lists';
import type { Page } from '../../schema/pagination';
import { BALANCE_STATES } from './balance';
import { outlookText, payoutOutlook, termsByCurrency, type Outlook } from './terms';

type BalanceStateName = (typeof BALANCE_STATES)[number];

interface Amount {
  orders: number;
  entries: number;
  minor: number;
  /** The balance's currency, which `minor` is in. */
  currency: string;
}

export interface BalanceRecord {
  currency: string;
  states: Record<BalanceStateName, Amount>;
  paidInPeriod: { payouts: number; minor: number; currency: string };
  outlook: Outlook | null;
}

interface BalanceQuery {
  affiliateId: string;
  startAt: Date;
  endAt: Date;
  now: Date;
}

/**
 * The currencies a balance answers at most: more than any affiliate earns in, and few enough that
 * every affiliate query at full width still fits one operation's cost.
 */
export const BALANCE_CURRENCIES = 20;

/** The period "paid in period" covers: [startAt, endAt), by default the 30 days up to now. */
function balancePeriod(startAt: Date | null | undefined, endAt: Date | null | undefined) {
  const end = endAt ?? new Date();
  const start = startAt ?? new Date(end.getTime() - 30 * 86_400_000);
  if (start >= end) throw new BadRequestError('startAt must be before endAt');
  return { startAt: start, endAt: end };
}

const noAmount = (currency: string): Amount => ({ orders: 0, entries: 0, minor: 0, currency });

async function balancePage(query: BalanceQuery, page: Page) {
  const [states, paid, terms] = await Promise.all([
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
    termsByCurrency(query.affiliateId),
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
        outlook: null,
      };
      byCurrency.set(currency, record);
    }
    return record;
  };
  for (const row of states) {
    if (row.orders === 0 && row.entries === 0 && row.earningsMinor === 0n) continue;
    recordOf(row.currency).states[row.state] = {
      orders: row.orders,
      entries: row.entries,
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
  for (const record of byCurrency.values()) {
    const currencyTerms = terms.get(record.currency);
    if (currencyTerms) {
      record.outlook = payoutOutlook(record.states.AVAILABLE.minor, currencyTerms, query.now);
    }
  }
  const rows = [...byCurrency.values()]
    .sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0))
    .slice(0, page.limit);
  return { rows, total: rows.length };
}

const BalanceAmount = builder.objectRef<Amount>('BalanceAmount').implement({
  description:
    "Earnings of some orders and ledger entries, in the balance's currency with its decimals, and how many of each",
  fields: (t) => ({
    amount: t.float({
      description: 'Negative when clawbacks and debits outweigh the rest',
      resolve: (amount) => fromMinor(amount.minor, amount.currency),
    }),
    orders: t.int({ resolve: (amount) => amount.orders }),
    entries: t.int({
      description: 'Ledger entries (GET /affiliate/earnings) counted beside the orders',
      resolve: (amount) => amount.entries,
    }),
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
    "The affiliate's earnings in one currency by where they stand; every order but REJECTED ones, and every ledger entry, is in exactly one of pending, approved, available, inPayment, paid and held (docs/payouts.md)",
  fields: (t) => ({
    currency: t.string({ description: 'ISO 4217 code', resolve: (record) => record.currency }),
    pending: t.field(state('PENDING', 'Orders not approved yet (PENDING)')),
    approved: t.field(state('APPROVED', 'Approved orders not locked yet')),
    available: t.field(
      state('AVAILABLE', 'Payable orders and entries in no payout; negative after clawbacks'),
    ),
    inPayment: t.field(
      state('IN_PAYMENT', 'Orders and entries in a SCHEDULED or PROCESSING payout'),
    ),
    paid: t.field(state('PAID', 'Orders and entries paid, all time')),
    held: t.field(
      state(
        'HELD',
        'Orders and entries held for review, a dispute or a fraud check: never paid while held',
      ),
    ),
    paidInPeriod: t.field({
      type: PaidInPeriod,
      description: 'Payouts PAID in the period of `startAt` and `endAt`',
      resolve: (record) => record.paidInPeriod,
    }),
    minimumPayout: t.float({
      nullable: true,
      description:
        'The least a payout pays in this currency: available money below it carries forward. Null without payout terms in the currency',
      resolve: (record) =>
        record.outlook && fromMinor(record.outlook.minimumMinor, record.currency),
    }),
    nextPayoutAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the next payout is made (the payout day of the terms, 00:00 UTC)',
      resolve: (record) => record.outlook?.nextPayoutAt ?? null,
    }),
    payoutNote: t.string({
      nullable: true,
      description:
        'What happens to the available money next, in words: paid on the next payout date, or below the minimum and carried forward',
      resolve: (record) => record.outlook && outlookText(record.currency, record.outlook),
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
    now: new Date(),
  }),
});
