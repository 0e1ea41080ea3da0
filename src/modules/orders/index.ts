// The affiliate's orders: their commission, status, items and sub-IDs, and the incremental sync.
import type { FeatureModule } from '../feature';
import { ORDER_ROUTE } from './routes';
import './schema';

export const orders: FeatureModule = {
  name: 'orders',
  routes: [
    { method: 'GET', path: '/affiliate/orders', field: 'Query.affiliateOrders' },
    ORDER_ROUTE,
  ],
};
