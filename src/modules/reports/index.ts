// The performance report: clicks, orders and earnings by day, brand, campaign, link or sub-ID,
// read from the rollups the database keeps.
import type { FeatureModule } from '../feature';
import { GRAPHIQL_TABS } from './graphiql';
import './performance';

export const reports: FeatureModule = {
  name: 'reports',
  routes: [
    {
      method: 'GET',
      path: '/affiliate/reports/performance',
      field: 'Query.affiliatePerformanceReport',
      csv: true,
    },
  ],
  graphiqlTabs: GRAPHIQL_TABS,
};
