// The body of an order event: the order exactly as `GET /affiliate/orders/{orderId}` answers it
// (the route's own GraphQL document, run for the order's affiliate), the event type, the time of
// the change and, for a status change, the previous status.
import { execute, type GraphQLSchema } from 'graphql';
import type { ApiScope } from '../auth/scopes';
import { routeDocument } from '../rest/sofa';
import type { Context } from '../schema/context';
import type { WebhookBody } from './events';

/** The root field of `GET /affiliate/orders/{orderId}`. */
const ORDER_ROUTE_FIELD = 'affiliateOrder';
const ORDER_READ: ReadonlySet<ApiScope> = new Set(['orders:read']);

export interface OrderEvent {
  type: string;
  orderId: string;
  previousStatus: string | null;
  occurredAt: Date;
}

/** The order as the route answers it to an affiliate key with `orders:read`. */
export type RenderOrder = (orderId: string, affiliateId: string) => Promise<unknown>;

export function orderRenderer(schema: GraphQLSchema): RenderOrder {
  const document = routeDocument(schema, ORDER_ROUTE_FIELD);
  return async (orderId, affiliateId) => {
    // What the route's resolvers see for the affiliate's own key, holding exactly orders:read.
    const contextValue: Context = {
      request: new Request('http://webhooks.internal/'),
      apiKey: {
        id: 'webhooks',
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
    const result = await execute({
      schema,
      document,
      variableValues: { orderId },
      contextValue,
    });
    if (result.errors?.length) throw result.errors[0];
    return (result.data?.[ORDER_ROUTE_FIELD] as { data: unknown }).data;
  };
}

export function orderEventBody(event: OrderEvent, order: unknown): WebhookBody {
  return {
    type: event.type,
    timestamp: event.occurredAt.toISOString(),
    data:
      event.previousStatus === null ? { order } : { order, previousStatus: event.previousStatus },
  };
}
