// Strict JSON bodies of REST routes (contract: unknown body fields cause 400): a JSON object whose
// keys are the field's arguments, each of its JSON type; 400 naming the field otherwise.
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLString,
} from 'graphql';
import { parseJsonBody, variablesFromBody } from '../../src/rest/body';
import { BadRequestError } from '../../src/platform/errors';
import { isUuid, parseDateTime } from '../../src/platform/formats';

// The schema's own scalars parse as src/schema/scalars.ts does.
const DateTime = new GraphQLScalarType({
  name: 'DateTime',
  parseValue: (value) => {
    if (!parseDateTime(value)) throw new Error(`"${String(value)}" is not an ISO 8601 date-time`);
    return value;
  },
});
const UUID = new GraphQLScalarType({
  name: 'UUID',
  parseValue: (value) => {
    if (!isUuid(value)) throw new Error(`"${String(value)}" is not a UUID`);
    return value;
  },
});
const LinkType = new GraphQLEnumType({
  name: 'LinkType',
  values: { Coupon: {}, BrandPage: {}, Offer: {}, Custom: {} },
});
const Period = new GraphQLInputObjectType({
  name: 'Period',
  fields: { startAt: { type: new GraphQLNonNull(DateTime) }, endAt: { type: DateTime } },
});

const Mutation = new GraphQLObjectType({
  name: 'Mutation',
  fields: {
    create: {
      type: GraphQLString,
      args: {
        featureId: { type: GraphQLID },
        organizationId: { type: UUID },
        originalUrl: { type: GraphQLString },
        count: { type: GraphQLInt },
        ratio: { type: GraphQLFloat },
        active: { type: GraphQLBoolean },
        startAt: { type: DateTime },
        type: { type: LinkType },
        tags: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) },
        period: { type: Period },
        name: { type: new GraphQLNonNull(GraphQLString) },
      },
    },
  },
});

const args = Mutation.getFields().create!.args;

function parse(body: unknown): Record<string, unknown> {
  return variablesFromBody(args, body);
}

/** The message a body is refused with; fails the test when it is accepted. */
function refusal(body: unknown): string {
  try {
    parse(body);
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestError);
    return (error as BadRequestError).message;
  }
  throw new Error(`accepted: ${JSON.stringify(body)}`);
}

const UUID_VALUE = '0b6f2c1e-8a4d-4e7b-9c3a-5f1d2e3c4b5a';

test('a body of every argument type', () => {
  const body = {
    featureId: 'c-1',
    organizationId: UUID_VALUE,
    originalUrl: 'https://shop.example/',
    count: -3,
    ratio: 0.5,
    active: false,
    startAt: '2025-01-31T12:00:00Z',
    type: 'Custom',
    tags: ['a', 'b'],
    period: { startAt: '2025-01-01' },
    name: 'x',
  };
  expect(parse(body)).toEqual(body);
});

test('null counts as absent for optional arguments', () => {
  expect(parse({ name: 'x', featureId: null, tags: null })).toEqual({ name: 'x' });
});

test.each([
  [[], 'The body must be a JSON object'],
  [null, 'The body must be a JSON object'],
  ['name', 'The body must be a JSON object'],
  [12, 'The body must be a JSON object'],
  [{ name: 'x', extra: 1 }, 'Unknown field extra'],
  [{ name: 'x', a: 1, b: 2 }, 'Unknown fields a, b'],
  [{ name: 'x', __proto__x: 1 }, 'Unknown field __proto__x'],
  [{}, 'name is required'],
  [{ name: null }, 'name must not be null'],
  [{ name: 'x', featureId: 12 }, 'featureId must be a string'],
  [{ name: 'x', featureId: [12] }, 'featureId must be a string'],
  [
    { name: 'x', originalUrl: { href: 'x' } },
    'originalUrl: String cannot represent a non string value: { href: "x" }',
  ],
  [{ name: 'x', organizationId: 'abc' }, 'organizationId: "abc" is not a UUID'],
  [{ name: 'x', organizationId: 5 }, 'organizationId: "5" is not a UUID'],
  [{ name: 'x', count: '3' }, 'count: Int cannot represent non-integer value: "3"'],
  [{ name: 'x', count: 1.5 }, 'count: Int cannot represent non-integer value: 1.5'],
  [
    { name: 'x', count: 2 ** 31 },
    'count: Int cannot represent non 32-bit signed integer value: 2147483648',
  ],
  [{ name: 'x', ratio: '0.5' }, 'ratio: Float cannot represent non numeric value: "0.5"'],
  [{ name: 'x', active: 'true' }, 'active: Boolean cannot represent a non boolean value: "true"'],
  [{ name: 'x', startAt: 'yesterday' }, 'startAt: "yesterday" is not an ISO 8601 date-time'],
  [
    { name: 'x', type: 'custom' },
    'type: Value "custom" does not exist in "LinkType" enum. Did you mean the enum value "Custom"?',
  ],
  [{ name: 'x', tags: 'a,b' }, 'tags must be an array'],
  [{ name: 'x', tags: ['a', 1] }, 'tags[1]: String cannot represent a non string value: 1'],
  [{ name: 'x', tags: [null] }, 'tags[0]: Expected non-nullable type "String!" not to be null.'],
  [{ name: 'x', period: [] }, 'period: Expected type "Period" to be an object.'],
  [
    { name: 'x', period: {} },
    'period: Field "startAt" of required type "DateTime!" was not provided.',
  ],
  [
    { name: 'x', period: { startAt: '2025-01-01', to: 1 } },
    'period: Field "to" is not defined by type "Period".',
  ],
])('%j -> 400 "%s"', (body, message) => {
  expect(refusal(body)).toBe(message);
});

test('a JSON "__proto__" key is an unknown field, not a prototype', () => {
  expect(refusal(parseJsonBody('{"name":"x","__proto__":{"featureId":"y"}}'))).toBe(
    'Unknown field __proto__',
  );
});

describe('parseJsonBody', () => {
  test('an empty body is an empty object', () => {
    expect(parseJsonBody('')).toEqual({});
    expect(parseJsonBody('  \n')).toEqual({});
  });

  test('JSON is parsed', () => {
    expect(parseJsonBody('{"a":[1,"b"]}')).toEqual({ a: [1, 'b'] });
  });

  test.each(['{', "{'a':1}", 'a=1', '{"a":1}}'])('%p -> 400', (text) => {
    expect(() => parseJsonBody(text)).toThrow(new BadRequestError('The body must be valid JSON'));
  });
});
