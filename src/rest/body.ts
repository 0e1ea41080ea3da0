// Strict JSON bodies for REST routes. On POST, Sofa drops unknown keys silently, reads arguments
// from the query string too, ignores Content-Type and coerces JSON numbers to strings; so the
// facade reads the body itself, checks it against the GraphQL arguments of the route's field, and
// answers 400 naming the field (contract: unknown body fields cause 400).
import {
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLArgument,
  type GraphQLInputField,
  type GraphQLInputType,
} from 'graphql';
import { BadRequestError, shown } from '../errors';
import { isUuid, parseDateTime } from '../formats';

/** The body's JSON; an empty body is an empty object (a route whose arguments are all optional). */
export function parseJsonBody(text: string): unknown {
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequestError('The body must be valid JSON');
  }
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Length and characters: src/schema/inputLimits.ts, for every transport alike. */
function checkString(name: string, value: unknown): string {
  if (typeof value !== 'string') throw new BadRequestError(`${name} must be a string`);
  return value;
}

function checkScalar(name: string, typeName: string, value: unknown): unknown {
  switch (typeName) {
    case 'Int':
      if (
        !Number.isInteger(value) ||
        (value as number) > 2 ** 31 - 1 ||
        (value as number) < -(2 ** 31)
      ) {
        throw new BadRequestError(`${name} must be an integer`);
      }
      return value;
    case 'Float':
      if (typeof value !== 'number') throw new BadRequestError(`${name} must be a number`);
      return value;
    case 'Boolean':
      if (typeof value !== 'boolean') throw new BadRequestError(`${name} must be true or false`);
      return value;
    case 'DateTime':
      if (!parseDateTime(value)) throw new BadRequestError(`${name} must be an ISO 8601 date-time`);
      return value;
    case 'UUID':
      if (!isUuid(value)) throw new BadRequestError(`${name} must be a UUID`);
      return value;
    default:
      // String, ID and any other scalar: a JSON string (GraphQL would take 12 as the ID "12").
      return checkString(name, value);
  }
}

/** Unknown fields a 400 names; the rest are counted. */
const NAMED_UNKNOWN_FIELDS = 5;

/** Checks that the named fields are all known; names the unknown ones. */
function checkKnownFields(body: Record<string, unknown>, known: readonly string[], within = '') {
  const unknown = Object.keys(body).filter((name) => !known.includes(name));
  if (unknown.length) {
    const named = unknown.slice(0, NAMED_UNKNOWN_FIELDS).map((name) => shown(`${within}${name}`));
    const more = unknown.length - named.length;
    throw new BadRequestError(
      `Unknown field${unknown.length > 1 ? 's' : ''} ${named.join(', ')}${more ? ` and ${more} more` : ''}`,
    );
  }
}

function checkFields(
  path: string,
  fields: readonly (GraphQLArgument | GraphQLInputField)[],
  body: Record<string, unknown>,
): Record<string, unknown> {
  checkKnownFields(
    body,
    fields.map((field) => field.name),
    path,
  );
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    const value = checkValue(`${path}${field.name}`, field.type, body[field.name]);
    if (value !== undefined && value !== null) values[field.name] = value;
  }
  return values;
}

/** A value checked against its GraphQL input type; undefined when absent. */
function checkValue(name: string, type: GraphQLInputType, value: unknown): unknown {
  if (value === undefined || value === null) {
    if (isNonNullType(type)) {
      throw new BadRequestError(
        value === null ? `${name} must not be null` : `${name} is required`,
      );
    }
    return value;
  }
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    if (!Array.isArray(value)) throw new BadRequestError(`${name} must be an array`);
    return value.map((item, index) =>
      checkValue(`${name}[${index}]`, nullable.ofType as GraphQLInputType, item),
    );
  }
  if (isEnumType(nullable)) {
    const allowed = nullable.getValues().map((enumValue) => enumValue.name);
    if (typeof value !== 'string' || !allowed.includes(value)) {
      throw new BadRequestError(`${name} must be one of: ${allowed.join(', ')}`);
    }
    return value;
  }
  if (isInputObjectType(nullable)) {
    if (!isJsonObject(value)) throw new BadRequestError(`${name} must be an object`);
    return checkFields(`${name}.`, Object.values(nullable.getFields()), value);
  }
  return checkScalar(name, nullable.name, value);
}

/**
 * The variables for a route's field from its JSON body: a JSON object whose keys are the field's
 * arguments, each of the argument's JSON type. Unknown keys, wrong types and missing required
 * arguments are 400s naming the field; `null` counts as absent for optional arguments.
 */
export function variablesFromBody(
  args: readonly GraphQLArgument[],
  body: unknown,
): Record<string, unknown> {
  if (!isJsonObject(body)) throw new BadRequestError('The body must be a JSON object');
  return checkFields('', args, body);
}
