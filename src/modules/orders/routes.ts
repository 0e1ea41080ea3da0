import type { RestRoute } from '../../rest/routes';

/** One order as its route answers it: webhooks send the same body. */
export const ORDER_ROUTE: RestRoute = {
  method: 'GET',
  path: '/affiliate/orders/:orderId',
  field: 'Query.affiliateOrder',
};
