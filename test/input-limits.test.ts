// Text and list inputs, one rule on every transport (src/schema/inputLimits.ts): strings at most
// their documented length and without control characters, lists at most MAX_LIST_ITEMS items;
// beyond that a 400 naming the parameter on REST, BAD_REQUEST on GraphQL, before any scope check.
import { signDashboardToken } from '../src/auth/dashboardToken';
import { MAX_LIST_ITEMS, MAX_TEXT_LENGTH, MAX_URL_LENGTH } from '../src/schema/inputLimits';
import { MAX_JSON_DEPTH } from '../src/limits/jsonDepth';
import { app, call, callApp, expectError, graphql, send, useTestDatabase } from './support/app';
import { createApiKey, createBrand, createUser } from './support/factories';

useTestDatabase();

let partnerKey: string;
let affiliateKey: string;
let brandId: string;

beforeAll(async () => {
  ({ apiKey: partnerKey } = await createApiKey('partner'));
  ({ apiKey: affiliateKey } = await createApiKey('affiliate'));
  ({ id: brandId } = await createBrand());
});

const items = (count: number) => Array.from({ length: count }, (_, n) => `c${n}`);

// [what, REST path, GraphQL operation, variables, the 400's message]
const REFUSALS: [string, string, string, Record<string, unknown>, string][] = [
  [
    'a search one character over the limit',
    `/api/partner/organizations?search=${'a'.repeat(MAX_TEXT_LENGTH + 1)}`,
    'query ($s: String) { partnerOrganizations(search: $s) { meta { total } } }',
    { s: 'a'.repeat(MAX_TEXT_LENGTH + 1) },
    `search must be at most ${MAX_TEXT_LENGTH} characters`,
  ],
  [
    'a NUL character',
    '/api/partner/brands?search=a%00b',
    'query ($s: String) { partnerBrands(search: $s) { meta { total } } }',
    { s: 'a\u0000b' },
    'search must not contain control characters',
  ],
  [
    'a control character in a list item',
    '/api/partner/brands?categories=a,b%1Fc',
    'query ($c: [String!]) { partnerBrands(categories: $c) { meta { total } } }',
    { c: ['a', 'b\u001fc'] },
    'categories must not contain control characters',
  ],
  [
    'one list item too many',
    `/api/partner/brands?categories=${items(MAX_LIST_ITEMS + 1).join(',')}`,
    'query ($c: [String!]) { partnerBrands(categories: $c) { meta { total } } }',
    { c: items(MAX_LIST_ITEMS + 1) },
    `categories takes at most ${MAX_LIST_ITEMS} items`,
  ],
  [
    'one brand id too many, given as repeated parameters',
    `/api/partner/campaigns?${Array.from(
      { length: MAX_LIST_ITEMS + 1 },
      () => `organizationIds=${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`,
    ).join('&')}`,
    'query ($ids: [UUID!]) { partnerCampaigns(organizationIds: $ids) { meta { total } } }',
    { ids: Array(MAX_LIST_ITEMS + 1).fill('00000000-0000-4000-8000-000000000000') },
    `organizationIds takes at most ${MAX_LIST_ITEMS} items`,
  ],
];

describe.each(REFUSALS)('%s', (_what, path, query, variables, message) => {
  test('REST: 400 naming the parameter', async () => {
    const { status, body } = await call(path, { key: partnerKey });
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, code: 'BAD_REQUEST', message });
  });

  test('GraphQL: BAD_REQUEST with the same message', async () => {
    const { body } = await graphql(query, variables, { key: partnerKey });
    expect(body.errors[0]).toMatchObject({ message, extensions: { code: 'BAD_REQUEST' } });
  });
});

test('at the limits, the same inputs are answered', async () => {
  const atLimits = [
    `/api/partner/organizations?search=${'a'.repeat(MAX_TEXT_LENGTH)}`,
    `/api/partner/brands?categories=${items(MAX_LIST_ITEMS).join(',')}`,
  ];
  for (const path of atLimits) expect((await call(path, { key: partnerKey })).status).toBe(200);
});

test('an input over its limit is a 400 before a missing scope is a 403', async () => {
  const { apiKey } = await createApiKey('partner', { scopes: ['organizations:read'] });
  const overLimit = `/api/partner/brands?search=${'a'.repeat(MAX_TEXT_LENGTH + 1)}`;
  expect((await call(overLimit, { key: apiKey })).status).toBe(400);
  expect((await call('/api/partner/brands', { key: apiKey })).status).toBe(403);
});

test(`a deep link may be up to ${MAX_URL_LENGTH} characters, not one more`, async () => {
  const url = (length: number) => {
    const base = `https://brand.example/`;
    return base + 'p'.repeat(length - base.length);
  };
  const create = (originalUrl: string) =>
    call('/affiliate/shortener/url', {
      key: affiliateKey,
      body: { organizationId: brandId, originalUrl },
    });
  const over = await create(url(MAX_URL_LENGTH + 1));
  expect(over.body).toMatchObject({
    code: 'BAD_REQUEST',
    message: `originalUrl must be at most ${MAX_URL_LENGTH} characters`,
  });
  // At the limit the length passes; the URL is then judged for what it is (not the brand's site).
  expect((await create(url(MAX_URL_LENGTH))).body.message).not.toMatch(/characters/);
});

test('key management inputs follow the same rules', async () => {
  const token = await signDashboardToken((await createUser()).id);
  const create = 'mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { apiKey } }';
  const tooMany = await graphql(
    create,
    { input: { name: 'x', scopes: items(MAX_LIST_ITEMS + 1) } },
    { token },
  );
  expect(tooMany.body.errors[0]).toMatchObject({
    message: `input.scopes takes at most ${MAX_LIST_ITEMS} items`,
    extensions: { code: 'BAD_REQUEST' },
  });
  const literal = await graphql(
    'mutation { createApiKey(input: { name: "a\\u0000b" }) { apiKey } }',
    {},
    { token },
  );
  expect(literal.body.errors[0]).toMatchObject({
    message: 'input.name must not contain control characters',
    extensions: { code: 'BAD_REQUEST' },
  });
});

describe('JSON nesting', () => {
  /** A JSON array nested `levels` deep. */
  const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
  const tooDeep = `The body's JSON nests deeper than the limit of ${MAX_JSON_DEPTH} levels`;

  test('a REST body nested 100,000 levels deep answers 400 naming the limit', async () => {
    const answer = await callApp(app, '/affiliate/shortener/url', {
      key: affiliateKey,
      rawBody: `{"featureId":${nested(100_000)}}`,
    });
    expectError(answer, 'BAD_REQUEST', tooDeep);
  });

  test('a /graphql body nested 100,000 levels deep answers 400 naming the limit', async () => {
    for (const body of [
      `{"query":"{ __typename }","variables":{"v":${nested(100_000)}}}`,
      nested(100_000),
    ]) {
      const answer = await send(app, '/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': partnerKey },
        body,
      });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({
        errors: [{ message: tooDeep, extensions: { code: 'BAD_REQUEST' } }],
      });
    }
  });

  test('bodies at the limit are read as before', async () => {
    // The nesting counts the body's own object: variables.v holds the rest.
    const atLimit = `{"query":"{ __typename }","variables":{"v":${nested(MAX_JSON_DEPTH - 2)}}}`;
    const answer = await send(app, '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': partnerKey },
      body: atLimit,
    });
    expect(answer.json).toEqual({ data: { __typename: 'Query' } });
    const rest = await callApp(app, '/affiliate/shortener/url', {
      key: affiliateKey,
      rawBody: `{"featureId":${nested(MAX_JSON_DEPTH - 1)}}`,
    });
    expectError(rest, 'BAD_REQUEST', /^featureId: ID cannot represent value/);
  });
});
