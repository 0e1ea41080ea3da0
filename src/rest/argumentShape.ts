// What a route's argument takes, as the query-string and body parsers read it and the OpenAPI
// document states it: one walk over GraphQL's wrapping types.
import {
  getNamedType,
  getNullableType,
  isListType,
  isNonNullType,
  type GraphQLArgument,
  type GraphQLNamedInputType,
} from 'graphql';

export interface ArgumentShape {
  /** The scalar, enum or input object a value (or each item of a list) is. */
  named: GraphQLNamedInputType;
  list: boolean;
  /** The request must give it: non-null and without a default. */
  required: boolean;
}

export function argumentShape(arg: GraphQLArgument): ArgumentShape {
  return {
    named: getNamedType(arg.type),
    list: isListType(getNullableType(arg.type)),
    required: isNonNullType(arg.type) && arg.defaultValue === undefined,
  };
}
