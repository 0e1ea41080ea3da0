// Balances and payouts: where the affiliate's earnings stand, and the payouts the network's back
// office makes (in SQL, kept consistent by the database), with the orders each pays.
import type { FeatureModule } from '../feature';
import { GRAPHIQL_TABS } from './graphiql';
import { PAYOUT_ROUTE } from './routes';
import './balanceQuery';
import './payouts';
import './items';

export const payouts: FeatureModule = {
  name: 'payouts',
  routes: [
    { method: 'GET', path: '/affiliate/balance', field: 'Query.affiliateBalance' },
    { method: 'GET', path: '/affiliate/payouts', field: 'Query.affiliatePayouts' },
    PAYOUT_ROUTE,
    {
      method: 'GET',
      path: '/affiliate/payouts/:payoutId/items',
      field: 'Query.affiliatePayoutItems',
      csv: true,
    },
  ],
  graphiqlTabs: GRAPHIQL_TABS,
};
