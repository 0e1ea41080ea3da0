// Strict JSON bodies for REST routes (contract: unknown body fields cause 400). Each value is
// checked against its argument's GraphQL input type by graphql-js itself (coerceInputValue: types,
// int32, enums, input objects and their unknown fields, the scalars' own parsing); what GraphQL
// allows and a body must not: unknown top-level keys, an id given as a number (GraphQL would take
// 12 as the ID "12"), a single value for a list. Text length and characters:
// src/schema/inputLimits.ts, as everywhere.
import { coerceInputValue, isNonNullType, type GraphQLArgument } from 'graphql';
import { BadRequestError, shown } from '../platform/errors';
import { JSON_TOO_DEEP, jsonNestsTooDeep } from '../limits/jsonDepth';
import { argumentShape } from './argumentShape';

/**
 * The body's JSON; an empty body is an empty object (a route whose arguments are all optional).
 * Nesting past MAX_JSON_DEPTH is refused before parsing.
 */
export function parseJsonBody(text: string): unknown {
  if (!text.trim()) return {};
  if (jsonNestsTooDeep(text)) throw new BadRequestError(JSON_TOO_DEEP);
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequestError('The body must be valid JSON');
  }
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Unknown fields a 400 names; the rest are counted. */
const NAMED_UNKNOWN_FIELDS = 5;

function refuseUnknownFields(body: Record<string, unknown>, known: readonly string[]): void {
  const unknown = Object.keys(body).filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const named = unknown.slice(0, NAMED_UNKNOWN_FIELDS).map(shown);
  const more = unknown.length - named.length;
  throw new BadRequestError(
    `Unknown field${unknown.length > 1 ? 's' : ''} ${named.join(', ')}${more ? ` and ${more} more` : ''}`,
  );
}

/**
 * What GraphQL's input coercion lets through and a JSON body must not: an id given as a number,
 * and a single value where the argument is a list.
 */
function refuseLooseValues(arg: GraphQLArgument, value: unknown): void {
  const { named, list } = argumentShape(arg);
  if (list && !Array.isArray(value)) throw new BadRequestError(`${arg.name} must be an array`);
  const ids = named.name === 'ID' ? [value].flat() : [];
  if (ids.some((id) => typeof id === 'number')) {
    throw new BadRequestError(`${arg.name} must be a string`);
  }
}

/** `organizationId`, `tags[1]`, `period.startAt`: where in the body a value stands. */
function pathName(name: string, path: readonly (string | number)[]): string {
  return path.reduce<string>(
    (at, step) => (typeof step === 'number' ? `${at}[${step}]` : `${at}.${step}`),
    name,
  );
}

/**
 * The variables for a route's field from its JSON body: a JSON object whose keys are the field's
 * arguments, each of the argument's type. A 400 names what is wrong; `null` counts as absent for
 * optional arguments. The values are passed on as the client wrote them (execution coerces them).
 */
export function variablesFromBody(
  args: readonly GraphQLArgument[],
  body: unknown,
): Record<string, unknown> {
  if (!isJsonObject(body)) throw new BadRequestError('The body must be a JSON object');
  refuseUnknownFields(
    body,
    args.map((arg) => arg.name),
  );
  const variables: Record<string, unknown> = {};
  for (const arg of args) {
    const value = body[arg.name];
    if (value === undefined || value === null) {
      if (value === null ? isNonNullType(arg.type) : argumentShape(arg).required) {
        throw new BadRequestError(
          value === null ? `${arg.name} must not be null` : `${arg.name} is required`,
        );
      }
      continue;
    }
    refuseLooseValues(arg, value);
    coerceInputValue(value, arg.type, (path, _invalid, error) => {
      // A scalar's own refusal says it best ("abc" is not a UUID); graphql-js's otherwise.
      const reason = error.originalError?.message ?? error.message;
      throw new BadRequestError(`${pathName(arg.name, path)}: ${reason}`);
    });
    variables[arg.name] = value;
  }
  return variables;
}
