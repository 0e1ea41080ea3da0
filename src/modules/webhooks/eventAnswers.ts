// What an event carries exactly as its route answers it: an order as `GET /affiliate/orders/{orderId}`,
// a payout as `GET /affiliate/payouts/{payoutId}`, a ledger entry as
// `GET /affiliate/earnings/{earningId}`. The route's own operation, run by the facade as a request's
// is, for the service reading on the affiliate's behalf with the route's read scope alone.
import type { AffiliateScope } from '../../auth/scopes';
import type { RouteRunner } from '../../rest/facade';
import type { RestRoute } from '../../rest/routes';
import { ORDER_ROUTE } from '../orders/routes';
import { EARNING_ROUTE, PAYOUT_ROUTE } from '../payouts/routes';
import type { EventAnswers, RouteAnswer } from './payload';

/** The route's `data` for the row of `affiliateId`; throws the route's error (NOT_FOUND) otherwise. */
function routeAnswerOf(
  runRoute: RouteRunner,
  route: RestRoute,
  scope: AffiliateScope,
  idParam: string,
): RouteAnswer {
  return async (id, affiliateId) => {
    const identity = { service: 'webhooks', affiliateId, scopes: new Set([scope]) };
    const answer = (await runRoute(route, identity, { [idParam]: id })) as { data: unknown };
    return answer.data;
  };
}

/** How webhook bodies read the orders, payouts and entries they carry. */
export function eventAnswersOf(runRoute: RouteRunner): EventAnswers {
  return {
    order: routeAnswerOf(runRoute, ORDER_ROUTE, 'orders:read', 'orderId'),
    payout: routeAnswerOf(runRoute, PAYOUT_ROUTE, 'payouts:read', 'payoutId'),
    earning: routeAnswerOf(runRoute, EARNING_ROUTE, 'payouts:read', 'earningId'),
  };
}
