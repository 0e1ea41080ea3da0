// graphql-js reads a Float literal with parseFloat and never checks the result, so `1e400` (or an
// integer of 400 digits in a Float position) reaches resolvers as Infinity. A variable holding the
// same number is refused by Float's own coercion; this rule refuses the literal the same way.
import {
  GraphQLError,
  GraphQLFloat,
  getNamedType,
  type FloatValueNode,
  type IntValueNode,
  type ValidationContext,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

function FiniteFloatLiteralsRule(context: ValidationContext) {
  const check = (node: FloatValueNode | IntValueNode) => {
    if (getNamedType(context.getInputType())?.name !== GraphQLFloat.name) return;
    if (Number.isFinite(Number(node.value))) return;
    context.reportError(
      new GraphQLError(`Float cannot represent non-finite value: ${node.value}`, { nodes: node }),
    );
  };
  return { FloatValue: check, IntValue: check };
}

/** Refuses Float literals beyond the range of a double, as Float variables already are. */
export function useFiniteFloatLiterals(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(FiniteFloatLiteralsRule);
    },
  };
}
