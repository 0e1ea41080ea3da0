// What kind of operation an execution runs, for the plugins that act on mutations only (the
// management limit, the response cache's invalidation). Looked up once per document and operation
// name: a REST route's document is prepared once, and yoga's parser cache hands /graphql the same
// document for the same text, so every plugin of every execution shares the one answer.
import { getOperationAST, OperationTypeNode, type DocumentNode } from 'graphql';

const operationTypes = new WeakMap<DocumentNode, Map<string, OperationTypeNode | undefined>>();

function operationTypeOf(document: DocumentNode, operationName: string | null | undefined) {
  let byName = operationTypes.get(document);
  if (!byName) {
    byName = new Map();
    operationTypes.set(document, byName);
  }
  const name = operationName ?? '';
  if (!byName.has(name)) byName.set(name, getOperationAST(document, operationName)?.operation);
  return byName.get(name);
}

/** Whether the execution's operation (the named one, or the only one) is a mutation. */
export function isMutation(args: {
  document: DocumentNode;
  operationName?: string | null;
}): boolean {
  return operationTypeOf(args.document, args.operationName) === OperationTypeNode.MUTATION;
}
