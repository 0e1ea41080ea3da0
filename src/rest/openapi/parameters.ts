// Path, query and body parameters of the operations, written from the fields' arguments the way
// the facade reads them (src/rest/queryParams.ts, src/rest/body.ts).
import { isEnumType, type GraphQLArgument } from 'graphql';
import { pageRuleOf, type PaginatedRule } from '../../schema/pagination';
import { maxItemsOf, maxLengthOf } from '../../schema/inputLimits';
import { argumentShape } from '../argumentShape';
import { SCALARS } from '../scalars';
import type { Json } from './json';

/** The OpenAPI path of a route-table path: `/a/:b` -> `/a/{b}`. */
export function openApiPath(routePath: string): string {
  return routePath.replace(/:(\w+)/g, '{$1}');
}

/** A query or body value's schema, from its GraphQL input type and its limits. */
function inputSchema(arg: GraphQLArgument): Json {
  const { named, list } = argumentShape(arg);
  const item = valueSchema(arg, named);
  return list ? { type: 'array', maxItems: maxItemsOf(arg), items: item } : item;
}

function valueSchema(arg: GraphQLArgument, named: ReturnType<typeof argumentShape>['named']): Json {
  if (isEnumType(named)) return { type: 'string', enum: named.getValues().map((v) => v.name) };
  const scalar = SCALARS[named.name] ?? SCALARS.String!;
  return scalar.type === 'string' && !scalar.format
    ? { ...scalar, maxLength: maxLengthOf(arg) }
    : { ...scalar };
}

/**
 * A clamped limit takes any integer (its description says where it is clamped): a maximum here
 * would make validating gateways refuse what the route answers. A refusing one states its range.
 */
function limitSchema(rule: PaginatedRule): Json {
  return rule.aboveMax === 'clamp'
    ? { type: 'integer', minimum: 1, default: rule.defaultLimit }
    : { ...SCALARS.Int, minimum: 1, maximum: rule.maxLimit, default: rule.defaultLimit };
}

export function queryParameter(arg: GraphQLArgument): Json {
  const rule = pageRuleOf(arg);
  const schema = rule && arg.name === 'limit' ? limitSchema(rule) : inputSchema(arg);
  if (rule && arg.name === 'page') Object.assign(schema, { minimum: 1, default: 1 });
  if (arg.defaultValue !== undefined) schema.default = arg.defaultValue;
  const list = schema.type === 'array';
  // The page rule's wording is already in the argument's description (pageArgs).
  const description = [
    arg.description,
    list && 'Comma-separated (`a,b`); the parameter may also repeat (`x=a&x=b`).',
  ]
    .filter((part): part is string => Boolean(part))
    .map((part) => (/[.!?]$/.test(part) ? part : `${part}.`))
    .join(' ');
  return {
    name: arg.name,
    in: 'query',
    required: argumentShape(arg).required,
    ...(description && { description }),
    ...(arg.deprecationReason && { deprecated: true }),
    schema,
    ...(list && { style: 'form', explode: false }),
  };
}

export function requestBody(args: readonly GraphQLArgument[]): Json {
  const properties = Object.fromEntries(
    args.map((arg) => [
      arg.name,
      {
        ...inputSchema(arg),
        ...(arg.description && { description: arg.description }),
      },
    ]),
  );
  const required = args.filter((arg) => argumentShape(arg).required).map((arg) => arg.name);
  return {
    required: true,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties,
          ...(required.length && { required }),
          // Contract: unknown body fields answer 400.
          additionalProperties: false,
        },
      },
    },
  };
}
