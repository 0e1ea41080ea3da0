// The schema of whatever types and fields have been registered on the builder (the feature modules
// register theirs when imported).
import type { GraphQLSchema } from 'graphql';
import { builder } from './builder';
import './scalars';

export function buildSchema(): GraphQLSchema {
  builder.queryType({});
  builder.mutationType({});
  return builder.toSchema({ sortSchema: false });
}
