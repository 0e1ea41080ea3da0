// The one check of text and list inputs, whatever the transport (query string, JSON body,
// /graphql): after GraphQL has coerced a field's arguments and before its resolver (and its scope
// check) runs, every string is at most its length and free of control characters (PostgreSQL
// cannot hold NUL, and no field needs the others), and every list at most MAX_LIST_ITEMS items.
// An argument may declare its own length (`extensions: { maxLength }`); the OpenAPI document reads
// the same numbers (maxLengthOf, maxItemsOf).
import SchemaBuilder, { BasePlugin, type SchemaTypes } from '@pothos/core';
import {
  getNullableType,
  isInputObjectType,
  isListType,
  type GraphQLArgument,
  type GraphQLFieldResolver,
  type GraphQLInputField,
  type GraphQLInputType,
} from 'graphql';
import { BadRequestError } from '../platform/errors';

/** Characters of a text input unless its argument says otherwise. */
export const MAX_TEXT_LENGTH = 500;
/** Characters of a URL input: any real URL (browsers and CDNs stop near 2,000), short of abuse. */
export const MAX_URL_LENGTH = 2048;
/** Items of any list input: enough for any real filter, far short of a query-planner bomb. */
export const MAX_LIST_ITEMS = 100;

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTERS.test(value);
}

type Input = Pick<GraphQLArgument | GraphQLInputField, 'name' | 'type' | 'extensions'>;

export function maxLengthOf(input: Pick<Input, 'extensions'>): number {
  return (input.extensions?.maxLength as number | undefined) ?? MAX_TEXT_LENGTH;
}

export const maxItemsOf = (_input: Input): number => MAX_LIST_ITEMS;

/** A text value's refusal, or null: one rule for every source of text. */
export function textRefusal(name: string, value: string, maxLength = MAX_TEXT_LENGTH) {
  if (value.length > maxLength) return `${name} must be at most ${maxLength} characters`;
  if (hasControlCharacters(value)) return `${name} must not contain control characters`;
  return null;
}

function check(name: string, input: Input, type: GraphQLInputType, value: unknown): void {
  if (value === null || value === undefined) return;
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    const items = value as unknown[];
    if (items.length > maxItemsOf(input)) {
      throw new BadRequestError(`${name} takes at most ${maxItemsOf(input)} items`);
    }
    for (const item of items) check(name, input, nullable.ofType, item);
  } else if (isInputObjectType(nullable)) {
    checkInputs(`${name}.`, Object.values(nullable.getFields()), value as Record<string, unknown>);
  } else if (typeof value === 'string') {
    const refusal = textRefusal(name, value, maxLengthOf(input));
    if (refusal) throw new BadRequestError(refusal);
  }
}

function checkInputs(prefix: string, inputs: readonly Input[], values: Record<string, unknown>) {
  for (const input of inputs)
    check(`${prefix}${input.name}`, input, input.type, values[input.name]);
}

export class InputLimitsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: { args: Record<string, unknown> },
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    if (Object.keys(fieldConfig.args).length === 0) return resolver;
    return (parent, args, context, info) => {
      const { args: inputs } = info.parentType.getFields()[info.fieldName]!;
      checkInputs('', inputs, args as Record<string, unknown>);
      return resolver(parent, args, context, info);
    };
  }
}

/** The plugin's name, as the builder's `plugins` list takes it. */
export const INPUT_LIMITS_PLUGIN = 'inputLimits';
SchemaBuilder.registerPlugin(INPUT_LIMITS_PLUGIN, InputLimitsPlugin);

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      inputLimits: InputLimitsPlugin<Types>;
    }
  }
}
