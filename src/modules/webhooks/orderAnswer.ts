// An order exactly as `GET /affiliate/orders/{orderId}` answers it, for order webhooks, and a payout
// as `GET /affiliate/payouts/{payoutId}` does, for payout webhooks: the route's own operation, run
// by the facade as a request's is, for the service reading on the affiliate's behalf with
// orders:read or payouts:read alone.
import type { RouteRunner } from '../../rest/facade';
import { ORDER_ROUTE } from '../orders/routes';
import { PAYOUT_ROUTE } from '../payouts/routes';
import type { EventAnswers, OrderAnswer, PayoutAnswer } from './payload';

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

/** The route's `data` for the payout of `affiliateId`; throws the route's error (NOT_FOUND) otherwise. */
export function payoutAnswerOf(runRoute: RouteRunner): PayoutAnswer {
  return async (payoutId, affiliateId) => {
    const identity = {
      service: 'webhooks',
      affiliateId,
      scopes: new Set(['payouts:read'] as const),
    };
    const answer = (await runRoute(PAYOUT_ROUTE, identity, { payoutId })) as { data: unknown };
    return answer.data;
  };
}

/** How webhook bodies read the orders and payouts they carry. */
export function eventAnswersOf(runRoute: RouteRunner): EventAnswers {
  return { order: orderAnswerOf(runRoute), payout: payoutAnswerOf(runRoute) };
}
