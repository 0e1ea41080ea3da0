// Which mutations an Idempotency-Key covers on POST /graphql, and how many of them an operation
// selects. Pure: no I/O here.
import {
  Kind,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** The mutations an Idempotency-Key covers: each issues a secret that is answered only once. */
export const SECRET_ISSUING_FIELDS: ReadonlySet<string> = new Set([
  'createApiKey',
  'rotateApiKey',
  'createWebhookEndpoint',
]);

/**
 * How many of `names` an operation selects at its root, through fragments too. One request with
 * an Idempotency-Key may issue one secret: the key names one answer.
 */
export function rootFieldCount(
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  names: ReadonlySet<string>,
): number {
  const visited = new Set<string>();
  const count = (selectionSet: SelectionSetNode): number =>
    selectionSet.selections.reduce((sum, selection) => {
      if (selection.kind === Kind.FIELD) return sum + (names.has(selection.name.value) ? 1 : 0);
      if (selection.kind === Kind.INLINE_FRAGMENT) return sum + count(selection.selectionSet);
      const fragment = fragments[selection.name.value];
      if (!fragment || visited.has(fragment.name.value)) return sum;
      visited.add(fragment.name.value);
      return sum + count(fragment.selectionSet);
    }, 0);
  return count(operation.selectionSet);
}
