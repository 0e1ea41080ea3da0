// The shape of the network at scale: how many of each row, and which affiliate account relates to
// which brands and owns which channels. Accounts are numbered: account 0 is the demo affiliate
// (the user of the demo keys, so the benchmark calls the same routes on the demo data and at
// scale), accounts 1..998 are small affiliates. With the demo's second affiliate that makes 1,000.
import { DEMO } from '../demo';
import { idOf, text, type Sql } from './sql';
import { TRAVEL } from './vocabulary';

export const SIZES = {
  brands: 20_000,
  campaignsPerBrand: 50,
  productsPerBrand: 50,
  accounts: 999,
  demoAffiliateRelations: 3_000,
  smallAffiliateRelations: 20,
  demoAffiliateChannels: 6,
  orders: 2_000_000,
  demoAffiliateOrders: 500_000,
  shortUrls: 1_000_000,
  demoAffiliateShortUrls: 100_000,
} as const;

export const CAMPAIGNS = SIZES.brands * SIZES.campaignsPerBrand;
export const PRODUCTS = SIZES.brands * SIZES.productsPerBrand;
const SMALL_ACCOUNTS = SIZES.accounts - 1;

/** The small affiliate that gets an API key of its own: a median one (1,269 orders). */
export const KEY_ACCOUNT = 500;

/** The affiliate user of an account. */
export function affiliateIdOf(account: Sql): Sql {
  return `CASE WHEN (${account}) = 0 THEN ${text(DEMO.users.affiliate)}::uuid ELSE ${idOf('affiliate', account)} END`;
}

export function relationCountOf(account: Sql): Sql {
  return `CASE WHEN (${account}) = 0 THEN ${SIZES.demoAffiliateRelations} ELSE ${SIZES.smallAffiliateRelations} END`;
}

/**
 * The brand ordinal of an account's relation r. Both strides are coprime with the number of
 * brands, so an account never relates to a brand twice, and they scatter the relations over all
 * brands (visible and hidden ones, every category).
 */
export function relationBrandOf(account: Sql, relation: Sql): Sql {
  return `CASE WHEN (${account}) = 0 THEN ((${relation}) * 6007 + 11) % ${SIZES.brands}
    ELSE ((${account}) * 7919 + (${relation}) * 1009) % ${SIZES.brands} END`;
}

/**
 * A relation that pays a percentage (orders record a rate): r itself, or the next one when r's
 * brand is a travel brand (fixed fee). Both strides move the category by an odd step modulo 8 and
 * relation 0 is never a travel brand where the wrap-around lands, so the next one never is.
 */
export function percentageRelationOf(account: Sql, relation: Sql): Sql {
  return `CASE WHEN ${relationBrandOf(account, relation)} % 8 = ${TRAVEL}
    THEN ((${relation}) + 1) % ${relationCountOf(account)} ELSE (${relation}) END`;
}

/** A key for per-relation traits: unique over every account and relation. */
export function relationKeyOf(account: Sql, relation: Sql): Sql {
  return `((${account}) * ${SIZES.demoAffiliateRelations} + (${relation}))`;
}

export function channelCountOf(account: Sql): Sql {
  return `CASE WHEN (${account}) = 0 THEN ${SIZES.demoAffiliateChannels} ELSE 1 + (${account}) % 3 END`;
}

export function channelIdOf(account: Sql, channel: Sql): Sql {
  return idOf('channel', `(${account}) || ':' || (${channel})`);
}

/**
 * The account of order o: the first 500,000 are the demo affiliate's, the rest spread over the
 * small affiliates with a mild skew (the busiest small account has 15,000, the median ~1,300).
 */
export function orderAccountOf(order: Sql, share: Sql): Sql {
  return `CASE WHEN (${order}) < ${SIZES.demoAffiliateOrders} THEN 0
    ELSE 1 + floor(${SMALL_ACCOUNTS} * power(${share}, 1.5))::int END`;
}

/** The account of short URL m and its index among that account's links. */
export function shortUrlAccountOf(link: Sql): { account: Sql; index: Sql } {
  const small = `((${link}) - ${SIZES.demoAffiliateShortUrls})`;
  const isDemo = `(${link}) < ${SIZES.demoAffiliateShortUrls}`;
  return {
    account: `CASE WHEN ${isDemo} THEN 0 ELSE 1 + ${small} % ${SMALL_ACCOUNTS} END`,
    index: `CASE WHEN ${isDemo} THEN (${link}) ELSE ${small} / ${SMALL_ACCOUNTS} END`,
  };
}
