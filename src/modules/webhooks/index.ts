// Order and payout webhooks: endpoints a dashboard user manages, fed by the outbox the database's triggers
// write, sent signed and retried by the dispatcher every replica runs.
import type { FeatureModule } from '../feature';
import { GRAPHIQL_TABS } from './graphiql';
import { webhookDocumentation } from './openapi';
import { eventAnswersOf } from './eventAnswers';
import './schema';
import { startWebhookDispatcher } from './webhookLane';

export const webhooks: FeatureModule = {
  name: 'webhooks',
  openApi: webhookDocumentation,
  graphiqlTabs: GRAPHIQL_TABS,
  workers: [
    {
      name: 'webhook dispatcher',
      start: ({ runRoute }) => startWebhookDispatcher(eventAnswersOf(runRoute)),
    },
  ],
};
