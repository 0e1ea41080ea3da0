// Refusals that say what to do. Statuses and codes are the contract's; the messages name the header
// to use, the key type a surface takes, the scope a key lacks and the scopes there are. With
// `Accept: application/graphql-response+json`, an unauthenticated GraphQL operation is HTTP 401.
import { SCOPES_BY_KEY_TYPE } from '../src/auth/scopes';
import { call, expectError, graphql, send, app, useTestDatabase } from './support/app';
import { createAffiliate, createApiKey } from './support/factories';
import { dashboardUserWithToken } from './support/keySecurity';

useTestDatabase();

describe('401 on REST', () => {
  test('no key: which key, in which header', async () => {
    expectError(
      await call('/affiliate/orders'),
      'UNAUTHORIZED',
      'An API key is required: send an affiliate key in the x-api-key header',
    );
    expectError(
      await call('/api/partner/brands'),
      'UNAUTHORIZED',
      'An API key is required: send a partner key in the x-api-key header',
    );
  });

  test('a key sent as Authorization: Bearer: use x-api-key', async () => {
    const { apiKey } = await createAffiliate();
    expectError(
      await call('/affiliate/orders', { headers: { authorization: `Bearer ${apiKey}` } }),
      'UNAUTHORIZED',
      'Send the API key in the x-api-key header, not in Authorization',
    );
  });

  test("a key of the other surface's type: which type the surface takes", async () => {
    const { apiKey } = await createAffiliate();
    expectError(
      await call('/api/partner/brands', { key: apiKey }),
      'UNAUTHORIZED',
      'This route takes a partner key; the x-api-key sent is an affiliate key',
    );
    const { apiKey: partnerKey } = await createApiKey('partner');
    expectError(
      await call('/affiliate/brands', { key: partnerKey }),
      'UNAUTHORIZED',
      'This route takes an affiliate key; the x-api-key sent is a partner key',
    );
  });

  test('a key nobody holds', async () => {
    expectError(
      await call('/affiliate/orders', { key: 'svc_test_nokey001_NoSuchSecret000000000000000000' }),
      'UNAUTHORIZED',
      /^The x-api-key is not a valid key/,
    );
  });
});

test('403 names the scope the key lacks, on REST and GraphQL', async () => {
  const { apiKey } = await createAffiliate(['brands:read']);
  expectError(
    await call('/affiliate/orders', { key: apiKey }),
    'FORBIDDEN',
    'This API key lacks the scope orders:read',
  );
  const { body } = await graphql('{ affiliateOrders { meta { total } } }', {}, { key: apiKey });
  expect(body.errors[0]).toMatchObject({
    message: 'This API key lacks the scope orders:read',
    extensions: { code: 'FORBIDDEN' },
  });
});

test('createApiKey with a scope the key type has not: the scopes there are', async () => {
  const { token } = await dashboardUserWithToken('AFFILIATE');
  const { body } = await graphql(
    'mutation ($scopes: [String!]) { createApiKey(input: { name: "ci", scopes: $scopes }) { apiKey } }',
    { scopes: ['campaign:read'] },
    { token },
  );
  expect(body.errors[0]).toMatchObject({
    message: `Not a scope of an affiliate key: campaign:read; the scopes are ${SCOPES_BY_KEY_TYPE.affiliate.join(', ')}`,
    extensions: { code: 'BAD_REQUEST' },
  });
});

describe('unauthenticated GraphQL', () => {
  const query = JSON.stringify({ query: '{ partnerBrands { meta { total } } }' });
  const post = (accept: string) =>
    send(app, '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept },
      body: query,
    });

  test('answers 401 to application/graphql-response+json', async () => {
    const answer = await post('application/graphql-response+json');
    expect(answer.status).toBe(401);
    expect(answer.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
    expect(answer.json).toMatchObject({
      data: null,
      errors: [
        {
          message: 'An API key is required: send a partner key in the x-api-key header',
          extensions: { code: 'UNAUTHORIZED' },
        },
      ],
    });
    expect(answer.json).not.toHaveProperty('extensions');
  });

  test('keeps 200 for application/json', async () => {
    expect((await post('application/json')).status).toBe(200);
  });
});
