// The scale seed: a large, realistic affiliate network generated inside PostgreSQL (npm run
// seed:scale). 20,000 brands with 50 campaigns and 50 products each, 1,000 affiliates, 2,000,000
// orders and 1,000,000 short URLs, and a year of the big account's clicks per link and hour. The demo affiliate is the big account: 3,000 brand relations,
// 500,000 orders and 100,000 short URLs, so the demo keys reach the same routes on both data sets.
// Deterministic: every row is a function of its ordinal and of the anchor day (the first run's
// day, UTC), so campaign statuses are a realistic mix against the current date.
import { DEMO } from '../demo';
import {
  apiKeyStep,
  channelsStep,
  enrollmentsStep,
  relationsStep,
  SMALL_AFFILIATE_KEY,
  usersStep,
} from './affiliates';
import { isPending, readProgress, type Step } from './batches';
import { brandsStep } from './brands';
import { campaignsStep, personalCouponCodesStep } from './campaigns';
import { clickHistoryStep } from './clicks';
import { restoreIndexes, suspendIndexes } from './indexes';
import { orderEventsStep } from './orderEvents';
import { ordersStep } from './orders';
import { ledgerStep, payoutsStep } from './payouts';
import { KEY_ACCOUNT } from './plan';
import { productsStep, productVariantsStep } from './products';
import { runSteps, type StepReport, type WithConnection } from './runner';
import { shortUrlsStep } from './shortUrls';
import { scaleId, timestamp, type Sql } from './sql';

export { SIZES } from './plan';

/** The identities a benchmark needs at scale, besides the demo ones (DEMO). */
export const SCALE = {
  users: {
    /** The big account: the demo affiliate, with the demo keys. */
    bigAffiliate: DEMO.users.affiliate,
    /** A small affiliate (1,269 orders, 20 brands, ~900 short URLs) with a key of its own. */
    smallAffiliate: scaleId('affiliate', KEY_ACCOUNT),
  },
  keys: { smallAffiliate: SMALL_AFFILIATE_KEY },
} as const;

/** Every table the scale seed writes, for the final counts. */
export const SCALE_TABLES = [
  'User',
  'ApiKey',
  'Organization',
  'AffiliateBrand',
  'Channel',
  'BrandChannelEnrollment',
  'Campaign',
  'PersonalCouponCode',
  'Product',
  'ProductVariant',
  'ShortUrl',
  'Order',
  'OrderItem',
  'OrderEvent',
  'OrderEventCounter',
  'Payout',
  'PayoutItem',
  'Earning',
  'EarningBalance',
  'LinkClickHour',
  'AffiliateClickHour',
  'OrderLinkHour',
  'OrderAffiliateHour',
  'LinkSubIdClickHour',
  'AffiliateSubIdClickHour',
  'OrderLinkSubIdHour',
  'OrderAffiliateSubIdHour',
] as const;

/** Tables of a million rows and more: their secondary indexes are built after the load. */
const BULK_TABLES = ['Campaign', 'Product', 'ProductVariant', 'ShortUrl', 'Order', 'OrderItem'];

/** In dependency order; a step starts once the steps it runs after are complete. */
export function scaleSteps(anchor: Sql): Step[] {
  return [
    brandsStep(anchor),
    usersStep(anchor),
    channelsStep(anchor),
    relationsStep(anchor),
    enrollmentsStep(anchor),
    apiKeyStep(anchor),
    campaignsStep(anchor),
    productsStep(anchor),
    personalCouponCodesStep(anchor),
    productVariantsStep(),
    shortUrlsStep(anchor),
    ordersStep(anchor),
    payoutsStep(anchor),
    ledgerStep(anchor),
    orderEventsStep(anchor),
    clickHistoryStep(anchor),
  ];
}

export interface ScaleSeedOptions {
  /** Connections to the database to fill (withSqlConnection of src/platform/db.ts). */
  withConnection: WithConnection;
  /** Batches written at once; one per core is about right. */
  concurrency: number;
  log: (line: string) => void;
  now?: Date;
}

export interface ScaleSeedResult {
  anchor: Date;
  steps: StepReport[];
}

/**
 * Writes the scale data into a database that holds the demo data (the demo affiliate and channel
 * types must exist). Writes only the batches a previous run did not finish.
 */
export async function seedScaleData(options: ScaleSeedOptions): Promise<ScaleSeedResult> {
  const progress = await options.withConnection((connection) =>
    readProgress(connection, options.now ?? new Date()),
  );
  options.log(`anchor day ${progress.anchor.toISOString().slice(0, 10)} (UTC)`);
  const steps = scaleSteps(timestamp(progress.anchor));
  const bulkTables = steps
    .filter((step) => isPending(step, progress))
    .flatMap((step) => step.tables)
    .filter((table) => BULK_TABLES.includes(table));
  if (bulkTables.length) {
    const dropped = await options.withConnection((c) => suspendIndexes(c, bulkTables));
    if (dropped) options.log(`${dropped} secondary indexes dropped for the load, rebuilt after it`);
  }
  const reports = await runSteps(steps, progress, options);
  await options.withConnection((connection) => restoreIndexes(connection, options.log));
  return { anchor: progress.anchor, steps: reports };
}
