// The contract's rules for every REST GET route, read from the route table and each field's own
// policy and page rule (the authorization matrix checks every credential on every route; this
// checks the order of the refusals and the page rules): no key is a 401 before any 400; a key of
// the other surface a 401; a key without the route's scope a 403; a page below 1, a limit below 1
// or not a number a 400 naming it; a limit above the maximum clamped silently, or, where the route
// says so (products), a 400.
import { getNamedType, isEnumType, type GraphQLField } from 'graphql';
import { SCOPES_BY_KEY_TYPE } from '../src/auth/scopes';
import { ROUTES, schema } from '../src/modules';
import { argumentShape } from '../src/rest/argumentShape';
import { restSchema } from '../src/rest/sofa';
import { routeField, surfaceOf, type RestRoute } from '../src/rest/routes';
import { keyPolicyOf } from '../src/schema/fieldPolicy';
import { pageRuleOf } from '../src/schema/pagination';
import { call, expectError, useTestDatabase } from './support/app';
import { createApiKey } from './support/factories';

useTestDatabase();

const rest = restSchema(schema, ROUTES);
const fieldOf = (route: RestRoute): GraphQLField<unknown, unknown> => routeField(rest, route);

/** The route's path with a placeholder id, and its required query parameters with valid values. */
function pathOf(route: RestRoute): string {
  const path = route.path.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');
  const required = fieldOf(route)
    .args.filter((arg) => argumentShape(arg).required && !route.path.includes(`:${arg.name}`))
    .map((arg) => {
      const type = getNamedType(arg.type);
      if (!isEnumType(type)) throw new Error(`no test value for required ${arg.name}`);
      return `${arg.name}=${type.getValues()[0]!.name}`;
    });
  return required.length ? `${path}?${required.join('&')}` : path;
}

const withQuery = (path: string, query: string) =>
  `${path}${path.includes('?') ? '&' : '?'}${query}`;

const GET_ROUTES = ROUTES.filter((route) => route.method === 'GET');
/** Every route taking a `limit`, with its rule. */
const LIMITED_ROUTES = GET_ROUTES.flatMap((route) => {
  const limit = fieldOf(route).args.find((arg) => arg.name === 'limit');
  const rule = limit && pageRuleOf(limit);
  return rule ? [{ route, rule }] : [];
});
/** The lists paged by number (the order-event feed pages by cursor). */
const LIST_ROUTES = LIMITED_ROUTES.filter(({ route }) =>
  fieldOf(route).args.some((arg) => arg.name === 'page'),
);

const keys = {} as Record<'affiliate' | 'partner', string>;
beforeAll(async () => {
  keys.affiliate = (await createApiKey('affiliate')).apiKey;
  keys.partner = (await createApiKey('partner')).apiKey;
});

describe.each(GET_ROUTES.map((route) => [route.path, route] as const))('GET %s', (_path, route) => {
  const policy = keyPolicyOf(fieldOf(route))!;
  const surface = surfaceOf(route.path)!;
  const otherType = surface.keyType === 'affiliate' ? 'partner' : 'affiliate';

  test('without a key answers 401, before any 400', async () => {
    expectError(await call(withQuery(pathOf(route), 'page=0')), 'UNAUTHORIZED');
  });

  test(`with ${otherType === 'partner' ? 'a partner' : 'an affiliate'} key answers 401`, async () => {
    expectError(await call(pathOf(route), { key: keys[otherType] }), 'UNAUTHORIZED');
  });

  test(`with a key holding every scope but ${policy.scope} answers 403 naming it`, async () => {
    const scopes = SCOPES_BY_KEY_TYPE[surface.keyType].filter((scope) => scope !== policy.scope);
    const { apiKey } = await createApiKey(surface.keyType, { scopes: [...scopes] });
    expectError(
      await call(pathOf(route), { key: apiKey }),
      'FORBIDDEN',
      `This API key lacks the scope ${policy.scope}`,
    );
  });
});

describe.each(LIST_ROUTES.map(({ route, rule }) => [route.path, route, rule] as const))(
  'GET %s pages',
  (_path, route, rule) => {
    const key = () => keys[surfaceOf(route.path)!.keyType];

    test.each([
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
    ])('?%s answers 400 naming %s', async (query, parameter) => {
      expectError(
        await call(withQuery(pathOf(route), query), { key: key() }),
        'BAD_REQUEST',
        expect.stringContaining(parameter),
      );
    });

    if (rule.aboveMax === 'clamp') {
      test(`?limit=${rule.maxLimit + 1} is clamped to ${rule.maxLimit} silently`, async () => {
        const answer = await call(withQuery(pathOf(route), `limit=${rule.maxLimit + 1}`), {
          key: key(),
        });
        expect(answer.status).toBe(200);
        const envelope = answer.body.meta ?? answer.body.pagination;
        expect(envelope.limit).toBe(rule.maxLimit);
      });

      test(`without a limit, ${rule.defaultLimit} a page`, async () => {
        const answer = await call(pathOf(route), { key: key() });
        expect((answer.body.meta ?? answer.body.pagination).limit).toBe(rule.defaultLimit);
      });
    } else {
      test(`?limit=${rule.maxLimit + 1} answers 400: the route takes 1..${rule.maxLimit}`, async () => {
        expectError(
          await call(withQuery(pathOf(route), `limit=${rule.maxLimit + 1}`), { key: key() }),
          'BAD_REQUEST',
          `limit must be between 1 and ${rule.maxLimit}`,
        );
      });
    }
  },
);

describe.each(
  LIMITED_ROUTES.filter(({ rule }) => rule.aboveMax === 'clamp').map(
    ({ route, rule }) => [route.path, route, rule] as const,
  ),
)('GET %s limit', (_path, route, rule) => {
  test(`?limit=2147483648, beyond any 32-bit integer, is clamped to ${rule.maxLimit} like any limit above it`, async () => {
    const answer = await call(withQuery(pathOf(route), 'limit=2147483648'), {
      key: keys[surfaceOf(route.path)!.keyType],
    });
    expect(answer.status).toBe(200);
    const envelope = answer.body.meta ?? answer.body.pagination;
    // The order-event feed answers no limit of its own: a page of at most its maximum.
    if (envelope) expect(envelope.limit).toBe(rule.maxLimit);
    else expect(answer.body.data.length).toBeLessThanOrEqual(rule.maxLimit);
  });
});

test('every route taking a limit clamps it, except products and payout items, which refuse', () => {
  expect(
    LIMITED_ROUTES.filter(({ rule }) => rule.aboveMax === 'reject')
      .map(({ route }) => route.path)
      .sort(),
  ).toEqual(['/affiliate/payouts/:payoutId/items', '/affiliate/products']);
  expect(LIMITED_ROUTES.map(({ route }) => route.path)).toContain('/affiliate/order-events');
});

test('every paginated route is in the table above', () => {
  expect(LIST_ROUTES.map(({ route }) => route.path).sort()).toEqual([
    '/affiliate/brands',
    '/affiliate/campaigns',
    '/affiliate/coupons',
    '/affiliate/earnings',
    '/affiliate/orders',
    '/affiliate/payouts',
    '/affiliate/payouts/:payoutId/items',
    '/affiliate/products',
    '/affiliate/reports/performance',
    '/affiliate/shortener/urls',
    '/api/partner/brands',
    '/api/partner/campaigns',
    '/api/partner/organizations',
  ]);
});
