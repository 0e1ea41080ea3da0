// The REST types' schemas: Sofa's, completed with what GraphQL says of nullability.
import { isNonNullType, isObjectType, type GraphQLSchema } from 'graphql';
import { isGraphqlOnly } from '../../schema/fieldPolicy';
import type { Json } from './json';

/** A property that GraphQL may answer as null: 3.1 spells that as a `null` type. */
function orNull(schema: Json): Json {
  if (typeof schema.$ref === 'string') {
    const { $ref, ...rest } = schema;
    return { ...rest, anyOf: [{ $ref }, { type: 'null' }] };
  }
  const withNull: Json = { ...schema, type: [schema.type, 'null'] };
  if (Array.isArray(schema.enum)) withNull.enum = [...schema.enum, null];
  return withNull;
}

/**
 * Sofa's schemas of the REST types, with every field required (a body always carries every field
 * Sofa selects, null or not) and GraphQL's nullable fields typed as nullable. Fields declared
 * `graphqlOnly` are left out, as the REST answers leave them out (src/rest/sofa.ts).
 */
export function completeSchemas(schema: GraphQLSchema, generated: Record<string, Json>) {
  const schemas: Record<string, Json> = {};
  for (const [name, component] of Object.entries(generated)) {
    const type = schema.getType(name);
    if (name === 'Query' || name === 'Mutation' || !type) continue;
    if (!isObjectType(type)) {
      schemas[name] = component;
      continue;
    }
    const properties = { ...(component.properties as Record<string, Json>) };
    for (const field of Object.values(type.getFields())) {
      if (isGraphqlOnly(field)) delete properties[field.name];
      else if (!isNonNullType(field.type)) properties[field.name] = orNull(properties[field.name]!);
    }
    schemas[name] = { ...component, required: Object.keys(properties), properties };
  }
  return schemas;
}
