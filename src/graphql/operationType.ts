// What kind of operation an execution runs, for the plugins that act on mutations only.
import { getOperationAST, OperationTypeNode, type DocumentNode } from 'graphql';

/** Whether the execution's operation (the named one, or the only one) is a mutation. */
export function isMutation(args: {
  document: DocumentNode;
  operationName?: string | null;
}): boolean {
  return (
    getOperationAST(args.document, args.operationName)?.operation === OperationTypeNode.MUTATION
  );
}
