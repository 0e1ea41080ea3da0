// Strict query-string parsing for REST routes. Sofa's own parsing (qs) splits no comma lists,
// turns any boolean but `true` into false and accepts `0x10` as 16, so the facade parses the query
// itself, from the GraphQL arguments of the route's field, and answers 400 naming the parameter.
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  type GraphQLArgument,
  type GraphQLInputType,
} from 'graphql';
import { BadRequestError } from '../schema/errors';
import { isUuid, parseDateTime } from '../schema/scalars';

const INT32 = /^[+-]?\d{1,10}$/;
const DECIMAL = /^[+-]?\d{1,12}(\.\d{1,6})?$/;

function parseScalar(name: string, type: GraphQLInputType, raw: string): unknown {
  const named = getNamedType(type);
  if (isEnumType(named)) {
    const allowed = named.getValues().map((value) => value.name);
    if (!allowed.includes(raw))
      throw new BadRequestError(`${name} must be one of: ${allowed.join(', ')}`);
    return raw;
  }
  switch (named.name) {
    case 'Int': {
      const value = Number(raw);
      if (!INT32.test(raw) || value > 2 ** 31 - 1 || value < -(2 ** 31)) {
        throw new BadRequestError(`${name} must be an integer`);
      }
      return value;
    }
    case 'Float':
      if (!DECIMAL.test(raw)) throw new BadRequestError(`${name} must be a decimal number`);
      return Number(raw);
    case 'Boolean':
      if (raw !== 'true' && raw !== 'false')
        throw new BadRequestError(`${name} must be true or false`);
      return raw === 'true';
    case 'DateTime':
      if (!parseDateTime(raw)) throw new BadRequestError(`${name} must be an ISO 8601 date-time`);
      return raw;
    case 'UUID':
      if (!isUuid(raw)) throw new BadRequestError(`${name} must be a UUID`);
      return raw;
    default:
      // Length and characters: src/schema/inputLimits.ts, for every transport alike.
      return raw;
  }
}

/**
 * The variables for a route's field from its query string. Lists accept `a,b` and repeated
 * `x=a&x=b`; other parameters may appear once; empty values count as absent; unknown parameters
 * are ignored.
 */
export function variablesFromQuery(
  args: readonly GraphQLArgument[],
  query: URLSearchParams,
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const arg of args) {
    const raws = query.getAll(arg.name);
    const type = getNullableType(arg.type);
    if (isListType(type)) {
      const items = raws
        .flatMap((raw) => raw.split(','))
        .map((item) => item.trim())
        .filter(Boolean);
      if (items.length)
        variables[arg.name] = items.map((item) => parseScalar(arg.name, type, item));
    } else if (raws.length > 1) {
      throw new BadRequestError(`${arg.name} must be given once`);
    } else if (raws[0]) {
      variables[arg.name] = parseScalar(arg.name, type, raws[0]);
    }
  }
  return variables;
}
