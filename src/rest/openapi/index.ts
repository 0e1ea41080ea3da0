// GET /openapi.json and GET /docs: the REST routes' OpenAPI 3.1 document and a reference page
// rendered from it (Swagger UI, served from node_modules; no CDN). Public, no key.
//
// The document comes from the schema, so it cannot drift from what the routes answer: Sofa's
// generator (the one that mounts the routes) writes the envelope and item schemas from the GraphQL
// types, and this module completes what Sofa cannot know. The facade parses query strings and
// bodies itself (comma lists, strict scalars, unknown body fields refused), so the parameters are
// written from the fields' arguments the way src/rest/queryParams.ts reads them; GraphQL nulls
// become 3.1 `null` types; and the key type, scope, error statuses and quota headers of each route
// are added. test/openapi.test.ts validates the document and checks it against the route table.
export { buildOpenApiDocument, openApiSettingsFromConfig, type OpenApiSettings } from './document';
export { openApiPath } from './parameters';
export { SECURITY_SCHEMES } from './security';
export {
  DOCS_PATH,
  isReferencePath,
  OPENAPI_PATH,
  useApiReference,
  type ReferenceKeys,
} from './serving';
