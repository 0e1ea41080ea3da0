// The GraphiQL tab of key management.
import { DEMO_USERS } from '../../auth/demoIdentities';
import { tokenPlaceholder, type GraphiqlTab } from '../../graphql/graphiql';

export const GRAPHIQL_TABS: GraphiqlTab[] = [
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
];
