// Strict query-string parsing for REST routes. Sofa's own parsing (qs) splits no comma lists,
// turns any boolean but `true` into false and accepts `0x10` as 16, so the facade parses the query
// itself, from the GraphQL arguments of the route's field, and answers 400 naming the parameter.
import { isEnumType, type GraphQLArgument, type GraphQLNamedInputType } from 'graphql';
import { suggestionList } from 'graphql/jsutils/suggestionList';
import { BadRequestError } from '../platform/errors';
import { pageRuleOf } from '../schema/pagination';
import { isUuid, parseDateTime } from '../platform/formats';
import { argumentShape } from './argumentShape';

// Exact forms only: no `+` sign, no spaces, no hex or exponents.
const INT32 = /^-?\d{1,10}$/;
const DIGITS = /^\d+$/;
const DECIMAL = /^-?\d{1,12}(\.\d{1,6})?$/;

function parseScalar(arg: GraphQLArgument, named: GraphQLNamedInputType, raw: string): unknown {
  const { name } = arg;
  // A limit above the maximum is clamped silently (contract), however large the number.
  const rule = pageRuleOf(arg);
  if (name === 'limit' && rule?.aboveMax === 'clamp' && DIGITS.test(raw)) {
    return Math.min(Number(raw), rule.maxLimit);
  }
  if (isEnumType(named)) {
    const allowed = named.getValues().map((value) => value.name);
    if (!allowed.includes(raw)) {
      const [likely] = suggestionList(raw, allowed);
      const hint = likely ? ` (did you mean ${likely}?)` : '';
      throw new BadRequestError(`${name} must be one of: ${allowed.join(', ')}${hint}`);
    }
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

/** The answer header naming the query parameters a route ignored (a typo filters nothing). */
export const IGNORED_PARAMETERS_HEADER = 'X-Ignored-Parameters';

/** Names a header can carry as they are; others are left out of it. */
const PLAIN_NAME = /^[\w.[\]-]{1,64}$/;
const MAX_NAMED = 10;

/** The query parameters that are none of the route's arguments, for IGNORED_PARAMETERS_HEADER. */
export function ignoredParameters(
  args: readonly GraphQLArgument[],
  query: URLSearchParams,
): string[] {
  const known = new Set(args.map((arg) => arg.name));
  const ignored = new Set([...query.keys()].filter((name) => !known.has(name)));
  return [...ignored].filter((name) => PLAIN_NAME.test(name)).slice(0, MAX_NAMED);
}

/**
 * The variables for a route's field from its query string. Lists accept `a,b` and repeated
 * `x=a&x=b`, each item exactly as written (an empty item is malformed); other parameters may
 * appear once; a parameter given empty counts as absent; unknown parameters are ignored.
 */
export function variablesFromQuery(
  args: readonly GraphQLArgument[],
  query: URLSearchParams,
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const arg of args) {
    const raws = query.getAll(arg.name);
    const { named, list, required } = argumentShape(arg);
    if (list) {
      const given = raws.filter(Boolean);
      const items = given.flatMap((raw) => raw.split(','));
      if (items.includes('')) throw new BadRequestError(`${arg.name} has an empty item`);
      if (items.length) variables[arg.name] = items.map((item) => parseScalar(arg, named, item));
    } else if (raws.length > 1) {
      throw new BadRequestError(`${arg.name} must be given once`);
    } else if (raws[0]) {
      variables[arg.name] = parseScalar(arg, named, raws[0]);
    }
    if (required && !(arg.name in variables)) {
      throw new BadRequestError(`${arg.name} is required`);
    }
  }
  return variables;
}
