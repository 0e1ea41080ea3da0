// A route's field takes the key type of the route's surface (/affiliate affiliate keys,
// /api/partner partner keys), or the routes are not prepared: such a route could never answer.
import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { prepareRoutes } from '../../src/rest/prepare';
import type { RestRoute } from '../../src/rest/routes';
import { createSofa } from '../../src/rest/sofa';
import { FIELD_POLICY_PLUGIN } from '../../src/schema/fieldPolicy';

function schemaWithBrands() {
  const options = {
    plugins: [FIELD_POLICY_PLUGIN, ScopeAuthPlugin],
    scopeAuth: { authScopes: () => ({ apiKey: () => true, keyScope: () => true }) },
  };
  // The service's builder options declare Prisma's settings required; this builder has no Prisma.
  const builder = new SchemaBuilder<{ AuthScopes: { apiKey: string; keyScope: string } }>(
    options as never,
  );
  builder.queryType({});
  builder.queryField('partnerBrands', (t) =>
    t.string({ authScopes: { apiKey: 'partner', keyScope: 'brands:read' }, resolve: () => 'x' }),
  );
  return builder.toSchema();
}

function prepare(route: RestRoute) {
  return prepareRoutes(createSofa(schemaWithBrands(), [route]), [route]);
}

test("a route under its field's surface is prepared with the field's key policy", () => {
  const route: RestRoute = {
    method: 'GET',
    path: '/api/partner/brands',
    field: 'Query.partnerBrands',
  };
  expect(prepare(route).get(route)?.auth).toEqual({ keyType: 'partner', scope: 'brands:read' });
});

test('a route whose surface takes another key type is refused, naming the route and both types', () => {
  const route: RestRoute = {
    method: 'GET',
    path: '/affiliate/brands',
    field: 'Query.partnerBrands',
  };
  expect(() => prepare(route)).toThrow(
    'GET /affiliate/brands is under /affiliate/, which takes affiliate keys, but Query.partnerBrands takes partner keys',
  );
});

test('a route under no surface is refused', () => {
  const route: RestRoute = { method: 'GET', path: '/brands', field: 'Query.partnerBrands' };
  expect(() => prepare(route)).toThrow('GET /brands lies under no REST surface');
});
