// What a GraphQL field costs, for the operation cost limit (src/graphql/armor.ts): 1 per field;
// a paginated list multiplies what it selects by the rows its page can hold (its `limit`, clamped
// as the list clamps it), so asking for 100 rows costs 20 times 5; any other list of objects by
// NESTED_LIST_ROWS, what such a list (an order's items, a product's variants) holds at most in
// practice. An envelope's `data` list is priced by its root field, so it multiplies by 1.
import { getNullableType, isListType, type GraphQLField } from 'graphql';
import type { PageArgs, PageRule } from './pagination';

export const NESTED_LIST_ROWS = 5;

/** The rows a page holds: the requested or default limit, within the rule's bounds. */
export function pageSize(args: PageArgs, rule: PageRule): number {
  return Math.min(Math.max(args.limit ?? rule.defaultLimit, 1), rule.maxLimit);
}

export function fieldComplexity<Context>(
  args: Record<string, unknown>,
  _context: Context,
  field: GraphQLField<unknown, Context>,
) {
  const rule = field.args.find((arg) => arg.name === 'limit')?.extensions?.pageRule as
    PageRule | undefined;
  if (rule) return { field: 1, multiplier: pageSize(args as PageArgs, rule) };
  return isListType(getNullableType(field.type)) ? { field: 1, multiplier: NESTED_LIST_ROWS } : 1;
}

/** An envelope's `data`: its root field has counted its rows already. */
export const ENVELOPE_DATA = { field: 1, multiplier: 1 };
