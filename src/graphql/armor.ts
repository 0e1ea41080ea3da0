// GraphQL abuse limits for /graphql (graphql-armor plugins, every option set here rather than left to
// a default that could change under us). They run in yoga's parse and validate phases, and the
// operation's cost just before it executes, so a refused operation never reaches a resolver or the
// database. The REST facade's executions skip them: it runs the fixed operations Sofa builds
// from the route table, whose pages are bounded by each route's page rule.
//
// The limits sit above what any legitimate operation needs (test/graphql-limits.test.ts proves it
// for every root field at full width, and for all affiliate lists in one operation): the schema
// has no cycles, its deepest field path is 5 (affiliateProducts > data > variants > attributes >
// name), and every list is priced at the rows it can really hold.
import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin, maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { createComplexityRule } from '@pothos/plugin-complexity';
import {
  BREAK,
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  validate,
  visit,
  type DocumentNode,
  type ExecutionResult,
  type ValidationContext,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { BadRequestError } from '../platform/errors';
import { logger } from '../platform/logger';
import type { Context } from '../schema/context';

/** The limits, exported so that tests use the same numbers (docs/hardening.md quotes them). */
export const GRAPHQL_LIMITS = {
  /** Field nesting, fragments counted as a level: 5 for the deepest path, + one fragment per level. */
  maxDepth: 10,
  /**
   * The nesting of an operation asking for the schema (`__schema`), which the data limit leaves
   * out: GraphiQL's schema query (graphql-js's introspection query, 9 levels of `ofType`) is 21.
   */
  maxIntrospectionDepth: 21,
  /** Aliased fields per operation: a dashboard comparing a few filtered lists side by side. */
  maxAliases: 15,
  /** Lexical tokens per document: every field of the schema at once is ~700; introspection ~200. */
  maxTokens: 1000,
  /**
   * An operation's cost (src/schema/complexity.ts: 1 per field, lists multiplied by the rows they
   * can hold, and the work of reports and searches): every affiliate list at full width and
   * default size in one operation costs ~20,500, a year's report by link at its largest page
   * ~18,700. A page of 15 products with every field, each priced at its 50 variants, fits; 100 of
   * them at full width do not (leave out the variants, or ask for fewer).
   */
  maxCost: 22_000,
  /** Directives per operation: only @include and @skip exist; a handful of toggles is plenty. */
  maxDirectives: 10,
} as const;

export interface GraphqlSettings {
  /** Whether `__schema` and `__type` may be queried; off by default in production. */
  introspection: boolean;
  /** Whether GET /graphql from a browser serves GraphiQL; off by default in production. */
  graphiql: boolean;
}

/** A refused operation: HTTP 400 with the contract's 400 code. */
function limitError(error: GraphQLError): BadRequestError {
  return new BadRequestError(error.message.replace(/^Syntax Error: /, ''));
}

/**
 * Reports an exceeded limit as a validation error of the operation (or, while parsing, throws it
 * as a parse error) instead of armor's default of throwing from inside the validator, which yoga
 * would answer with 200. Logged at info: a client error, but one worth seeing in bulk.
 */
function refuse(limit: keyof typeof GRAPHQL_LIMITS) {
  return {
    // Our handler decides what happens; armor must not throw its own error as well.
    propagateOnRejection: false,
    onAccept: [],
    onReject: [
      (context: ValidationContext | null, error: GraphQLError) => {
        logger.info({ limit, message: error.message }, 'GraphQL operation refused');
        const refusal = limitError(error);
        if (!context) throw refusal; // max-tokens runs in the parser, which has no context
        context.reportError(refusal);
      },
    ],
    // The limits are documented (docs/hardening.md), so naming the one exceeded helps and reveals nothing.
    exposeLimits: true,
    errorMessage: 'Operation refused by a GraphQL limit',
  };
}

// Armor masks only `Did you mean "x"?`; graphql-js also suggests enum values
// (`Did you mean the enum value "X"?`), in validation and when coercing variables.
const SUGGESTION = /\s*Did you mean [^?]*\?/g;

function withoutSuggestion<E extends Error>(error: E): E | GraphQLError {
  const message = error.message.replace(SUGGESTION, '');
  if (message === error.message || !(error instanceof GraphQLError)) return error;
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  });
}

/** Hides the schema hints graphql-armor's suggestion blocker leaves in error messages. */
function useHideRemainingSuggestions(): Plugin {
  return {
    onValidate: () =>
      function onValidateEnd({ valid, result, setResult }) {
        if (!valid) setResult(result.map(withoutSuggestion));
      },
    onExecute: () => ({
      onExecuteDone({ result, setResult }) {
        const single = result as ExecutionResult;
        if (single.errors?.length) {
          setResult({ ...single, errors: single.errors.map(withoutSuggestion) });
        }
      },
    }),
  };
}

/**
 * Weighs the operation about to execute by its fields and the rows its lists may hold (their
 * `limit` arguments, variables included), and refuses it above maxCost. Here rather than in the
 * validation phase: the cost depends on the variables, and validation results are cached per
 * document. REST executions (the route operations Sofa builds) are bounded by their page rules instead.
 */
function useOperationCost(): Plugin<Context> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      if (args.contextValue.rest) return;
      let cost = 0;
      // Variables that do not fit the operation are execution's to report, as ever.
      validate(args.schema, args.document, [
        createComplexityRule({
          context: args.contextValue,
          variableValues: (args.variableValues ?? {}) as Record<string, unknown>,
          operationName: args.operationName,
          validate: ({ complexity }) => (cost = complexity),
        }),
      ]);
      if (cost <= GRAPHQL_LIMITS.maxCost) return;
      logger.info({ limit: 'maxCost', cost }, 'GraphQL operation refused');
      const message = `Operation cost limit of ${GRAPHQL_LIMITS.maxCost} exceeded, found ${cost}.`;
      setResultAndStopExecution({ errors: [limitError(new GraphQLError(message))] });
    },
  };
}

/** Whether the document asks for the schema (`__schema`), as GraphiQL's schema query does. */
function asksForSchema(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(node) {
      if (node.name.value !== '__schema') return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

/**
 * The depth limit of an operation asking for the schema, counted over all of it: the data limit
 * leaves `__schema` out, since GraphiQL's schema query is deeper than any data query. Its breadth
 * is bounded by graphql-js's own MaxIntrospectionDepthRule (lists of types within types) and by
 * the token limit.
 */
function useIntrospectionDepth(): Plugin {
  const rule = maxDepthRule({
    n: GRAPHQL_LIMITS.maxIntrospectionDepth,
    ignoreIntrospection: false,
    flattenFragments: false,
    ...refuse('maxIntrospectionDepth'),
  });
  return {
    onValidate({ addValidationRule, params }) {
      if (asksForSchema(params.documentAST)) addValidationRule(rule);
    },
  };
}

/** Refuses `__schema` and `__type` (graphql-js's own rule); `__typename` stays allowed. */
function useDisableIntrospection(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
}

/** The yoga plugins that protect /graphql, in the order they must run. */
export function graphqlArmor(settings: GraphqlSettings): Plugin[] {
  const plugins: Plugin[] = [
    // Parse phase: stops reading a huge document at the first token over the limit.
    maxTokensPlugin({ n: GRAPHQL_LIMITS.maxTokens, ...refuse('maxTokens') }),
    maxDepthPlugin({
      n: GRAPHQL_LIMITS.maxDepth,
      // `__schema` has a depth limit of its own (below): GraphiQL's schema query is deeper than
      // any data query and must keep working where introspection is on.
      ignoreIntrospection: true,
      // Each fragment counts as a level, so nesting fragments cannot hide depth.
      flattenFragments: false,
      ...refuse('maxDepth'),
    }),
    useIntrospectionDepth(),
    maxAliasesPlugin({
      n: GRAPHQL_LIMITS.maxAliases,
      // `__typename` is what client caches alias; it costs nothing.
      allowList: ['__typename'],
      ...refuse('maxAliases'),
    }),
    maxDirectivesPlugin({ n: GRAPHQL_LIMITS.maxDirectives, ...refuse('maxDirectives') }),
    useOperationCost() as Plugin,
  ];
  if (!settings.introspection) {
    plugins.push(
      useDisableIntrospection(),
      // Without introspection, "Did you mean ...?" would be the way to enumerate the schema.
      blockFieldSuggestionsPlugin({ mask: '' }),
      useHideRemainingSuggestions(),
    );
  }
  return plugins;
}
