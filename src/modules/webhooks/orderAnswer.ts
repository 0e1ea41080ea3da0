// An order exactly as `GET /affiliate/orders/{orderId}` answers it, for callers other than the
// route (order webhooks): the route's own operation (from the one Sofa), run with the context an
// affiliate key holding exactly orders:read would have.
import { execute, type GraphQLSchema } from 'graphql';
import type { VerifiedKey } from '../../auth/verifyApiKey';
import { contextFor, NO_DASHBOARD_TOKEN } from '../../schema/context';
import type { OrderAnswer } from './payload';
import { ROUTES } from '../../rest/routes';
import { sofaOf } from '../../rest/sofa';

const ORDER_ROUTE = ROUTES.find((route) => route.path === '/affiliate/orders/:orderId')!;
const ORDER_ROUTE_FIELD = ORDER_ROUTE.field.split('.')[1]!;

/**
 * Who reads an order for its webhook: the service itself, for the order's affiliate, allowed what
 * a key of that affiliate with orders:read alone is allowed.
 */
function orderReaderFor(affiliateId: string): VerifiedKey {
  return {
    id: `webhooks:${affiliateId}`,
    type: 'affiliate',
    version: 'v2',
    ownerId: affiliateId,
    affiliateId,
    scopes: new Set(['orders:read']),
  };
}

/** The route's `data` for the order of `affiliateId`; throws the route's error (NOT_FOUND) otherwise. */
export function orderAnswerOf(fullSchema: GraphQLSchema): OrderAnswer {
  const sofa = sofaOf(fullSchema);
  const document = sofa.operationOf(ORDER_ROUTE);
  return async (orderId, affiliateId) => {
    const contextValue = contextFor(
      { apiKey: orderReaderFor(affiliateId), dashboardToken: NO_DASHBOARD_TOKEN },
      null,
    );
    const result = await execute({
      schema: sofa.schema,
      document,
      variableValues: { orderId },
      contextValue,
    });
    if (result.errors?.length) throw result.errors[0];
    return (result.data?.[ORDER_ROUTE_FIELD] as { data: unknown }).data;
  };
}
