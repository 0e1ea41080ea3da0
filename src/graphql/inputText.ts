// String inputs of GraphQL operations carry no control characters, as on REST (src/rest/body.ts,
// src/rest/queryParams.ts): PostgreSQL cannot hold a NUL character at all, so one reaching a query
// was a database error answered 500 (found by test/fuzz.test.ts), and no field of this schema has
// a use for the others. Checked before execution: string literals of the document, and the values
// of the variables the operation declares.
import {
  BREAK,
  Kind,
  visit,
  type ArgumentNode,
  type DocumentNode,
  type VariableDefinitionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { BadRequestError } from '../schema/errors';
import { hasControlCharacters } from '../schema/scalars';

function hasControlCharacter(value: unknown): boolean {
  if (typeof value === 'string') return hasControlCharacters(value);
  if (Array.isArray(value)) return value.some(hasControlCharacter);
  if (typeof value === 'object' && value !== null) {
    return Object.values(value).some(hasControlCharacter);
  }
  return false;
}

/** The name of the first string input holding a control character, or null. */
export function inputWithControlCharacter(
  document: DocumentNode,
  variables: Readonly<Record<string, unknown>> | null | undefined,
): string | null {
  let found: string | null = null;
  const declared: string[] = [];
  visit(document, {
    VariableDefinition(node) {
      declared.push(node.variable.name.value);
    },
    // Every string literal of an executable document is an input: an argument, a variable's
    // default, an item of either.
    StringValue(node, _key, parent, _path, ancestors) {
      if (found || !hasControlCharacters(node.value)) return;
      // `ancestors` stops short of the parent.
      const owner = [...ancestors, parent]
        .reverse()
        .find(
          (ancestor): ancestor is ArgumentNode | VariableDefinitionNode =>
            !!ancestor &&
            'kind' in ancestor &&
            (ancestor.kind === Kind.ARGUMENT || ancestor.kind === Kind.VARIABLE_DEFINITION),
        );
      found =
        owner?.kind === Kind.ARGUMENT
          ? owner.name.value
          : owner
            ? `$${owner.variable.name.value}`
            : 'A string';
      return BREAK;
    },
  });
  if (found) return found;
  const variable = declared.find((name) => hasControlCharacter(variables?.[name]));
  return variable ? `$${variable}` : null;
}

export function useRefuseControlCharacters(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const input = inputWithControlCharacter(args.document, args.variableValues);
      if (input) {
        setResultAndStopExecution({
          errors: [new BadRequestError(`${input} must not contain control characters`)],
        });
      }
    },
  };
}
