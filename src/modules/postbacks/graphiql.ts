// The GraphiQL tab of postbacks.
import { DEMO_USERS } from '../../auth/demoIdentities';
import { tokenPlaceholder, type GraphiqlTab } from '../../graphql/graphiql';

/** Where `npm run postback:listen` listens unless POSTBACK_LISTEN_PORT says otherwise. */
export const POSTBACK_LISTENER_URL = 'http://127.0.0.1:4002/';

/** A Keitaro postback address at the listener: its path holds a (demo) postback key. */
export const DEMO_TRACKER_BASE_URL = `${POSTBACK_LISTENER_URL}demo-key/postback`;

export const GRAPHIQL_TABS: GraphiqlTab[] = [
  {
    title: 'TrackerPostbacks',
    headers: { 'x-api-token': tokenPlaceholder(DEMO_USERS.affiliate) },
    query: `# Postbacks: an affiliate user's dashboard JWT in
# x-api-token (here Ana's). A preset fills the URL
# template from the tracker's postback address; macros
# such as {sub1}, {payout} and {status} are filled in
# for each order event (docs/postbacks.md).
#
# On this machine: start the service with
# WEBHOOK_ALLOW_PRIVATE_URLS=1, run
#   npm run postback:listen
# in a terminal, run CreatePostback, put its id in
# Variables and run SendTest: the listener prints it.

query TrackerPostbacks {
  listPostbacks { id name urlTemplate enabled failingSince disabledReason }
}

query Preset($baseUrl: String!) {
  postbackPreset(tracker: KEITARO, baseUrl: $baseUrl) {
    urlTemplate statusMap { PENDING APPROVED REJECTED PAID }
    successText source
  }
}

mutation CreatePostback($baseUrl: String!) {
  createPostback(input: {
    name: "Keitaro"
    events: ["order.created", "order.status_changed"]
    preset: { tracker: KEITARO, baseUrl: $baseUrl }
  }) { id urlTemplate hasSecret }
}

mutation SendTest($id: ID!) {
  sendTestPostback(id: $id) {
    request { method url } statusCode responseBody error delivered
  }
}

query Deliveries($id: ID!) {
  postbackDeliveries(postbackId: $id) {
    id event status state
    attempts { attemptedAt request { url } statusCode responseBody error }
  }
}
`,
    variables: {
      baseUrl: DEMO_TRACKER_BASE_URL,
      id: '<the postback id from CreatePostback>',
    },
  },
];
