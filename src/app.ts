// createApp(): the yoga instance with its plugins. The server (src/server.ts) gives it a port;
// tests call `app.fetch()` directly.
import { createYoga } from 'graphql-yoga';
import { apiKeyOf, dashboardUserOf } from './auth/requestAuth';
import { logger } from './logger';
import { useRestFacade } from './rest/facade';
import type { Context } from './schema/context';
import { schema } from './schema';

const GRAPHIQL_EXAMPLE = `# Affiliate and partner fields take an x-api-key header;
# key management takes a dashboard JWT in x-api-token (npm run token -- <userId>).
query PartnerBrands {
  partnerBrands(limit: 5) {
    data { id name categories }
    meta { total page limit totalPages }
  }
}
`;

export function createApp() {
  return createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: { title: 'Affiliate network API', defaultQuery: GRAPHIQL_EXAMPLE },
    logging: {
      debug: (...args) => logger.debug(args.map(String).join(' ')),
      info: (...args) => logger.info(args.map(String).join(' ')),
      warn: (...args) => logger.warn(args.map(String).join(' ')),
      error: (...args) => logger.error(args.map(String).join(' ')),
    },
    context: async ({ request }) => ({
      request,
      apiKey: await apiKeyOf(request),
      dashboardUserId: await dashboardUserOf(request),
    }),
    plugins: [useRestFacade()],
  });
}

export type App = ReturnType<typeof createApp>;
