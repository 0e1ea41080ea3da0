import type { RestRoute } from '../../rest/routes';

/** One payout as its route answers it: payout webhooks send the same body. */
export const PAYOUT_ROUTE: RestRoute = {
  method: 'GET',
  path: '/affiliate/payouts/:payoutId',
  field: 'Query.affiliatePayout',
};

/** One ledger entry as its route answers it: `earning.created` webhooks send the same body. */
export const EARNING_ROUTE: RestRoute = {
  method: 'GET',
  path: '/affiliate/earnings/:earningId',
  field: 'Query.affiliateEarning',
};
