// GraphiQL at /graphql: the example tabs are served, titled after their surfaces, valid against
// the schema, and run without errors on the demo data exactly as prefilled: the demo keys, a token
// of the demo user each placeholder names, the tab's own variables (placeholders filled in), and
// for webhooks the listener's URL with WEBHOOK_ALLOW_PRIVATE_URLS on, as `npm start` is run there;
// for postbacks a real tracker in place of the listener.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, validate, type OperationDefinitionNode } from 'graphql';
import { seedDemoData } from '../prisma/seed/demo';
import { signDashboardToken } from '../src/auth/dashboardToken';
import { config } from '../src/platform/config';
import { prisma } from '../src/platform/db';
import { GRAPHIQL_TABS, schema } from '../src/modules';
import { POSTBACK_LISTENER_URL } from '../src/modules/postbacks/graphiql';
import { app, useTestDatabase } from './support/app';
import { startTracker } from './support/postbackReceiver';

useTestDatabase();
beforeAll(() => seedDemoData(prisma));

const operationsOf = (query: string) =>
  parse(query).definitions.filter(
    (definition): definition is OperationDefinitionNode =>
      definition.kind === 'OperationDefinition',
  );

describe('GraphiQL', () => {
  it('serves the example tabs and the prefilled headers', async () => {
    const response = await app.fetch('http://api.test/graphql', {
      headers: { accept: 'text/html' },
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const name of [
      'PartnerCatalog',
      'AffiliateSurface',
      'CreateKey',
      'x-api-key',
      'x-api-token',
    ]) {
      expect(html).toContain(name);
    }
  });

  it.each(GRAPHIQL_TABS.map((example) => [example.title, example] as const))(
    '%s: every example operation is valid against the schema',
    (_title, example) => {
      expect(validate(schema, parse(example.query))).toEqual([]);
      expect(operationsOf(example.query).length).toBeGreaterThan(0);
    },
  );

  it.each(GRAPHIQL_TABS.map((example) => [example.title, example] as const))(
    '%s: comments fit the editor at common widths (64 characters)',
    (_title, example) => {
      const comments = example.query.split('\n').filter((line) => line.startsWith('#'));
      expect(comments.filter((line) => line.length > 64)).toEqual([]);
    },
  );

  // GraphiQL's own rule (graphiql's tab state): the first line outside a comment that names an
  // operation gives the tab its title.
  const tabTitle = (query: string) =>
    /^(?!#).*(query|subscription|mutation)\s+([a-zA-Z0-9_]+)/m.exec(query)?.[2];

  it('titles each tab after its surface, as docs/integrating.md lists them', () => {
    const titles = GRAPHIQL_TABS.map((example) => tabTitle(example.query));
    expect(titles).toEqual(GRAPHIQL_TABS.map((example) => example.title));
    expect(titles).toEqual([
      'PartnerCatalog',
      'AffiliateSurface',
      'KeyManagement',
      'OrderWebhooks',
      'TrackerPostbacks',
      'SubIds',
      'Payouts',
    ]);
    const guide = readFileSync(path.join(__dirname, '..', 'docs', 'integrating.md'), 'utf8');
    expect(guide.replace(/\s+/g, ' ')).toContain(titles.map((title) => `\`${title}\``).join(', '));
  });

  it('covers each surface with the header that surface takes', () => {
    expect(GRAPHIQL_TABS.map((example) => Object.keys(example.headers))).toEqual([
      ['x-api-key'],
      ['x-api-key'],
      ['x-api-token'],
      ['x-api-token'],
      ['x-api-token'],
      ['x-api-key'],
      ['x-api-key'],
    ]);
  });

  it('runs every example as prefilled, on the demo data', async () => {
    // `WEBHOOK_ALLOW_PRIVATE_URLS=1 npm start`, as docs/webhooks.md runs the service for the tab.
    Object.assign(config, { webhookAllowPrivateUrls: true });
    // `npm run postback:listen` stands in for the tracker: a real one of this test's own, at the
    // tab's tracker address on another port (the test send reaches it).
    const tracker = await startTracker();
    const trackerUrl = (url: string) => url.replace(POSTBACK_LISTENER_URL, `${tracker.url}/`);
    const brand = await prisma.organization.findFirstOrThrow({ select: { id: true } });
    const created: Record<string, string> = {};
    for (const example of GRAPHIQL_TABS) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      for (const [name, value] of Object.entries(example.headers)) {
        // A placeholder names the command that mints the token: run it.
        const userId = /^<output of: npm run token -- (\S+)>$/.exec(value)?.[1];
        headers[name] = userId ? await signDashboardToken(userId) : value;
      }
      for (const operation of operationsOf(example.query)) {
        const name = operation.name!.value;
        // GraphiQL sends the tab's variables with every operation of the tab; ids the tab asks
        // for are the ones its earlier operations made.
        const variables = Object.fromEntries(
          Object.entries(example.variables ?? {}).map(([variable, value]) => [
            variable,
            typeof value === 'string' && value.startsWith('<')
              ? (created[example.title] ?? brand.id)
              : typeof value === 'string'
                ? trackerUrl(value)
                : value,
          ]),
        );
        // The document holds several operations: name the one to run.
        const answer = await (
          await app.fetch('http://api.test/graphql', {
            method: 'POST',
            headers,
            body: JSON.stringify({ query: example.query, operationName: name, variables }),
          })
        ).json();
        expect({ name, errors: answer.errors ?? null }).toEqual({ name, errors: null });
        if (name === 'CreateKey') created[example.title] = answer.data.createApiKey.key.id;
        if (name === 'CreateWebhook') {
          created[example.title] = answer.data.createWebhookEndpoint.endpoint.id;
          expect(answer.data.createWebhookEndpoint.endpoint.url).toBe(example.variables!.url);
        }
        if (name === 'CreatePostback') created[example.title] = answer.data.createPostback.id;
        if (name === 'SendTest' && example.title === 'TrackerPostbacks') {
          expect(answer.data.sendTestPostback).toMatchObject({ statusCode: 200, delivered: true });
        }
      }
    }
    await tracker.close();
    expect(Object.keys(created)).toEqual(['KeyManagement', 'OrderWebhooks', 'TrackerPostbacks']);
    expect(tracker.received.map((postback) => postback.path)).toEqual(['/demo-key/postback']);
  });
});
