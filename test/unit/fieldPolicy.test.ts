// The field policy: a root field without authScopes does not build; what a field declares reaches
// its extensions, where the facade, the reference and the management limit read it.
import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { FIELD_POLICY_PLUGIN, keyPolicyOf, MANAGEMENT_LIMIT } from '../../src/schema/fieldPolicy';

function builderWithPolicy() {
  const options = {
    plugins: [FIELD_POLICY_PLUGIN, ScopeAuthPlugin],
    scopeAuth: {
      authScopes: () => ({ apiKey: () => true, keyScope: () => true, dashboardUser: true }),
    },
  };
  // The service's builder options declare Prisma's settings required; this builder has no Prisma.
  return new SchemaBuilder<{
    AuthScopes: { apiKey: string; keyScope: string; dashboardUser: boolean };
  }>(options as never);
}

test('a query field that declares no authScopes stops the schema from building, naming the field', () => {
  const builder = builderWithPolicy();
  builder.queryType({});
  builder.queryField('open', (t) => t.string({ resolve: () => 'x' }));
  expect(() => builder.toSchema()).toThrow('Query.open declares no authScopes');
});

test('so does a mutation field', () => {
  const builder = builderWithPolicy();
  builder.queryType({});
  builder.mutationType({});
  builder.queryField('guarded', (t) =>
    t.string({ authScopes: { dashboardUser: true }, resolve: () => 'x' }),
  );
  builder.mutationField('write', (t) => t.string({ resolve: () => 'x' }));
  expect(() => builder.toSchema()).toThrow('Mutation.write declares no authScopes');
});

test("an API-key field's type and scope, and a dashboard mutation's limit, reach the extensions", () => {
  const builder = builderWithPolicy();
  builder.queryType({});
  builder.mutationType({});
  builder.queryField('orders', (t) =>
    t.string({ authScopes: { apiKey: 'affiliate', keyScope: 'orders:read' }, resolve: () => 'x' }),
  );
  builder.mutationField('rotate', (t) =>
    t.string({ authScopes: { dashboardUser: true }, managementLimit: true, resolve: () => 'x' }),
  );
  const schema = builder.toSchema();
  const orders = schema.getQueryType()!.getFields().orders!;
  const rotate = schema.getMutationType()!.getFields().rotate!;
  expect(keyPolicyOf(orders)).toEqual({ keyType: 'affiliate', scope: 'orders:read' });
  expect(keyPolicyOf(rotate)).toBeNull();
  expect(rotate.extensions.directives).toEqual({
    rateLimit: { max: MANAGEMENT_LIMIT.max, window: `${MANAGEMENT_LIMIT.windowSeconds}s` },
  });
  expect(orders.extensions.directives).toBeUndefined();
});
