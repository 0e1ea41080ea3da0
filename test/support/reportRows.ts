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
    subId: null,
    currency: null,
    clicks: 0,
    repeatClicks: 0,
    botClicks: 0,
    orders: 0,
    transactionValue: 0,
    earnings: 0,
    earningsByStatus: earningsByStatus({}),
    conversionRate: null,
    epc: null,
    ...fields,
  };
}
