// GraphiQL at GET /graphql (development; see GRAPHIQL in src/platform/config.ts): the feature
// modules' tabs of example operations, each with the header its surface takes, prefilled with the
// demo keys (the README's demo identities), which open a fresh `npm start` and nothing elsewhere; a
// dashboard token is a placeholder for `npm run token -- <userId>` of the demo user the tab's
// operations are for. GraphiQL titles a tab with the name of its first operation, so that operation
// is named after the tab. test/graphiql.test.ts runs every example.
import type { GraphiQLOptions } from 'graphql-yoga';

/** The dashboard-token header value of a tab: how to make one for the demo user. */
export const tokenPlaceholder = (userId: string) => `<output of: npm run token -- ${userId}>`;

export interface GraphiqlTab {
  /** The tab's title: the name of its first operation. */
  title: string;
  headers: Record<string, string>;
  query: string;
  variables?: Record<string, unknown>;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** yoga's `graphiql` option: the example tabs, the first one's headers in the header editor. */
export function graphiqlOptions(tabs: readonly GraphiqlTab[]): GraphiQLOptions {
  return {
    title: 'Affiliate network API',
    defaultQuery: tabs[0]!.query,
    // GraphiQL opens its first tab with `defaultHeaders`, whatever that tab's own headers say: the
    // first example's, so the first Play works; a new tab starts with them too.
    headers: json(tabs[0]!.headers),
    defaultHeaders: json(tabs[0]!.headers),
    defaultTabs: tabs.map((example) => ({
      query: example.query,
      headers: json(example.headers),
      variables: example.variables ? json(example.variables) : null,
    })),
    // Keys typed into the header editor stay in the page, not in the browser's storage.
    shouldPersistHeaders: false,
  };
}
