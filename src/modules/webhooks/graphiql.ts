// The GraphiQL tab of order webhooks.
import { DEMO_USERS } from '../../auth/demoIdentities';
import { tokenPlaceholder, type GraphiqlTab } from '../../graphql/graphiql';

/** Where `npm run webhook:listen` listens unless WEBHOOK_LISTEN_PORT says otherwise. */
export const WEBHOOK_LISTENER_URL = 'http://127.0.0.1:4001/webhooks';

export const GRAPHIQL_TABS: GraphiqlTab[] = [
  {
    title: 'OrderWebhooks',
    headers: { 'x-api-token': tokenPlaceholder(DEMO_USERS.affiliate) },
    query: `# Order webhooks: an affiliate user's dashboard JWT in
# x-api-token (here Ana's). The signing secret (whsec_...)
# is answered once, by create and rotate.
#
# On this machine (docs/webhooks.md): start the service
# with WEBHOOK_ALLOW_PRIVATE_URLS=1, run CreateWebhook, run
#   WEBHOOK_SECRET=<its secret> npm run webhook:listen
# in a terminal, put the endpoint's id in Variables and run
# SendTest: the listener prints the event.

query OrderWebhooks {
  listWebhookEndpoints { id url events enabled failingSince disabledReason }
}

mutation CreateWebhook($url: String!) {
  createWebhookEndpoint(
    input: { url: $url, events: ["order.created", "order.status_changed"] }
  ) { secret endpoint { id url events } }
}

mutation SendTest($id: ID!) {
  sendTestWebhook(endpointId: $id) { id webhookId state }
}

query Deliveries($id: ID!) {
  webhookDeliveries(endpointId: $id) {
    webhookId eventType state attemptCount
    attempts { attemptedAt statusCode durationMs error }
  }
}
`,
    variables: {
      url: WEBHOOK_LISTENER_URL,
      id: '<the endpoint id from CreateWebhook>',
    },
  },
];
