// The performance report's rows as the tests expect them: every field null or zero unless given.
type OrderStatus = 'PENDING' | 'APPROVED' | 'PAID' | 'REJECTED';

/** Earnings by order status, zero for the statuses not given. */
export const earningsByStatus = (by: Partial<Record<OrderStatus, number>>) => ({
  PENDING: 0,
  APPROVED: 0,
  PAID: 0,
  REJECTED: 0,
  ...by,
});

/** A report row: nulls and zeros unless given. */
export function reportRow(fields: Record<string, unknown>) {
  return {
    date: null,
    organizationId: null,
    organizationName: null,
    campaignId: null,
    campaignName: null,
    urlCode: null,
    shortUrl: null,
    couponCode: null,
    subId: null,
    currency: null,
    clicks: 0,
    repeatClicks: 0,
    botClicks: 0,
    orders: 0,
    transactionValue: 0,
    earnings: 0,
    earningsByStatus: earningsByStatus({}),
    ledger: 0,
    conversionRate: null,
    epc: null,
    ...fields,
  };
}

/**
 * The EUR row of the books link's March fixture, which the report tests and the sub-ID tests both
 * seed: 10 clicks (1 repeat), a paid order and a rejected one.
 */
export const booksEur = {
  currency: 'EUR',
  clicks: 10,
  repeatClicks: 1,
  orders: 2,
  transactionValue: 80,
  earnings: 1.5,
  earningsByStatus: earningsByStatus({ PAID: 1.5, REJECTED: 2.5 }),
  conversionRate: 0.2,
  epc: 0.15,
};
