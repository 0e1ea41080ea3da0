// GraphiQL at GET /graphql (development; see GRAPHIQL in src/platform/config.ts): one tab per surface with
// example operations and the header that surface takes, prefilled with the demo keys (the README's
// demo identities), which open a fresh `npm start` and nothing elsewhere; a dashboard token is a
// placeholder for `npm run token -- <userId>` of the demo user the tab's operations are for.
// GraphiQL titles a tab with the name of its first operation, so that operation is named after the
// surface. test/graphiql.test.ts runs every example.
import type { GraphiQLOptions } from 'graphql-yoga';
import { DEMO_KEYS, DEMO_USERS } from '../auth/demoIdentities';

const tokenPlaceholder = (userId: string) => `<output of: npm run token -- ${userId}>`;

/** Where `npm run webhook:listen` listens unless WEBHOOK_LISTEN_PORT says otherwise. */
export const WEBHOOK_LISTENER_URL = 'http://127.0.0.1:4001/webhooks';

export interface GraphiqlExample {
  /** The tab's title: the name of its first operation. */
  title: string;
  headers: Record<string, string>;
  query: string;
  variables?: Record<string, unknown>;
}

export const GRAPHIQL_EXAMPLES: GraphiqlExample[] = [
  {
    title: 'PartnerCatalog',
    headers: { 'x-api-key': DEMO_KEYS.partner },
    query: `# Partner catalog (GET /api/partner/*): a partner key
# in x-api-key (Headers below). Run one operation at a time
# with the play button.

query PartnerCatalog {
  partnerBrands(limit: 5) {
    data { id name slug categories isExclusive websiteUrl }
    meta { total page limit totalPages }
  }
}

query PartnerCampaigns {
  partnerCampaigns(types: [Offer, GenericCoupon], status: [onTime], limit: 5) {
    data { id name type offerType status period { startAt endAt } organization { id name } }
    meta { total page limit totalPages }
  }
}

query PartnerOrganizations {
  partnerOrganizations(search: "a", limit: 10) {
    data { id name slug logoUrl }
    meta { total page totalPages }
  }
}
`,
  },
  {
    title: 'AffiliateSurface',
    headers: { 'x-api-key': DEMO_KEYS.affiliate },
    query: `# Affiliate surface (GET /affiliate/*): an affiliate key
# in x-api-key (Headers below). Run one operation at a time
# with the play button.

query AffiliateSurface {
  affiliateCampaigns(types: [Offer], offerType: [Url], limit: 5) {
    data { id name type offerType shortUrl commission { type value } organization { name } }
    meta { total page limit totalPages }
  }
}

query AffiliateBrands {
  affiliateBrands(limit: 5) {
    data { id name isFavorite shortUrl commission { type value } channels { id name } }
    pagination { page limit total totalPages }
  }
}

query MyOrders {
  affiliateOrders(status: [APPROVED, PAID], limit: 5) {
    data { id orderNumber status currency transactionValue earnings orderedAt }
    meta { total page limit totalPages }
  }
}

query MyShortLinks {
  affiliateShortUrls(limit: 5) {
    data { urlCode shortUrl originalUrl linkType count active }
    meta { total }
  }
}

# A brand-page link (POST /affiliate/shortener/url): made
# once, the same call returns it again.
mutation LinkToBrand($organizationId: UUID!) {
  createShortUrl(organizationId: $organizationId) {
    data { urlCode shortUrl originalUrl linkType }
  }
}
`,
    variables: { organizationId: '<a brand id from AffiliateBrands>' },
  },
  {
    title: 'KeyManagement',
    headers: { 'x-api-token': tokenPlaceholder(DEMO_USERS.partner) },
    query: `# Key management: a dashboard JWT in x-api-token
# (npm run token -- <userId>). The full key (apiKey) is
# answered once, by create and rotate.

query KeyManagement {
  listApiKeys { id name type version prefix scopes createdAt lastUsedAt expiresAt revokedAt }
}

mutation CreateKey {
  createApiKey(input: { name: "CI" }) { apiKey key { id prefix scopes } }
}

mutation RotateKey($id: ID!) {
  rotateApiKey(id: $id) { apiKey key { id prefix } }
}

mutation RevokeKey($id: ID!) {
  revokeApiKey(id: $id) { id revokedAt }
}
`,
    variables: { id: '<the key id from CreateKey>' },
  },
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
  {
    title: 'SubIds',
    headers: { 'x-api-key': DEMO_KEYS.affiliate },
    query: `# Sub-IDs: tag a follow of a short link with up to five
# values, /s/{urlCode}?sub1=newsletter&sub2=hero (1-100
# visible ASCII characters each). The brand gets them in the
# target URL and reports them back on the order.

# Clicks, orders, earnings, conversion rate and EPC per sub1
# value; subId null: clicks and orders without one.
query SubIds {
  affiliatePerformanceReport(groupBy: sub1, limit: 10) {
    data { subId currency clicks orders earnings conversionRate epc }
    meta { total }
  }
}

# The orders the brand reported with a value.
query OrdersOfSub1($sub1: String!) {
  affiliateOrders(sub1: $sub1, limit: 5) {
    data { id orderNumber status earnings sub1 sub2 orderedAt }
    meta { total }
  }
}
`,
    variables: { sub1: 'newsletter' },
  },
];

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** yoga's `graphiql` option: the example tabs, the first one's headers in the header editor. */
export function graphiqlOptions(): GraphiQLOptions {
  return {
    title: 'Affiliate network API',
    defaultQuery: GRAPHIQL_EXAMPLES[0]!.query,
    // GraphiQL opens its first tab with `defaultHeaders`, whatever that tab's own headers say: the
    // first example's, so the first Play works; a new tab starts with them too.
    headers: json(GRAPHIQL_EXAMPLES[0]!.headers),
    defaultHeaders: json(GRAPHIQL_EXAMPLES[0]!.headers),
    defaultTabs: GRAPHIQL_EXAMPLES.map((example) => ({
      query: example.query,
      headers: json(example.headers),
      variables: example.variables ? json(example.variables) : null,
    })),
    // Keys typed into the header editor stay in the page, not in the browser's storage.
    shouldPersistHeaders: false,
  };
}
