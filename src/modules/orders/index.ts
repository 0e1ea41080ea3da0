// The affiliate's orders: their commission, status, items and sub-IDs, the incremental sync, their
// lifecycle (reasons, original amounts, lock dates) and history, the change feed, and the lock pass.
import type { FeatureModule } from '../feature';
import './history';
import { orderLockWorker } from './lifecycle';
import { ORDER_ROUTE } from './routes';
import './schema';

export const orders: FeatureModule = {
  name: 'orders',
  routes: [
    { method: 'GET', path: '/affiliate/orders', field: 'Query.affiliateOrders' },
    ORDER_ROUTE,
    {
      method: 'GET',
      path: '/affiliate/orders/:orderId/events',
      field: 'Query.affiliateOrderHistory',
    },
    { method: 'GET', path: '/affiliate/order-events', field: 'Query.affiliateOrderEvents' },
  ],
  workers: [orderLockWorker],
};
