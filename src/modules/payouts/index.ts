// Balances, the ledger and payouts: where the affiliate's earnings stand, the entries beside its
// orders (bonuses, credits, debits, clawbacks), and the payouts the network's back office makes
// (in SQL, kept consistent by the database), with the lines each pays.
import type { FeatureModule } from '../feature';
import { GRAPHIQL_TABS } from './graphiql';
import { EARNING_ROUTE, PAYOUT_ROUTE } from './routes';
import './balanceQuery';
import './payouts';
import './items';
import './earnings';

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
    { method: 'GET', path: '/affiliate/earnings', field: 'Query.affiliateEarnings' },
    EARNING_ROUTE,
  ],
  graphiqlTabs: GRAPHIQL_TABS,
};
