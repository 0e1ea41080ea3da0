// GET /openapi.json: a valid OpenAPI 3.1 document of exactly the route table, whose parameters,
// scopes, envelopes and errors agree with the schema and with what the app answers.
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
} from 'graphql';
import { SCOPES_BY_KEY_TYPE } from '../src/auth/scopes';
import { restSchema } from '../src/rest/sofa';
import { keyAuthOf, openApiPath } from '../src/rest/openapi';
import { MAX_LIST_ITEMS, MAX_TEXT_LENGTH } from '../src/schema/inputLimits';
import { IGNORED_PARAMETERS_HEADER } from '../src/rest/queryParams';
import { routeField, ROUTES, surfaceOf, type RestRoute } from '../src/rest/routes';
import { schema as fullSchema } from '../src/schema';
import { pageRuleOf, type PaginatedRule } from '../src/schema/pagination';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { app, call, useTestDatabase } from './support/app';
import { createAffiliate, createApiKey, createBrand, createCampaign } from './support/factories';
import {
  fetchOpenApiDocument,
  refName,
  schemaValidators,
  validateWithOpenApiSchema,
  type OpenApiDocument,
} from './support/openapi';

useTestDatabase();

const schema = restSchema(fullSchema);

const fieldOf = (route: RestRoute) => routeField(schema, route);

/** The route's required query parameters, each with a valid value (`groupBy=day&`), or ''. */
function requiredQueryOf(route: RestRoute): string {
  return fieldOf(route)
    .args.filter((arg) => isNonNullType(arg.type) && !route.path.includes(`:${arg.name}`))
    .map((arg) => {
      const type = getNamedType(arg.type);
      if (!isEnumType(type)) throw new Error(`no test value for required ${arg.name}`);
      return `${arg.name}=${type.getValues()[0]!.name}&`;
    })
    .join('');
}

/** The page rule the route's resolver applies (its `limit` argument carries it). */
function pageRuleOfRoute(route: RestRoute): PaginatedRule | undefined {
  const limit = fieldOf(route).args.find((arg) => arg.name === 'limit');
  return limit && pageRuleOf(limit);
}

const operationOf = (document: OpenApiDocument, route: RestRoute) =>
  document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];

/** Fills a route's path parameters. */
const pathOf = (route: RestRoute, params: Record<string, string> = {}) =>
  route.path.replace(/:(\w+)/g, (_match, name: string) => params[name] ?? 'unknown');

let document: OpenApiDocument;
let validator: ReturnType<typeof schemaValidators>;

beforeAll(async () => {
  document = await fetchOpenApiDocument();
  validator = schemaValidators(document);
});

describe('GET /openapi.json', () => {
  it('is public JSON: no key, no quota headers', async () => {
    const response = await call('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    expect(response.body.openapi).toBe('3.1.0');
  });

  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', () => {
    const result = validateWithOpenApiSchema(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('is refused by the same validator when broken (the check is not vacuous)', () => {
    const { info: _info, ...withoutInfo } = document;
    expect(validateWithOpenApiSchema(withoutInfo).valid).toBe(false);
    expect(validator('ShortUrl')({ urlCode: 'abc' })).toBe(false);
  });

  it('has every $ref resolving inside the document', () => {
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(50);
    for (const pointer of new Set(refs)) {
      const target = pointer.split('/').reduce((node, key) => node?.[key], document);
      expect({ pointer, found: target !== undefined }).toEqual({ pointer, found: true });
    }
  });
});

describe('GET /docs assets', () => {
  /** GET over a connection of its own (`Connection: close`): the status, once the answer ended. */
  function getOnce(url: string): Promise<number> {
    return new Promise((resolve, reject) => {
      request(url, { agent: false }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      })
        .on('error', reject)
        .end();
    });
  }

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'a name of an object member (%s) answers 404 and holds no connection',
    async (name) => {
      const server = createServer(app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const page = await (await fetch(`${origin}/docs`)).text();
        const assets = /href="(\/docs\/assets\/[^/]+)\//.exec(page)![1]!;
        const statuses = await Promise.all(
          Array.from({ length: 10 }, () => getOnce(`${origin}${assets}/${name}`)),
        );
        expect(statuses).toEqual(Array(10).fill(404));
        expect(await getOnce(`${origin}${assets}/swagger-ui.css`)).toBe(200);
        const openConnections = () =>
          new Promise<number>((resolve) => server.getConnections((_, count) => resolve(count)));
        while ((await openConnections()) > 0) await new Promise((r) => setTimeout(r, 10));
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  );
});

describe('the document and the route table', () => {
  it('documents exactly the routes of the table, and the public redirect', () => {
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const routed = ROUTES.map((route) => `${route.method} ${openApiPath(route.path)}`);
    expect(documented.sort()).toEqual([...routed, 'GET /s/{urlCode}'].sort());
  });

  it('documents the redirect as public: no key, 302 with Location, 404', () => {
    const redirect = (document.paths['/s/{urlCode}'] as { get: Record<string, unknown> }).get;
    expect(redirect.security).toEqual([]);
    expect(Object.keys(redirect.responses as object).sort()).toEqual(['302', '404']);
  });

  it.each(ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: operation id, key type, scope and responses',
    (_name, route) => {
      const field = fieldOf(route);
      const operation = operationOf(document, route);
      const surface = surfaceOf(route.path)!;
      const { keyType, scope } = keyAuthOf(field);
      expect(operation.operationId).toBe(field.name);
      expect(operation.summary).toEqual(expect.any(String));
      expect(keyType).toBe(surface.keyType);
      expect(SCOPES_BY_KEY_TYPE[keyType]).toContain(scope);
      expect(operation.security).toEqual([{ apiKey: [scope] }]);
      expect(operation['x-required-scopes']).toEqual([scope]);
      expect(operation['x-key-type']).toBe(keyType);
      expect(operation.description).toContain(`\`${scope}\``);

      const statuses = Object.keys(operation.responses);
      expect(statuses).toEqual(expect.arrayContaining(['401', '403', '429', '500']));
      if (field.deprecationReason) {
        expect(operation.deprecated).toBe(true);
        expect(statuses).toContain('410');
        return;
      }
      const success = String(route.responseStatus ?? 200);
      const answer = operation.responses[success];
      // The body is the field's GraphQL type: the envelope.
      expect(refName(answer.content['application/json'].schema)).toBe(
        getNamedType(field.type).name,
      );
      for (const header of ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining']) {
        expect(answer.headers[header]).toBeDefined();
      }
      if (route.path.includes(':')) expect(statuses).toContain('404');
    },
  );

  it.each(ROUTES.filter((route) => !fieldOf(route).deprecationReason).map((r) => [r.path, r]))(
    '%s: a parameter for every argument, typed like the facade parses it',
    (_name, route) => {
      const field = fieldOf(route);
      const operation = operationOf(document, route);
      const parameters = (operation.parameters ?? []).filter((p: { in?: string }) => p.in);
      for (const arg of field.args) {
        const inPath = route.path.includes(`:${arg.name}`);
        if (route.method === 'POST' && !inPath) {
          const body = operation.requestBody.content['application/json'].schema;
          expect(body.additionalProperties).toBe(false);
          expect(body.properties[arg.name]).toBeDefined();
          continue;
        }
        const parameter = parameters.find((p: { name: string }) => p.name === arg.name);
        expect(parameter).toMatchObject({ in: inPath ? 'path' : 'query' });
        const type = getNullableType(arg.type);
        const named = getNamedType(arg.type);
        const itemSchema = isListType(type) ? parameter.schema.items : parameter.schema;
        if (isListType(type)) {
          expect(parameter).toMatchObject({ style: 'form', explode: false });
          expect(parameter.schema).toMatchObject({ type: 'array', maxItems: MAX_LIST_ITEMS });
        }
        expect(itemSchema.type).toEqual(expect.any(String));
        if (isEnumType(named)) {
          expect(itemSchema.enum).toEqual(named.getValues().map((value) => value.name));
        }
        if (named.name === 'String' && !inPath) {
          expect(itemSchema.maxLength).toBe(MAX_TEXT_LENGTH);
        }
      }
      const argNames = new Set(field.args.map((arg) => arg.name));
      for (const parameter of parameters) expect(argNames).toContain(parameter.name);
    },
  );

  it('states a page rule for every paginated route: a maximum only where the route refuses above it', () => {
    for (const route of ROUTES) {
      const field = fieldOf(route);
      if (field.deprecationReason || !field.args.some((arg) => arg.name === 'limit')) continue;
      const rule = pageRuleOfRoute(route);
      expect({ route: route.path, rule }).toEqual({ route: route.path, rule: expect.any(Object) });
      const parameters = operationOf(document, route).parameters;
      const limit = parameters.find((p: { name: string }) => p.name === 'limit');
      const page = parameters.find((p: { name: string }) => p.name === 'page');
      expect(limit.schema).toEqual({
        type: 'integer',
        minimum: 1,
        default: rule!.defaultLimit,
        ...(rule!.aboveMax === 'reject' && { format: 'int32', maximum: rule!.maxLimit }),
      });
      if (rule!.aboveMax === 'clamp') {
        expect(limit.description).toContain(`clamped to ${rule!.maxLimit}`);
      }
      expect(page.schema).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    }
  });

  it('types GraphQL nulls as 3.1 nulls and requires every field', () => {
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__') || /^(Query|Mutation)$/.test(type.name))
        continue;
      const component = document.components.schemas[type.name];
      expect(component.required).toEqual(Object.keys(type.getFields()));
    }
    expect(document.components.schemas.ShortUrl.properties.createdAt).toMatchObject({
      type: 'string',
      format: 'date-time',
    });
    expect(document.components.schemas.PartnerOrganization.properties.logoUrl.type).toEqual([
      'string',
      'null',
    ]);
  });

  it('declares the x-api-key scheme and the quota headers', () => {
    expect(document.components.securitySchemes.apiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
    });
    const tooMany = document.components.responses.TooManyRequests;
    expect(Object.keys(tooMany.headers)).toEqual(
      expect.arrayContaining(['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Reset']),
    );
  });
});

describe('what the app answers agrees with the document', () => {
  let partnerKey: string;
  let affiliateKey: string;
  let brandId: string;
  let campaignId: string;

  beforeAll(async () => {
    ({ apiKey: partnerKey } = await createApiKey('partner'));
    ({ apiKey: affiliateKey } = await createAffiliate());
    const brand = await createBrand({ logoUrl: null, description: 'Shoes and more' });
    brandId = brand.id;
    campaignId = (await createCampaign(brand.id)).id;
  });

  const keyFor = (route: RestRoute) =>
    surfaceOf(route.path)!.keyType === 'partner' ? partnerKey : affiliateKey;

  /** Validates a body against the operation's documented response for its status. */
  function expectDocumented(route: RestRoute, status: number, body: unknown) {
    const operation = operationOf(document, route);
    let response = operation.responses[String(status)];
    expect({ route: route.path, status, documented: Boolean(response) }).toEqual({
      route: route.path,
      status,
      documented: true,
    });
    if (response.$ref) response = document.components.responses[refName(response)];
    const validate = validator(refName(response.content['application/json'].schema));
    const valid = validate(body);
    expect({ route: route.path, status, errors: validate.errors ?? null, valid }).toMatchObject({
      valid: true,
    });
  }

  it('answers every GET route with a body its document describes', async () => {
    const params = { brandId, campaignId };
    for (const route of ROUTES.filter((r) => r.method === 'GET')) {
      const response = await call(pathOf(route, params), { key: keyFor(route) });
      expectDocumented(route, response.status, response.body);
    }
  });

  it('answers the short-link creation and its lookup as documented', async () => {
    const create = ROUTES.find((route) => route.method === 'POST')!;
    const created = await call(create.path, {
      key: affiliateKey,
      body: { organizationId: brandId },
    });
    expect(created.status).toBe(201);
    expectDocumented(create, 201, created.body);
    const again = await call(create.path, { key: affiliateKey, body: { organizationId: brandId } });
    expectDocumented(create, 200, again.body);
    const unknownField = await call(create.path, { key: affiliateKey, body: { nope: 1 } });
    expectDocumented(create, 400, unknownField.body);

    const lookup = ROUTES.find((route) => route.field === 'Query.affiliateShortUrl')!;
    const found = await call(pathOf(lookup, { urlCode: created.body.data.urlCode }), {
      key: affiliateKey,
    });
    expectDocumented(lookup, 200, found.body);
    const missing = await call(pathOf(lookup, { urlCode: 'zzzzzzzz' }), { key: affiliateKey });
    expectDocumented(lookup, 404, missing.body);
    expect(missing.body).toMatchObject({ error: 'Not Found', statusCode: 404 });
  });

  it('answers errors in the documented error shapes', async () => {
    for (const route of ROUTES) {
      const unauthorized = await call(pathOf(route), { method: route.method });
      expect(unauthorized.status).toBe(401);
      expectDocumented(route, 401, unauthorized.body);
    }
  });

  it('applies the documented page rules', async () => {
    const paginated = ROUTES.filter((route) => !fieldOf(route).deprecationReason);
    for (const route of paginated) {
      const rule = pageRuleOfRoute(route);
      if (!rule) continue;
      const field = route.field;
      const key = keyFor(route);
      const pageInfo = (body: Record<string, { limit?: number }>) =>
        body.meta ?? body.pagination ?? null;
      const required = requiredQueryOf(route);
      const byDefault = await call(`${route.path}?${required}`, { key });
      const above = await call(`${route.path}?${required}limit=${rule!.maxLimit + 1}`, { key });
      const huge = await call(`${route.path}?${required}limit=2147483648`, { key });
      const atMax = await call(`${route.path}?${required}limit=${rule!.maxLimit}`, { key });
      expect({ field, status: atMax.status }).toEqual({ field, status: 200 });
      if (rule!.aboveMax === 'reject') {
        expect({ field, status: above.status }).toEqual({ field, status: 400 });
      } else {
        for (const clamped of [above, huge]) {
          expect({ field, status: clamped.status, limit: pageInfo(clamped.body)?.limit }).toEqual({
            field,
            status: 200,
            limit: pageInfo(atMax.body) ? rule!.maxLimit : undefined,
          });
        }
      }
      // Lists with page info say which limit they used; the others are checked above only.
      const info = pageInfo(byDefault.body);
      if (info) expect({ field, limit: info.limit }).toEqual({ field, limit: rule!.defaultLimit });
    }
  });

  it('refuses a query string longer than documented', async () => {
    const route = ROUTES.find((r) => r.field === 'Query.partnerOrganizations')!;
    const ok = await call(`${route.path}?search=${'a'.repeat(MAX_TEXT_LENGTH)}`, {
      key: partnerKey,
    });
    const tooLong = await call(`${route.path}?search=${'a'.repeat(MAX_TEXT_LENGTH + 1)}`, {
      key: partnerKey,
    });
    expect([ok.status, tooLong.status]).toEqual([200, 400]);
  });

  it('sends the documented quota headers on keyed answers', async () => {
    const response = await call('/affiliate/channels', { key: affiliateKey });
    const headers = Object.keys(
      operationOf(
        document,
        ROUTES.find((r) => r.path === '/affiliate/channels')!,
      ).responses['200'].headers,
    );
    // X-Ignored-Parameters is sent only when the query string held a parameter the route ignored.
    const always = headers.filter((header) => header !== IGNORED_PARAMETERS_HEADER);
    for (const header of always) expect(response.headers.get(header)).not.toBeNull();
  });
});
