import { readFileSync } from 'node:fs';
import { printedSchema, SCHEMA_FILE } from '../src/schema/print';
import { restSchema } from '../src/rest/sofa';
import { ROUTES, schema } from '../src/modules';

test('the committed schema.graphql is current (run `npm run schema:print`)', () => {
  expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(printedSchema(schema));
});

test('Sofa sees exactly the root fields of the route table', () => {
  const rest = restSchema(schema, ROUTES);
  const fields = [
    ...Object.keys(rest.getQueryType()?.getFields() ?? {}).map((name) => `Query.${name}`),
    ...Object.keys(rest.getMutationType()?.getFields() ?? {}).map((name) => `Mutation.${name}`),
  ];
  expect(fields.sort()).toEqual(ROUTES.map((route) => route.field).sort());
});
