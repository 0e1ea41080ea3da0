import type { RestRoute } from '../../rest/routes';

/** One payout as its route answers it: payout webhooks send the same body. */
export const PAYOUT_ROUTE: RestRoute = {
  method: 'GET',
  path: '/affiliate/payouts/:payoutId',
  field: 'Query.affiliatePayout',
};
