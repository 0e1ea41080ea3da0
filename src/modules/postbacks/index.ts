// Postbacks: an affiliate's tracker hears of each order event in its own format (a URL template
// with macros, presets for the common trackers), delivered through the outbox (src/outbox/) by a
// dispatcher of its own lane in every replica.
import { gaugeOnScrape } from '../../platform/metrics';
import type { FeatureModule } from '../feature';
import { startDeliveryDispatcher } from '../../outbox/dispatcher';
import { setPendingDeliveries } from '../../outbox/pending';
import { GRAPHIQL_TABS } from './graphiql';
import { postbackLane } from './lane';
import './schema';

// Every replica reports the same database-wide count: aggregate with max.
gaugeOnScrape(
  'postback_deliveries_pending',
  'Postback deliveries waiting to be sent: due, scheduled for a retry, or held by a paused postback or a closed account',
  (gauge) => setPendingDeliveries(gauge, 'postbackId'),
);

export const postbacks: FeatureModule = {
  name: 'postbacks',
  graphiqlTabs: GRAPHIQL_TABS,
  workers: [{ name: 'postback dispatcher', start: () => startDeliveryDispatcher(postbackLane) }],
};
