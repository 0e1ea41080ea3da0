// The JSON Schema of each GraphQL scalar a route reads or answers: Sofa writes them into its
// operations' schemas, and the reference into its parameters and bodies.

/** A scalar's JSON Schema. */
export type ScalarSchema = { type: string; format?: string };

const SCALAR_SCHEMAS: Record<string, ScalarSchema> = {
  Int: { type: 'integer', format: 'int32' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  String: { type: 'string' },
  ID: { type: 'string' },
  DateTime: { type: 'string', format: 'date-time' },
  UUID: { type: 'string', format: 'uuid' },
};

/**
 * The JSON Schema of each scalar, a new object at every lookup. Sofa writes each route variable's
 * description onto the very schema object its `customScalars` hand it (sofa-api's
 * `getRouteSchemas`): a shared object would carry the last route's text into every other.
 */
export const SCALARS: Readonly<Record<string, ScalarSchema>> = Object.defineProperties(
  {},
  Object.fromEntries(
    Object.entries(SCALAR_SCHEMAS).map(([name, schema]) => [
      name,
      { enumerable: true, get: () => ({ ...schema }) },
    ]),
  ),
);
