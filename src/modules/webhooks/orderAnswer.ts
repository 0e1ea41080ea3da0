// An order exactly as `GET /affiliate/orders/{orderId}` answers it, for order webhooks: the route's
// own operation, run by the facade as a request's is, for the service reading on the order's
// affiliate's behalf with orders:read alone.
import type { RouteRunner } from '../../rest/facade';
import { ORDER_ROUTE } from '../orders/routes';
import type { OrderAnswer } from './payload';

/** The route's `data` for the order of `affiliateId`; throws the route's error (NOT_FOUND) otherwise. */
export function orderAnswerOf(runRoute: RouteRunner): OrderAnswer {
  return async (orderId, affiliateId) => {
    const identity = {
      service: 'webhooks',
      affiliateId,
      scopes: new Set(['orders:read'] as const),
    };
    const answer = (await runRoute(ORDER_ROUTE, identity, { orderId })) as { data: unknown };
    return answer.data;
  };
}
