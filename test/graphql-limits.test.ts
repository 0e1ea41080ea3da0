// GraphQL abuse limits on /graphql (src/graphql/armor.ts): each limit exceeded answers 400 before
// any resolver or database call; every legitimate operation fits under all of them; batching is
// off; introspection, field suggestions and GraphiQL follow their settings.
import { argumentShape } from '../src/rest/argumentShape';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import {
  getIntrospectionQuery,
  getNamedType,
  isEnumType,
  isObjectType,
  Lexer,
  Source,
  TokenKind,
  parse,
  validate,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLObjectType,
} from 'graphql';
import { prisma } from '../src/platform/db';
import { complexityFromQuery } from '@pothos/plugin-complexity';
import { GRAPHQL_LIMITS } from '../src/graphql/armor';
import { fieldComplexity, isListOfObjects, SEARCH_COST } from '../src/schema/complexity';
import { MAX_ORDER_ITEMS } from '../src/modules/orders/schema';
import { pageRuleOf } from '../src/schema/pagination';
import { MAX_LISTED_DELIVERIES } from '../src/modules/webhooks/schema/queries';
import { MAX_LISTED_ATTEMPTS } from '../src/modules/webhooks/schema/types';
import { schema } from '../src/modules';
import { createIsolatedApp, type App, send, useTestDatabase } from './support/app';
import { createApiKey, createBrand } from './support/factories';
import {
  flatSelection,
  fullSelection,
  operationFor,
  rootField,
  rootFields,
} from './support/hardening';

useTestDatabase();

const app = createIsolatedApp();
let partnerKey: string;
let affiliateKey: string;

beforeAll(async () => {
  ({ apiKey: partnerKey } = await createApiKey('partner'));
  ({ apiKey: affiliateKey } = await createApiKey('affiliate'));
  await createBrand();
});

interface GraphqlBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

async function post(
  query: string,
  options: { app?: App; headers?: Record<string, string>; key?: string | null } = {},
) {
  const key = options.key === undefined ? partnerKey : options.key;
  const answer = await send(options.app ?? app, '/graphql', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key !== null && { 'x-api-key': key }),
      ...options.headers,
    },
    body: JSON.stringify({ query }),
  });
  return { ...answer, body: answer.json as GraphqlBody };
}

function tokenCount(document: string): number {
  const lexer = new Lexer(new Source(document));
  let count = 0;
  while (lexer.advance().kind !== TokenKind.EOF) count += 1;
  return count;
}

/** `partnerBrands { data { id } }` inside `levels` nested inline fragments. */
function nestedFragments(levels: number): string {
  let inner = '{ data { id } }';
  for (let i = 0; i < levels; i += 1) inner = `{ ... on PartnerBrandPage ${inner} }`;
  return `{ partnerBrands ${inner} }`;
}

function aliased(count: number, selection: string): string {
  return `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${selection}`).join(' ')} }`;
}

/** partnerBrands beside root `__typename`s, padded to exactly `tokens` tokens. */
function withTokens(tokens: number): string {
  const base = (n: number) =>
    `{ partnerBrands { data { id } } ${Array(n).fill('__typename').join(' ')} }`;
  const overhead = tokenCount(base(0));
  return base(tokens - overhead);
}

function withDirectives(count: number): string {
  return `{ partnerBrands { data { ${Array(count).fill('id @include(if: true)').join(' ')} } } }`;
}

/**
 * The widest list with every field, `limit` products as a variable's default: each product is
 * priced at every nested list's capacity (1,421 a product), so 15 fit the limit and 16 do not.
 */
function products(limit: number): string {
  const selection = fullSelection(rootField('Query.affiliateProducts').type);
  return `query ($limit: Int = ${limit}) { affiliateProducts(limit: $limit) ${selection} }`;
}

// Each limit, with an operation exactly at it (admitted) and one just over it (refused).
const LIMITS: {
  limit: keyof typeof GRAPHQL_LIMITS;
  at: string;
  over: string;
  message: RegExp;
  /** The operations ask for affiliate fields. */
  affiliate?: true;
}[] = [
  {
    limit: 'maxDepth',
    // partnerBrands + fragments + data + id
    at: nestedFragments(GRAPHQL_LIMITS.maxDepth - 3),
    over: nestedFragments(GRAPHQL_LIMITS.maxDepth - 2),
    message: /^Query depth limit of 10 exceeded, found 11\.$/,
  },
  {
    limit: 'maxAliases',
    at: aliased(GRAPHQL_LIMITS.maxAliases, 'partnerBrands { meta { total } }'),
    over: aliased(GRAPHQL_LIMITS.maxAliases + 1, 'partnerBrands { meta { total } }'),
    message: /^Aliases limit of 15 exceeded, found 16\.$/,
  },
  {
    limit: 'maxTokens',
    at: withTokens(GRAPHQL_LIMITS.maxTokens),
    over: withTokens(GRAPHQL_LIMITS.maxTokens + 1),
    message: /^Token limit of 1000 exceeded\.$/,
  },
  {
    limit: 'maxCost',
    // The rows a list may hold count, its nested lists' too, variables included.
    at: products(15),
    over: products(16),
    message: /^Operation cost limit of 22000 exceeded, found 22737\.$/,
    affiliate: true,
  },
  {
    limit: 'maxDirectives',
    at: withDirectives(GRAPHQL_LIMITS.maxDirectives),
    over: withDirectives(GRAPHQL_LIMITS.maxDirectives + 1),
    message: /^Directives limit of 10 exceeded, found 11\.$/,
  },
];

describe.each(LIMITS)('$limit', ({ at, over, message, affiliate }) => {
  const key = () => (affiliate ? affiliateKey : partnerKey);
  let resolvers: jest.SpyInstance[];

  beforeEach(() => {
    // The root resolvers of the fields these operations use, and the queries behind them.
    const fields = ['partnerBrands', 'affiliateProducts'].map(
      (name) => schema.getQueryType()!.getFields()[name] as GraphQLField<unknown, unknown>,
    );
    resolvers = [
      ...fields.map((field) => jest.spyOn(field, 'resolve')),
      jest.spyOn(prisma.organization, 'findMany'),
      jest.spyOn(prisma.product, 'findMany'),
    ];
  });

  afterEach(() => jest.restoreAllMocks());

  test('an operation over the limit answers 400 BAD_REQUEST naming it, and runs no resolver', async () => {
    for (const accept of [undefined, 'application/json', 'application/graphql-response+json']) {
      const { status, body } = await post(over, { key: key(), headers: accept ? { accept } : {} });
      expect(status).toBe(400);
      expect(body.data).toBeUndefined();
      expect(body.errors![0]).toEqual({
        message: expect.stringMatching(message),
        extensions: { code: 'BAD_REQUEST' },
      });
    }
    for (const spy of resolvers) expect(spy).not.toHaveBeenCalled();
  });

  test('an operation at the limit is answered', async () => {
    const { status, body } = await post(at, { key: key() });
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    // The spies see the call: the refusal above is the limit's doing, not a broken spy.
    for (const spy of affiliate ? [resolvers[1], resolvers[3]] : [resolvers[0], resolvers[2]]) {
      expect(spy).toHaveBeenCalled();
    }
  });

  test('the refusal comes before authentication: no key also answers 400', async () => {
    const { status } = await post(over, { key: null });
    expect(status).toBe(400);
  });
});

/** An `input` argument of the right shape for each mutation taking one. */
const INPUTS: Record<string, unknown> = {
  createApiKey: { name: 'x' },
  createWebhookEndpoint: { url: 'x', events: ['x'] },
  updateWebhookEndpoint: {},
  createPostback: { name: 'x', events: ['x'] },
  updatePostback: {},
};

/**
 * A value for a required argument: the mutation's input, an enum's first value, a time, else a
 * string.
 */
function requiredValue(field: GraphQLField<unknown, unknown>, arg: GraphQLArgument): unknown {
  const type = getNamedType(arg.type);
  if (isEnumType(type)) return type.getValues()[0]!.name;
  if (type.name === 'DateTime') return '2026-01-01T00:00:00Z';
  return arg.name === 'input' ? INPUTS[field.name] : 'x';
}

/** The field's required arguments (non-null, no default) with valid values. */
function requiredArgs(field: GraphQLField<unknown, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    field.args
      .filter((arg) => argumentShape(arg).required)
      .map((arg) => [arg.name, requiredValue(field, arg)]),
  );
}

describe('legitimate operations fit under every limit', () => {
  const refusedByLimit = (body: GraphqlBody) =>
    (body.errors ?? []).filter((error) => error.extensions?.code === 'BAD_REQUEST');

  test.each(rootFields())('%s at full width', async (name) => {
    const args = requiredArgs(rootField(name));
    // Without credentials: the answer is UNAUTHORIZED, which proves the limits let it through.
    const { status, body } = await send(app, '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: operationFor(name, args), variables: args }),
    }).then((answer) => ({ ...answer, body: answer.json as GraphqlBody }));
    expect(status).toBe(200);
    expect(refusedByLimit(body)).toEqual([]);
    expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
  });

  test('every affiliate query at full width in one operation, each type in a fragment of its own', async () => {
    const fields = rootFields().filter(
      (name) =>
        name.startsWith('Query.affiliate') &&
        rootField(name).args.every((arg) => !String(arg.type).endsWith('!')),
    );
    const fragments: string[] = [];
    const selections = fields.map((name) => {
      const field = rootField(name);
      const fragment = `F_${field.name}`;
      const type = String(field.type).replace(/!$/, '');
      fragments.push(`fragment ${fragment} on ${type} ${fullSelection(field.type)}`);
      return `${field.name} { ...${fragment} }`;
    });
    const query = `{ ${selections.join(' ')} } ${fragments.join(' ')}`;
    expect(tokenCount(query)).toBeLessThanOrEqual(GRAPHQL_LIMITS.maxTokens);
    const { status, body } = await post(query, { key: null });
    expect(refusedByLimit(body)).toEqual([]);
    expect(status).toBe(200);
  });

  test.each(rootFields().filter((name) => rootField(name).args.some((a) => a.name === 'limit')))(
    '%s: its largest page, every field of its rows but their nested lists, costs less than the limit',
    (name) => {
      const field = rootField(name);
      const limit = field.args.find((arg) => arg.name === 'limit')!;
      // A page-numbered list's page rule, or a cursor-paged one's own maximum.
      const maxLimit = pageRuleOf(limit)?.maxLimit ?? (limit.extensions.maxLimit as number);
      // Inline: an enum's value as it is, any other quoted.
      const args = Object.entries(requiredArgs(field)).map(([arg, value]) => {
        const type = getNamedType(field.args.find((a) => a.name === arg)!.type);
        return `, ${arg}: ${isEnumType(type) ? String(value) : JSON.stringify(value)}`;
      });
      const query = `{ ${field.name}(limit: ${maxLimit}${args.join('')}) ${flatSelection(field.type)} }`;
      expect(complexityFromQuery(query, { schema }).complexity).toBeLessThanOrEqual(
        GRAPHQL_LIMITS.maxCost,
      );
    },
  );

  test("a year's report by link at its largest page and full width", () => {
    const field = rootField('Query.affiliatePerformanceReport');
    const query = `{ affiliatePerformanceReport(groupBy: link, limit: 366,
      startAt: "2025-01-01T00:00:00Z", endAt: "2026-01-01T00:00:00Z") ${fullSelection(field.type)} }`;
    expect(complexityFromQuery(query, { schema }).complexity).toBeLessThanOrEqual(
      GRAPHQL_LIMITS.maxCost,
    );
  });

  test("GraphiQL's introspection query, where introspection is on, at the depth allowed for introspection", async () => {
    const query = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
    });
    const { status, body } = await post(query, { key: null });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data?.__schema).toBeDefined();
    // Exactly as deep as introspection may go (GraphiQL's own has the same 9 levels of ofType).
    let depth = '';
    const measure = maxDepthRule({
      n: 0,
      ignoreIntrospection: false,
      propagateOnRejection: false,
      onReject: [(_context, error) => (depth = error.message)],
    });
    validate(schema, parse(query), [measure]);
    expect(depth).toMatch(new RegExp(`found ${GRAPHQL_LIMITS.maxIntrospectionDepth}\\.$`));
  });
});

describe('what an operation costs', () => {
  const cost = (query: string) => complexityFromQuery(query, { schema }).complexity;
  const YEAR = 'startAt: "2025-01-01T00:00:00Z", endAt: "2026-01-01T00:00:00Z"';
  const MONTH = 'startAt: "2025-12-01T00:00:00Z", endAt: "2026-01-01T00:00:00Z"';
  const report = (groupBy: string, period: string) =>
    `affiliatePerformanceReport(groupBy: ${groupBy}, ${period}) { data { clicks } }`;

  test('every list of objects declares the rows it can hold', () => {
    const undeclared = Object.values(schema.getTypeMap())
      .filter(
        (type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith('__'),
      )
      .flatMap((type) =>
        Object.values(type.getFields())
          // Pothos gives a field without its own complexity the default, fieldComplexity.
          .filter(
            (field) =>
              isListOfObjects(field.type) && field.extensions.complexity === fieldComplexity,
          )
          .map((field) => `${type.name}.${field.name}`),
      );
    expect(undeclared).toEqual([]);
  });

  test('a nested list costs the rows it can hold: an order its items, a delivery its attempts', () => {
    expect(cost('{ affiliateOrders(limit: 1) { data { items { sku } } } }')).toBe(
      3 + MAX_ORDER_ITEMS,
    );
    expect(cost('{ webhookDeliveries(endpointId: "x") { attempts { statusCode } } }')).toBe(
      1 + MAX_LISTED_DELIVERIES * (1 + MAX_LISTED_ATTEMPTS),
    );
  });

  test('a report costs the work of its period: a year by link more than a month, a page or a year by day', () => {
    const yearByLink = cost(`{ ${report('link', YEAR)} }`);
    expect(yearByLink).toBeGreaterThan(cost(`{ ${report('link', MONTH)} }`) * 10);
    expect(yearByLink).toBeGreaterThan(cost(`{ ${report('day', YEAR)} }`) * 10);
    expect(yearByLink).toBeGreaterThan(cost('{ affiliateOrders(limit: 100) { data { id } } }'));
  });

  test('a search costs more than the same list without it', () => {
    for (const [list, argument] of [
      ['affiliateOrders', 'search'],
      ['affiliateProducts', 'search'],
      ['affiliateShortUrls', 'search'],
      ['affiliateBrands', 'search'],
      ['partnerBrands', 'search'],
      ['partnerOrganizations', 'search'],
      ['affiliateCampaigns', 'name'],
      ['partnerCampaigns', 'name'],
    ]) {
      const plain = cost(`{ ${list} { data { __typename } } }`);
      expect({ list, cost: cost(`{ ${list}(${argument}: "a") { data { __typename } } }`) }).toEqual(
        {
          list,
          cost: plain + SEARCH_COST,
        },
      );
    }
  });

  test.each([
    ['a one-year report by link', report('link', YEAR)],
    ['a search', 'affiliateOrders(search: "a") { data { id } }'],
  ])('fifteen aliases of %s are refused before any resolver', async (_what, selection) => {
    const resolve = jest.spyOn(
      schema.getQueryType()!.getFields()[selection.slice(0, selection.indexOf('('))]!,
      'resolve',
    );
    try {
      const { status, body } = await post(aliased(15, selection), { key: affiliateKey });
      expect(status).toBe(400);
      expect(body.errors![0]!.message).toMatch(/^Operation cost limit of 22000 exceeded/);
      expect(resolve).not.toHaveBeenCalled();
      // One of them alone is answered.
      const one = await post(`{ ${selection} }`, { key: affiliateKey });
      expect(one.body.errors).toBeUndefined();
      expect(resolve).toHaveBeenCalled();
    } finally {
      resolve.mockRestore();
    }
  });
});

describe('batching', () => {
  test('an array of operations answers 400 and runs none of them', async () => {
    const findMany = jest.spyOn(prisma.organization, 'findMany');
    const answer = await send(app, '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': partnerKey },
      body: JSON.stringify([
        { query: '{ partnerBrands { data { id } } }' },
        { query: '{ partnerBrands { data { id } } }' },
      ]),
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({
      errors: [{ message: 'Batching is not supported.', extensions: { code: 'BAD_REQUEST' } }],
    });
    expect(findMany).not.toHaveBeenCalled();
    findMany.mockRestore();
  });
});

describe('introspection depth, where introspection is on (outside production)', () => {
  /** `__schema { types { ofType { ... name } } }` with `levels` nested ofType. */
  const typeChain = (levels: number) =>
    `{ __schema { types { ${'ofType { '.repeat(levels)}name${' }'.repeat(levels)} } } }`;
  const limit = GRAPHQL_LIMITS.maxIntrospectionDepth;

  test(`a query for the schema deeper than ${limit} answers 400 BAD_REQUEST naming the limit`, async () => {
    const { status, body } = await post(typeChain(limit - 2), { key: null });
    expect(status).toBe(400);
    expect(body.errors).toEqual([
      {
        message: `Query depth limit of ${limit} exceeded, found ${limit + 1}.`,
        extensions: { code: 'BAD_REQUEST' },
      },
    ]);
  });

  test(`one ${limit} deep is answered: the depth of GraphiQL's own schema query`, async () => {
    const { status, body } = await post(typeChain(limit - 3), { key: null });
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
  });

  test('a query for one type is held to the limit of data queries', async () => {
    const query = `{ __type(name: "Query") { fields { type { ${'ofType { '.repeat(7)}name${' }'.repeat(7)} } } } }`;
    const { status, body } = await post(query, { key: null });
    expect(status).toBe(400);
    expect(body.errors![0]!.message).toBe('Query depth limit of 10 exceeded, found 11.');
  });

  test('lists of types within types are bounded by graphql-js (fields of a field type of a field type)', async () => {
    const query =
      '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }';
    const { body } = await post(query, { key: null });
    expect(body.data).toBeUndefined();
    expect(body.errors![0]!.message).toBe('Maximum introspection depth exceeded');
  });
});

describe('introspection and field suggestions', () => {
  const closed = createIsolatedApp({ graphql: { introspection: false } });

  test('are on by default outside production', async () => {
    const schemaQuery = await post('{ __schema { queryType { name } } }', { key: null });
    expect(schemaQuery.body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
    const typo = await post('{ partnerBrandz { data { id } } }');
    expect(typo.body.errors![0]!.message).toContain(
      'Did you mean "partnerBrand" or "partnerBrands"?',
    );
  });

  test('introspection off: __schema and __type are refused, __typename still answers', async () => {
    for (const query of [
      '{ __schema { queryType { name } } }',
      '{ __type(name: "Query") { name } }',
    ]) {
      const { body } = await post(query, { app: closed, key: null });
      expect(body.data).toBeUndefined();
      expect(body.errors![0]!.message).toMatch(/^GraphQL introspection has been disabled/);
    }
    const { body } = await post('{ __typename }', { app: closed, key: null });
    expect(body).toEqual({ data: { __typename: 'Query' } });
  });

  test('introspection off: no error message suggests a field, argument, type or enum value', async () => {
    const probes = [
      '{ partnerBrandz { data { id } } }',
      '{ partnerBrands(limt: 5) { data { id } } }',
      'query ($x: PartnerBrandz) { partnerBrands { data { id } } }',
      '{ partnerCampaigns(types: [Offr]) { data { id } } }',
    ];
    for (const query of probes) {
      const { body } = await post(query, { app: closed });
      expect(body.errors!.length).toBeGreaterThan(0);
      for (const error of body.errors!) expect(error.message).not.toMatch(/did you mean/i);
    }
    // Enum values in variables are checked while executing, not validating.
    const answer = await send(closed, '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': partnerKey },
      body: JSON.stringify({
        query:
          'query ($types: [CampaignType!]) { partnerCampaigns(types: $types) { meta { total } } }',
        variables: { types: ['Offr'] },
      }),
    });
    const body = answer.json as GraphqlBody;
    expect(body.errors![0]!.message).toMatch(/^Variable "\$types" got invalid value "Offr"/);
    expect(body.errors![0]!.message).not.toMatch(/did you mean/i);
  });
});

describe('GraphiQL', () => {
  const browser = { accept: 'text/html' };

  test('is served to browsers by default outside production', async () => {
    const answer = await send(app, '/graphql', { headers: browser });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.text).toContain('<title>Affiliate network API</title>');
  });

  test('off: a browser gets no GraphiQL page', async () => {
    const closed = createIsolatedApp({ graphql: { graphiql: false } });
    const answer = await send(closed, '/graphql', { headers: browser });
    expect(answer.headers.get('content-type') ?? '').not.toMatch(/^text\/html/);
    expect(answer.text).not.toContain('<title>');
  });
});
