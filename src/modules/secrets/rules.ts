// Which mutations an Idempotency-Key covers on POST /graphql, how many of them an operation
// selects, and what a stored answer holds. Pure: no I/O here.
import {
  Kind,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { issuesSecret } from '../../schema/fieldPolicy';

const issuingFieldsBySchema = new WeakMap<GraphQLSchema, ReadonlySet<string>>();

/**
 * The mutations an Idempotency-Key covers: each issues a secret that is answered only once
 * (declared on the field with `issuesSecret: true`, src/schema/fieldPolicy.ts).
 */
export function secretIssuingFields(schema: GraphQLSchema): ReadonlySet<string> {
  let names = issuingFieldsBySchema.get(schema);
  if (!names) {
    const fields = Object.values(schema.getMutationType()?.getFields() ?? {});
    names = new Set(fields.filter(issuesSecret).map((field) => field.name));
    issuingFieldsBySchema.set(schema, names);
  }
  return names;
}

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

/** What is stored for a replay: the id and the sealed secret, nothing in clear. */
export interface StoredIssue {
  id: string;
  sealedSecret: string;
}

/**
 * The id and sealed secret of a stored answer; null when it holds neither. API key records written
 * by earlier releases (replayable for their 24 h across an upgrade) name them `keyId` and
 * `sealedApiKey`.
 */
export function storedIssueOf(body: unknown): StoredIssue | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  const id = record.id ?? record.keyId;
  const sealedSecret = record.sealedSecret ?? record.sealedApiKey;
  return typeof id === 'string' && typeof sealedSecret === 'string' ? { id, sealedSecret } : null;
}
