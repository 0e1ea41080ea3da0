import { lexicographicSortSchema, printSchema } from 'graphql';
import path from 'node:path';
import { schema } from '.';

export const SCHEMA_FILE = path.join(__dirname, '..', '..', 'schema.graphql');

export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
