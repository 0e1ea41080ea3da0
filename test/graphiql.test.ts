// GraphiQL at /graphql: the example tabs are served, valid against the schema, and run without
// errors with the credentials their tab prefills (keys made here instead of the demo seed's).
import { parse, validate, type OperationDefinitionNode } from 'graphql';
import { signDashboardToken } from '../src/auth/dashboardToken';
import { GRAPHIQL_EXAMPLES } from '../src/graphql/graphiql';
import { schema } from '../src/schema';
import { app, useTestDatabase } from './support/app';
import { createAffiliate, createApiKey, createBrand, createUser } from './support/factories';

useTestDatabase();

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
      'PartnerBrands',
      'AffiliateOffers',
      'CreateKey',
      'x-api-key',
      'x-api-token',
    ]) {
      expect(html).toContain(name);
    }
  });

  it.each(GRAPHIQL_EXAMPLES.map((example) => [example.title, example] as const))(
    '%s: every example operation is valid against the schema',
    (_title, example) => {
      expect(validate(schema, parse(example.query))).toEqual([]);
      expect(operationsOf(example.query).length).toBeGreaterThan(0);
    },
  );

  it.each(GRAPHIQL_EXAMPLES.map((example) => [example.title, example] as const))(
    '%s: comments fit the editor at common widths (64 characters)',
    (_title, example) => {
      const comments = example.query.split('\n').filter((line) => line.startsWith('#'));
      expect(comments.filter((line) => line.length > 64)).toEqual([]);
    },
  );

  it('covers each surface with the header that surface takes', () => {
    expect(GRAPHIQL_EXAMPLES.map((example) => Object.keys(example.headers))).toEqual([
      ['x-api-key'],
      ['x-api-key'],
      ['x-api-token'],
      ['x-api-token'],
    ]);
  });

  it('runs every example with real credentials of its surface', async () => {
    const { apiKey: partnerKey } = await createApiKey('partner');
    const { apiKey: affiliateKey } = await createAffiliate();
    const brand = await createBrand();
    const user = await createUser('PARTNER');
    const token = await signDashboardToken(user.id);
    const affiliateUser = await createUser('AFFILIATE');
    const affiliateToken = await signDashboardToken(affiliateUser.id);
    const credentials = [
      { key: partnerKey },
      { key: affiliateKey },
      { token },
      { token: affiliateToken },
    ];

    let createdKeyId: string | undefined;
    let createdEndpointId: string | undefined;
    for (const [index, example] of GRAPHIQL_EXAMPLES.entries()) {
      for (const operation of operationsOf(example.query)) {
        const name = operation.name!.value;
        const variables: Record<string, unknown> = {
          organizationId: brand.id,
          // GraphiQL sends the tab's variables with every operation of the tab.
          id: createdEndpointId ?? createdKeyId ?? '00000000-0000-4000-8000-000000000000',
          // A public address that needs no DNS (nothing is sent: no dispatcher runs here).
          url: 'https://93.184.215.14/orders',
        };
        // The document holds several operations: name the one to run.
        const named = await app.fetch('http://api.test/graphql', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...('key' in credentials[index]! ? { 'x-api-key': credentials[index]!.key } : {}),
            ...('token' in credentials[index]! ? { 'x-api-token': credentials[index]!.token } : {}),
          },
          body: JSON.stringify({ query: example.query, operationName: name, variables }),
        });
        const answer = await named.json();
        expect({ name, errors: answer.errors ?? null }).toEqual({ name, errors: null });
        if (name === 'CreateKey') createdKeyId = answer.data.createApiKey.key.id;
        if (name === 'CreateWebhook') {
          createdEndpointId = answer.data.createWebhookEndpoint.endpoint.id;
        }
      }
    }
    expect(createdKeyId).toEqual(expect.any(String));
    expect(createdEndpointId).toEqual(expect.any(String));
  });
});
