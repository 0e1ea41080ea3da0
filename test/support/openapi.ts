// The OpenAPI document as a client sees it: fetched from the app, validated by a maintained
// OpenAPI 3.1 validator, and its schemas compiled to check what the app answers.
import { execFileSync } from 'node:child_process';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { app } from './app';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document under test
export type OpenApiDocument = any;

export async function fetchOpenApiDocument(): Promise<OpenApiDocument> {
  const response = await app.fetch('http://api.test/openapi.json');
  if (response.status !== 200) throw new Error(`/openapi.json answered ${response.status}`);
  return response.json();
}

/**
 * The verdict of @seriousme/openapi-schema-validator (the OpenAPI Initiative's JSON schemas for
 * 3.0/3.1, plus $ref resolution). It is an ES module, which jest's CommonJS runtime cannot load,
 * so it runs in a plain node process.
 */
export function validateWithOpenApiSchema(document: OpenApiDocument): {
  valid: boolean;
  errors?: unknown;
} {
  const script = `
    import { Validator } from '@seriousme/openapi-schema-validator';
    let input = '';
    for await (const chunk of process.stdin) input += chunk;
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(input));
    process.stdout.write(JSON.stringify({ ...result, version: validator.version }));
  `;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    input: JSON.stringify(document),
    cwd: `${__dirname}/../..`,
    encoding: 'utf8',
  });
  return JSON.parse(output) as { valid: boolean; errors?: unknown; version: string };
}

/** Validators for the document's component schemas (JSON Schema 2020-12, as OpenAPI 3.1 says). */
export function schemaValidators(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('int32', {
    type: 'number',
    validate: (value: number) => Number.isInteger(value) && Math.abs(value) <= 2 ** 31,
  });
  const defs = JSON.parse(
    JSON.stringify(document.components.schemas).replaceAll('#/components/schemas/', '#/$defs/'),
  );
  ajv.addSchema({ $id: 'oas', $defs: defs });
  const cache = new Map<string, ValidateFunction>();
  return (schemaName: string): ValidateFunction => {
    let validate = cache.get(schemaName);
    if (!validate) {
      validate = ajv.compile({ $ref: `oas#/$defs/${schemaName}` });
      cache.set(schemaName, validate);
    }
    return validate;
  };
}

/** The component schema name a `$ref` points to. */
export function refName(schema: { $ref?: string } | undefined): string {
  const name = schema?.$ref?.split('/').pop();
  if (!name) throw new Error(`not a $ref: ${JSON.stringify(schema)}`);
  return name;
}
