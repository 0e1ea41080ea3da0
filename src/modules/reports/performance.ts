// GET /affiliate/reports/performance: the key's affiliate's clicks, orders and earnings by day,
// brand, campaign, link, coupon code or sub-ID value, per currency, from the hourly rollups
// (./performanceRows.ts). A list like the others (`listQuery`, `meta` envelope); its rows are
// computed, not stored.
import { fromMinor, NO_CURRENCY } from '../../platform/currencies';
import { shortUrlOf } from '../links/links';
import { OTHER_SUB_ID_VALUES, SUB_ID_HISTORY_DAYS } from '../links/subIds';
import { builder, keyAuth } from '../../schema/builder';
import { listQuery } from '../../schema/lists';
import { OrderDateType } from '../orders/dates';
import {
  performancePage,
  REPORT_GROUPS,
  reportWork,
  subIdSlotOf,
  type PerformanceRecord,
  type ReportQuery,
} from './performanceRows';
import {
  earningsPerClick,
  perClick,
  reportPeriod,
  reportTimeZone,
  requireSubIdHistory,
} from './range';

const ReportGroupBy = builder.enumType('ReportGroupBy', {
  description:
    'What a report row adds up: a local day, a brand, a campaign, a link, a coupon code, or a value of one sub-ID (sub1 ... sub5)',
  values: REPORT_GROUPS,
});

/** A row's currency; a row without orders has none, and only zeros (counted in "no currency"). */
const currencyOf = (row: PerformanceRecord) => row.currency ?? NO_CURRENCY;

/** An amount of the row, in its currency with its decimals. */
const money = (minor: number, row: PerformanceRecord) => fromMinor(minor, currencyOf(row));

const EarningsByStatus = builder.objectRef<PerformanceRecord>('EarningsByStatus').implement({
  description: "Earnings of the row's orders by commission status, in `currency` with its decimals",
  fields: (t) => ({
    PENDING: t.float({ resolve: (row) => money(row.earningsByStatusMinor.PENDING, row) }),
    APPROVED: t.float({ resolve: (row) => money(row.earningsByStatusMinor.APPROVED, row) }),
    PAID: t.float({ resolve: (row) => money(row.earningsByStatusMinor.PAID, row) }),
    REJECTED: t.float({ resolve: (row) => money(row.earningsByStatusMinor.REJECTED, row) }),
  }),
});

/** Earnings the affiliate is or will be paid: every status but REJECTED, in minor units. */
function earningsMinorOf(row: PerformanceRecord): number {
  const { PENDING, APPROVED, PAID } = row.earningsByStatusMinor;
  return PENDING + APPROVED + PAID;
}

const PerformanceRow = builder.objectRef<PerformanceRecord>('PerformanceRow').implement({
  description:
    "One row of a performance report: a key (the day, brand, campaign, link, coupon code or sub-ID value the report groups by; the other keys are null) and a currency. Clicks belong to the key, whatever the currency: each of a key's currency rows shows all of its clicks. Money in `currency`, with its decimals (ISO 4217: 0 for JPY, 2 for EUR, 3 for BHD).",
  fields: (t) => ({
    date: t.string({
      nullable: true,
      description: 'groupBy=day: the local day (YYYY-MM-DD) in `timezone`',
      resolve: (row) => row.date,
    }),
    organizationId: t.id({
      nullable: true,
      description: 'groupBy=brand: the brand',
      resolve: (row) => row.organizationId,
    }),
    organizationName: t.string({
      nullable: true,
      description: "groupBy=brand: the brand's name",
      resolve: (row) => row.organizationName,
    }),
    campaignId: t.id({
      nullable: true,
      description:
        "groupBy=campaign: the campaign orders came through (their coupon code's, else their link's) and the campaign of the clicked links (null: clicks of links to no campaign, and orders of none)",
      resolve: (row) => row.campaignId,
    }),
    campaignName: t.string({
      nullable: true,
      description: "groupBy=campaign: the campaign's name",
      resolve: (row) => row.campaignName,
    }),
    urlCode: t.string({
      nullable: true,
      description: 'groupBy=link: the short link (null: orders without a link)',
      resolve: (row) => row.urlCode,
    }),
    shortUrl: t.string({
      nullable: true,
      description: 'groupBy=link: the short URL of `urlCode`',
      resolve: (row) => (row.urlCode === null ? null : shortUrlOf(row.urlCode)),
    }),
    subId: t.string({
      nullable: true,
      description: `groupBy=sub1...sub5: the value (null: clicks and orders without one; "${OTHER_SUB_ID_VALUES}": the values of a link and hour past the ones kept, and order values that are no sub-ID)`,
      resolve: (row) => row.subId,
    }),
    currency: t.string({
      nullable: true,
      description:
        'ISO 4217 code of the money fields; null on a row without orders (a day without activity, a link with clicks only)',
      resolve: (row) => row.currency,
    }),
    clicks: t.int({
      description: 'Counted clicks on the key (one per client and link a minute; no bots)',
      resolve: (row) => row.clicks,
    }),
    repeatClicks: t.int({
      description:
        "Clicks not counted because the client's last counted click was under a minute ago, or its address's clients had reached their bound on the link for the minute",
      resolve: (row) => row.repeatClicks,
    }),
    botClicks: t.int({
      description: 'Clicks not counted because bots, crawlers or link-preview fetchers made them',
      resolve: (row) => row.botClicks,
    }),
    orders: t.int({
      description:
        'Orders in this currency, every status, whose `dateType` date lies in the period',
      resolve: (row) => row.orders,
    }),
    transactionValue: t.float({
      description: 'Value of those orders, every status',
      resolve: (row) => money(row.transactionValueMinor, row),
    }),
    earnings: t.float({
      description: 'Earnings of those orders in every status but REJECTED',
      resolve: (row) => money(earningsMinorOf(row), row),
    }),
    earningsByStatus: t.field({
      type: EarningsByStatus,
      resolve: (row) => row,
    }),
    ledger: t.float({
      description:
        'The sum of the ledger entries in this currency (bonuses, pay per click, credits, debits, clawbacks; GET /affiliate/earnings) earned in the period, by `earnedAt` whatever `dateType` (by link or sub-ID in the row of none): beside `earnings`, not in it; negative when clawbacks and debits outweigh',
      resolve: (row) => money(row.ledgerMinor, row),
    }),
    conversionRate: t.float({
      nullable: true,
      description: 'orders / clicks, a fraction (0.05 = 5 %), 4 decimals; null without clicks',
      resolve: (row) => perClick(row.orders, row.clicks),
    }),
    epc: t.float({
      nullable: true,
      description:
        'Earnings per click in `currency`, with two decimals more than it has (4 for EUR, 2 for JPY, 5 for BHD); null without clicks',
      resolve: (row) => earningsPerClick(earningsMinorOf(row), row.clicks, currencyOf(row)),
    }),
    // Last: the CSV's earlier columns keep their places.
    couponCode: t.string({
      nullable: true,
      description:
        "groupBy=coupon: the code orders were recorded with (trimmed, upper case), and the clicks of links to its campaign (the affiliate's PersonalCoupon code, or the GenericCoupon's); null: orders without a code and other clicks",
      resolve: (row) => row.couponCode,
    }),
  }),
});

const reportArgs = builder.args((t) => ({
  groupBy: t.field({
    type: ReportGroupBy,
    required: true,
    description:
      'What a row adds up: day, brand, campaign, link, coupon code, or sub1 ... sub5 (a sub-ID value)',
  }),
  startAt: t.field({
    type: 'DateTime',
    description: `Start of the period. Default: 30 days before endAt; at most 366 days before it, and by sub-ID at most ${SUB_ID_HISTORY_DAYS} days before the current hour. Read in whole hours: an hour counts when its middle lies in [startAt, endAt)`,
  }),
  endAt: t.field({
    type: 'DateTime',
    description: 'End of the period (excluded). Default: the end of the current hour',
  }),
  dateType: t.field({
    type: OrderDateType,
    description:
      'The order date the period reads: `ordered` (`orderedAt`, the default), `updated` (`updatedAt`) or `locked` (`locksAt`). Clicks are counted by the time they were made',
  }),
  organizationId: t.field({ type: 'UUID', description: 'One brand' }),
  campaignId: t.field({
    type: 'UUID',
    description:
      'One campaign (the orders that came through it, by its code or its links, and the clicks of its links)',
  }),
  timezone: t.string({
    description:
      'IANA time zone name for day boundaries (Europe/Berlin). Default UTC. Zones whose offset is not whole hours: see the document',
  }),
}));

listQuery('affiliatePerformanceReport', {
  item: PerformanceRow,
  envelope: 'meta',
  type: 'PerformanceReportPage',
  description:
    "GET /affiliate/reports/performance: the key's affiliate's clicks, orders and earnings by day, brand, campaign, link, coupon code or sub-ID value, one row per key and currency, busiest first (days in order, every day of the period, also without activity). `Accept: text/csv` answers the rows as CSV",
  auth: keyAuth('affiliate', 'reports:read'),
  page: { defaultLimit: 31, maxLimit: 366, aboveMax: 'clamp' },
  args: reportArgs,
  rows: { page: performancePage },
  // The report orders its rows itself (performanceRows.ts).
  order: [],
  work: (args) => reportWork(args),
  where: (args, { affiliateId }): ReportQuery => {
    const now = new Date();
    const period = reportPeriod(args.startAt, args.endAt, now);
    if (subIdSlotOf(args.groupBy) !== null) requireSubIdHistory(period, now);
    return {
      affiliateId,
      groupBy: args.groupBy,
      dateType: args.dateType ?? 'ordered',
      period,
      timezone: reportTimeZone(args.timezone),
      organizationId: args.organizationId,
      campaignId: args.campaignId,
    };
  },
});
