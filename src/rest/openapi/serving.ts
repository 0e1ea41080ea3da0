// Serving: GET /openapi.json (the document, made once from the schema), GET /docs (Swagger UI,
// from node_modules, under a strict CSP) and the page's assets.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../schema/context';
import type { OpenApiSettings } from './document';
import type { Json } from './json';
import { Response } from '../../platform/fetchApi';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_UI_VERSION = (
  JSON.parse(readFileSync(path.join(SWAGGER_UI_DIR, 'package.json'), 'utf8')) as {
    version: string;
  }
).version;
/** Asset URLs carry the renderer's version, so browsers may keep them for good. */
const ASSETS_PATH = `${DOCS_PATH}/assets/${SWAGGER_UI_VERSION}`;

// A Map, not an object: an asset name is the client's text, and `__proto__` or `toString` must
// find nothing rather than Object.prototype's members.
const FILE_ASSETS = new Map<string, { file: string; type: string }>([
  ['swagger-ui-bundle.js', { file: 'swagger-ui-bundle.js', type: 'text/javascript' }],
  ['swagger-ui.css', { file: 'swagger-ui.css', type: 'text/css' }],
  ['favicon-32x32.png', { file: 'favicon-32x32.png', type: 'image/png' }],
]);

/** The keys a development installation's reference page is authorized with, per scheme. */
export type ReferenceKeys = Readonly<Record<string, string>> | null;

/**
 * The page's start-up script, a file rather than inline so the page's CSP can forbid inline
 * scripts. Swagger UI looks up a form component per item format (`JsonSchema_string_uuid` for
 * lists of ids) and warns when it has none: a uuid is edited as the string it is. On a development
 * installation the Authorize dialog holds the demo keys, so "Try it out" answers at once.
 */
function initScript(keys: ReferenceKeys): string {
  const authorize = Object.entries(keys ?? {})
    .map(
      ([scheme, key]) =>
        `    ui.preauthorizeApiKey(${JSON.stringify(scheme)}, ${JSON.stringify(key)});`,
    )
    .join('\n');
  return `const uuidAsString = (system) => ({
  components: {
    JsonSchema_string_uuid: (props) =>
      system.React.createElement(system.getComponent('JsonSchema_string'), props),
  },
});
const ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  plugins: [uuidAsString],
  dom_id: '#reference',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  displayRequestDuration: true,
  persistAuthorization: false,
  tryItOutEnabled: false,
  validatorUrl: null,
  onComplete: () => {
${authorize}
  },
});
window.ui = ui;
`;
}

const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Affiliate network API reference</title>
    <link rel="icon" type="image/png" href="${ASSETS_PATH}/favicon-32x32.png" />
    <link rel="stylesheet" href="${ASSETS_PATH}/swagger-ui.css" />
  </head>
  <body>
    <noscript>The reference needs JavaScript; the document itself is at ${OPENAPI_PATH}.</noscript>
    <div id="reference"></div>
    <script src="${ASSETS_PATH}/swagger-ui-bundle.js"></script>
    <script src="${ASSETS_PATH}/init.js"></script>
  </body>
</html>
`;

function docsPageHeaders(serverUrl: string): Record<string, string> {
  let apiOrigin = '';
  try {
    apiOrigin = new URL(serverUrl).origin;
  } catch {
    // A relative server URL is this origin.
  }
  return {
    'Content-Type': 'text/html; charset=utf-8',
    // Everything comes from this server; "try it out" may call the documented server.
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self'",
      // Swagger UI sets element styles from script.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      `connect-src 'self' ${apiOrigin}`.trim(),
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
}

const fileCache = new Map<string, Uint8Array<ArrayBuffer>>();

function fileAsset(name: string): { body: Uint8Array<ArrayBuffer>; type: string } | null {
  const asset = FILE_ASSETS.get(name);
  if (!asset) return null;
  let body = fileCache.get(name);
  if (!body) {
    body = new Uint8Array(readFileSync(path.join(SWAGGER_UI_DIR, asset.file)));
    fileCache.set(name, body);
  }
  return { body, type: asset.type };
}

function assetResponse(name: string, init: string): Response | null {
  const asset = name === 'init.js' ? { body: init, type: 'text/javascript' } : fileAsset(name);
  if (!asset) return null;
  return new Response(asset.body, {
    headers: {
      'Content-Type': asset.type,
      // The start-up script names this installation's keys: kept, but not for good.
      'Cache-Control': name === 'init.js' ? 'no-cache' : 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/** The reference's paths: public, and outside the quota like the probes (src/http/edge.ts). */
export function isReferencePath(pathname: string): boolean {
  return (
    pathname === OPENAPI_PATH || pathname === DOCS_PATH || pathname.startsWith(`${DOCS_PATH}/`)
  );
}

/**
 * Serves GET /openapi.json (the document, made once from the schema), GET /docs (the reference
 * page) and the page's assets. Public: no key, no quota count.
 */
export function useApiReference(
  openApiDocument: () => Json,
  { serverUrl }: Pick<OpenApiSettings, 'serverUrl'>,
  referenceKeys: ReferenceKeys,
): Plugin<Context> {
  let document: string | undefined;
  const init = initScript(referenceKeys);
  return {
    onSchemaChange() {
      document = undefined;
    },
    onRequest({ request, url, endResponse }) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      if (url.pathname === OPENAPI_PATH) {
        document ??= JSON.stringify(openApiDocument(), null, 2);
        endResponse(
          new Response(document, {
            headers: {
              'Content-Type': 'application/json; charset=utf-8',
              'Cache-Control': 'no-cache',
              'Access-Control-Allow-Origin': '*',
            },
          }),
        );
      } else if (url.pathname === DOCS_PATH || url.pathname === `${DOCS_PATH}/`) {
        endResponse(new Response(DOCS_PAGE, { headers: docsPageHeaders(serverUrl) }));
      } else if (url.pathname.startsWith(`${ASSETS_PATH}/`)) {
        const response = assetResponse(url.pathname.slice(ASSETS_PATH.length + 1), init);
        if (response) endResponse(response);
      }
    },
  };
}
