import { lexicographicSortSchema, printSchema } from 'graphql';
import path from 'node:path';
import type { GraphQLSchema } from 'graphql';

export const SCHEMA_FILE = path.join(__dirname, '..', '..', 'schema.graphql');

export function printedSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
