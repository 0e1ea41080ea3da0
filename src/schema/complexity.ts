// What a GraphQL field costs, for the operation cost limit (src/graphql/armor.ts): 1 per field; a
// list multiplies what it selects by the rows it may hold. A list route declares its own (its page
// size, src/schema/lists.ts); any other list of objects (an order's items, a product's variants)
// counts NESTED_LIST_ROWS, what such a list holds at most in practice. An envelope's `data` list is
// priced by its root field, so it multiplies by 1.
import { getNullableType, isListType, type GraphQLField } from 'graphql';

const NESTED_LIST_ROWS = 5;

export function fieldComplexity<Context>(
  _args: Record<string, unknown>,
  _context: Context,
  field: GraphQLField<unknown, Context>,
) {
  return isListType(getNullableType(field.type)) ? { field: 1, multiplier: NESTED_LIST_ROWS } : 1;
}

/** An envelope's `data`: its root field has counted its rows already. */
export const ENVELOPE_DATA = { field: 1, multiplier: 1 };
