// An order exactly as `GET /affiliate/orders/{orderId}` answers it, for callers other than the
// route (order webhooks): the route's own GraphQL document, built as Sofa builds it, run for the
// order's affiliate.
import { execute, type GraphQLSchema } from 'graphql';
import type { ApiScope } from '../auth/scopes';
import type { Context } from '../schema/context';
import type { OrderAnswer } from '../webhooks/payload';
import { routeDocument } from './sofa';

/** The root field of `GET /affiliate/orders/{orderId}`. */
const ORDER_ROUTE_FIELD = 'affiliateOrder';
const ORDER_READ: ReadonlySet<ApiScope> = new Set(['orders:read']);

/** The route's `data` for the order of `affiliateId`; throws the route's error (NOT_FOUND) otherwise. */
export function orderAnswerOf(schema: GraphQLSchema): OrderAnswer {
  const document = routeDocument(schema, ORDER_ROUTE_FIELD);
  return async (orderId, affiliateId) => {
    // What the route's resolvers see for the affiliate's own key, holding exactly orders:read.
    const contextValue: Context = {
      request: new Request('http://orders.internal/'),
      apiKey: {
        id: 'order-answer',
        type: 'affiliate',
        version: 'v2',
        ownerId: affiliateId,
        affiliateId,
        scopes: ORDER_READ,
      },
      affiliateId,
      dashboardUserId: null,
      dashboardToken: { refused: 'absent', reason: 'no x-api-token header' },
    };
    const result = await execute({ schema, document, variableValues: { orderId }, contextValue });
    if (result.errors?.length) throw result.errors[0];
    return (result.data?.[ORDER_ROUTE_FIELD] as { data: unknown }).data;
  };
}
