import type { Json } from './json';

/** A part of the OpenAPI document that is not a route of the table: a module's or the probes'. */
export interface OpenApiFragment {
  paths?: Record<string, Record<string, Json>>;
  /** The document's `webhooks`: requests the service sends. */
  webhooks?: Record<string, Json>;
  schemas?: Record<string, Json>;
  tags?: string[];
  /** A paragraph of the document's description. */
  description?: string;
}
