// What a GraphQL field costs, for the operation cost limit (src/graphql/armor.ts): 1 per field,
// and a list multiplies what it selects by the rows it can really hold. Every list of objects
// declares that number with `listOf`, beside the cap that bounds what it answers: a list route its
// page size (src/schema/lists.ts), any other list the cap its resolver applies (an order's items,
// a delivery's attempts, the newest events of a key). An envelope's `data` list is priced by its
// root field, so it multiplies by 1. A field whose statement does work beyond its rows (a report's
// period, a substring search) adds that work to its own cost; a stored text, its size.
import {
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  type GraphQLField,
  type GraphQLOutputType,
} from 'graphql';

/**
 * What a list of objects that declared no bound is priced at: as if it were very long, so that a
 * list nobody bounded is never cheap (test/graphql-limits.test.ts requires every one to declare).
 */
const UNDECLARED_LIST_ROWS = 1_000;

/** Whether a field's type is a list of objects: the lists whose rows multiply a cost. */
export function isListOfObjects(type: GraphQLOutputType): boolean {
  const named = getNamedType(type);
  return isListType(getNullableType(type)) && (isObjectType(named) || isInterfaceType(named));
}

export function fieldComplexity<Context>(
  _args: Record<string, unknown>,
  _context: Context,
  field: GraphQLField<unknown, Context>,
) {
  return isListOfObjects(field.type) ? { field: 1, multiplier: UNDECLARED_LIST_ROWS } : 1;
}

/** The cost of a list that holds at most `rows` rows (its resolver answers no more). */
export function listOf(rows: number) {
  return { field: 1, multiplier: rows };
}

/** How many bytes of an answer a point of cost stands for, in the fields priced by their size. */
const BYTES_PER_POINT = 256;

/**
 * The cost of a stored text as large as `maxBytes` once written out as JSON (a kept answer, a
 * rendered request): a point per 256 bytes, so the cost limit bounds the bytes an operation can
 * ask for before any resolver runs, not only the answer's size after it was built.
 */
export function storedTextOf(maxBytes: number): number {
  return Math.ceil(maxBytes / BYTES_PER_POINT);
}

/** An envelope's `data`: its root field has counted its rows already. */
export const ENVELOPE_DATA = listOf(1);

/**
 * What a substring search adds to its list (`search`, `name`): a trigram index read, each
 * candidate row rechecked (a short term matches much of a big list), and a total of its own
 * (searches rarely share a remembered total). Priced like the reports' work (about 10 units per
 * millisecond of the database at scale, src/modules/reports/performanceRows.ts) for a search that
 * rechecks much of the big account: a dozen fit in one operation, fifteen aliases do not.
 */
export const SEARCH_COST = 1_500;

/** The work of a list's search arguments: SEARCH_COST for each one given. */
export function searchWork(...terms: (string | null | undefined)[]): number {
  return (
    terms.filter((term) => term !== null && term !== undefined && term !== '').length * SEARCH_COST
  );
}
