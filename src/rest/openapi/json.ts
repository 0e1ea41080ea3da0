// The loose JSON type the document is written in, and references to its component schemas.

/** A JSON Schema or OpenAPI object, loosely typed: the document is checked by its validator. */
export type Json = Record<string, unknown>;

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
