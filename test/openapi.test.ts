// GET /openapi.json: a valid OpenAPI 3.1 document of exactly the route table, whose parameters,
// scopes, envelopes and errors agree with the schema and with what the app answers.
import { DEMO_KEYS } from '../src/auth/demoIdentities';
import { createApp, type App } from '../src/app';
import { config } from '../src/platform/config';
import { getNamedType, getNullableType, isEnumType, isListType, isObjectType } from 'graphql';
import { SCOPES_BY_KEY_TYPE } from '../src/auth/scopes';
import { argumentShape } from '../src/rest/argumentShape';
import { restSchema } from '../src/rest/sofa';
import { openApiPath } from '../src/rest/openapi';
import { errorResponseComponents, inMegabytes } from '../src/rest/openapi/errors';
import { MAX_BODY_BYTES } from '../src/limits/bodyLimit';
import { MAX_LIST_ITEMS, MAX_TEXT_LENGTH } from '../src/schema/inputLimits';
import { IGNORED_PARAMETERS_HEADER } from '../src/rest/queryParams';
import { routeField, surfaceOf, type RestRoute } from '../src/rest/routes';
import { ROUTES, schema as fullSchema } from '../src/modules';
import { isGraphqlOnly, keyAuthOf } from '../src/schema/fieldPolicy';
import { pageRuleOf, type PaginatedRule } from '../src/schema/pagination';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAILED_AUTH_LIMIT } from '../src/limits/requestQuota';
import { app, call, callApp, useTestDatabase } from './support/app';
import {
  createAffiliate,
  createApiKey,
  createBrand,
  createCampaign,
  createOrder,
  createPayout,
  lockOrders,
} from './support/factories';
import {
  fetchOpenApiDocument,
  refName,
  schemaValidators,
  validateWithOpenApiSchema,
  type OpenApiDocument,
} from './support/openapi';

useTestDatabase();

const schema = restSchema(fullSchema, ROUTES);

const fieldOf = (route: RestRoute) => routeField(schema, route);

/** The route's required query parameters, each with a valid value (`groupBy=day&`), or ''. */
function requiredQueryOf(route: RestRoute): string {
  return fieldOf(route)
    .args.filter((arg) => argumentShape(arg).required && !route.path.includes(`:${arg.name}`))
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

describe("the reference page's Authorize dialog", () => {
  /** The start-up script of the reference page an app serves. */
  async function initScriptOf(target: App): Promise<string> {
    const page = await (await target.fetch('http://api.test/docs')).text();
    const assets = /href="(\/docs\/assets\/[^/]+)\//.exec(page)![1]!;
    return (await target.fetch(`http://api.test${assets}/init.js`)).text();
  }

  it('holds the demo keys on a development installation, one per surface', async () => {
    const script = await initScriptOf(app);
    expect(script).toContain(`ui.preauthorizeApiKey("affiliateKey", "${DEMO_KEYS.affiliate}")`);
    expect(script).toContain(`ui.preauthorizeApiKey("partnerKey", "${DEMO_KEYS.partner}")`);
  });

  it.each([
    ['in production', { isProduction: true }],
    ['with KEY_ENV=live', { keyEnv: 'live' }],
  ])('holds no key %s', async (_case, settings) => {
    const saved = { isProduction: config.isProduction, keyEnv: config.keyEnv };
    Object.assign(config, settings);
    try {
      const script = await initScriptOf(createApp({ redis: null }));
      expect(script).not.toContain('preauthorizeApiKey');
      expect(script).not.toContain('svc_');
    } finally {
      Object.assign(config, saved);
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

/** Validates an error body against the route's documented response for its status. */
function expectDocumentedError(route: RestRoute, status: number, body: unknown) {
  let response = operationOf(document, route).responses[String(status)];
  expect(response).toBeDefined();
  if (response.$ref) response = document.components.responses[refName(response)];
  expect(validator(refName(response.content['application/json'].schema))(body)).toBe(true);
}

describe('the document and the route table', () => {
  it('documents exactly the routes of the table, the public redirect and the probes, HEAD beside every GET', () => {
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const gets = [
      ...ROUTES.map((route) => `${route.method} ${openApiPath(route.path)}`),
      'GET /s/{urlCode}',
      'GET /healthz',
      'GET /readyz',
    ];
    const heads = gets.filter((get) => get.startsWith('GET ')).map((get) => `HEAD ${get.slice(4)}`);
    expect(documented.sort()).toEqual([...gets, ...heads].sort());
  });

  it('documents the probes as public, and the app answers them as documented', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const operation = document.paths[path].get;
      expect(operation.security).toEqual([]);
      const answer = await call(path);
      expect(answer.status).toBe(200);
      const documented = operation.responses['200'];
      expect(validator(refName(documented.content['application/json'].schema))(answer.body)).toBe(
        true,
      );
      expect(answer.headers.get('x-request-id')).not.toBeNull();
    }
    expect(Object.keys(document.paths['/readyz'].get.responses)).toEqual(['200', '503']);
    const unavailable = { status: 'unavailable', checks: { database: 'ok', redis: 'unreachable' } };
    expect(validator('Readiness')(unavailable)).toBe(true);
  });

  it('answers HEAD on every GET path as GET, without the body, as documented', async () => {
    const { apiKey: partnerKey } = await createApiKey('partner');
    const { apiKey: affiliateKey } = await createAffiliate();
    const brand = await createBrand();
    for (const [path, operations] of Object.entries(document.paths) as [string, any][]) {
      if (!operations.get) continue;
      expect(operations.head).toMatchObject({
        operationId: `${operations.get.operationId}Head`,
        security: operations.get.security,
      });
      expect(operations.head.parameters).toEqual(operations.get.parameters);
      const url = path
        .replace('{urlCode}', 'zzzzzzzz')
        .replace(/\{(brandId|organizationId)\}/, brand.id)
        .replace(/\{\w+\}/, 'unknown')
        .replace('/reports/performance', '/reports/performance?groupBy=day');
      const key = path.startsWith('/api/partner') ? partnerKey : affiliateKey;
      const get = await call(url, { key });
      const head = await app.fetch(`http://api.test${url}`, {
        method: 'HEAD',
        headers: { 'x-api-key': key },
      });
      expect({ path, status: head.status, body: await head.text() }).toEqual({
        path,
        status: get.status,
        body: '',
      });
      const documented = operations.head.responses[String(head.status)];
      expect({ path, status: head.status, documented: Boolean(documented) }).toEqual({
        path,
        status: head.status,
        documented: true,
      });
      expect(documented.content).toBeUndefined();
    }
  });

  it("describes each parameter by its own argument: no schema carries another field's text", () => {
    for (const route of ROUTES) {
      const field = fieldOf(route);
      const operation = operationOf(document, route);
      for (const parameter of operation.parameters ?? []) {
        if (parameter.$ref) continue;
        expect({
          route: route.path,
          name: parameter.name,
          schema: parameter.schema.description,
        }).toEqual({ route: route.path, name: parameter.name, schema: undefined });
        const arg = field.args.find((candidate) => candidate.name === parameter.name)!;
        if (arg.description) expect(parameter.description).toContain(arg.description);
      }
      const body = operation.requestBody?.content['application/json'].schema.properties ?? {};
      for (const [name, property] of Object.entries(body) as [string, { description?: string }][]) {
        const arg = field.args.find((candidate) => candidate.name === name)!;
        expect({ name, description: property.description }).toEqual({
          name,
          description: arg.description ?? undefined,
        });
      }
    }
    const report = document.paths['/affiliate/reports/performance'].get.parameters;
    const campaignId = report.find((p: { name: string }) => p.name === 'campaignId');
    expect(campaignId.schema).toEqual({ type: 'string', format: 'uuid' });
  });

  it('says why the shortener answers 400 for unknown ids, and 404 only for a closed account', () => {
    const create = operationOf(
      document,
      ROUTES.find((route) => route.method === 'POST')!,
    );
    expect(create.responses['400'].description).toMatch(
      /unknown id in the body answers 400, not 404/,
    );
    expect(create.responses['404'].description).toBe("The key's affiliate account is closed");
  });

  it('lists 400 on partner item routes for the dashboard credentials they refuse', async () => {
    const { apiKey } = await createApiKey('partner');
    const brand = await createBrand();
    for (const route of ROUTES.filter(
      (candidate) => candidate.path.startsWith('/api/partner/') && candidate.path.includes(':'),
    )) {
      const badRequest = operationOf(document, route).responses['400'];
      expect(badRequest.description).toMatch(/x-api-token. or .x-auth-key/);
      const answer = await call(pathOf(route, { brandId: brand.id, campaignId: brand.id }), {
        key: apiKey,
        headers: { 'x-api-token': 'a dashboard token' },
      });
      expect({ route: route.path, status: answer.status }).toEqual({
        route: route.path,
        status: 400,
      });
    }
  });

  it('states the Idempotency-Key rule as a pattern the service keeps to', async () => {
    const { apiKey } = await createApiKey('affiliate');
    const brand = await createBrand();
    const schema = document.components.parameters.IdempotencyKey.schema;
    const pattern = new RegExp(schema.pattern);
    for (const key of [
      'a',
      'first-link',
      '0f8fad5b-d9cb-469f-a165-70867728950e',
      'x'.repeat(255),
      'two words',
      'x'.repeat(256),
      'caf\u00e9',
    ]) {
      const answer = await call('/affiliate/shortener/url', {
        key: apiKey,
        idempotencyKey: key,
        body: { organizationId: brand.id },
      });
      expect({ key, matches: pattern.test(key) }).toEqual({ key, matches: answer.status !== 400 });
    }
  });

  it('documents the failed-authentication limit as the app applies it', async () => {
    const limited = createApp({ settings: { trustProxy: 1 }, redis: null });
    const route = ROUTES.find((candidate) => candidate.path === '/affiliate/channels')!;
    let answer;
    for (let n = 0; n <= FAILED_AUTH_LIMIT.max; n += 1) {
      answer = await callApp(limited, route.path, { key: `guess-${n}`, ip: '192.0.2.90' });
    }
    expect(answer!.status).toBe(429);
    const policy = `"failed-auth";q=${FAILED_AUTH_LIMIT.max};w=${FAILED_AUTH_LIMIT.windowSeconds}`;
    expect(answer!.headers.get('ratelimit-policy')).toBe(policy);
    expectDocumentedError(route, 429, answer!.body);
    const tooMany = document.components.responses.TooManyRequests.description;
    expect(tooMany).toContain('"failed-auth"');
    expect(tooMany).toContain(`${FAILED_AUTH_LIMIT.max} per ${FAILED_AUTH_LIMIT.windowSeconds} s`);
    expect(document.info.description).toContain('RateLimit-Policy: "failed-auth"');
  });

  it('states the payload limit and the deadline in the 413 and 504 texts as the settings have them', () => {
    expect(document.components.responses.PayloadTooLarge.description).toBe(
      `The body exceeds ${inMegabytes(MAX_BODY_BYTES)}`,
    );
    expect(document.components.responses.RequestTimeout.description).toBe(
      `The request ran past the deadline (${config.requestTimeoutMs / 1000} s)`,
    );
    const other = errorResponseComponents({
      maxBodyBytes: 2.5 * 1024 * 1024,
      requestTimeoutMs: 1500,
    });
    expect(other).toMatchObject({
      PayloadTooLarge: { description: 'The body exceeds 2.5 MB' },
      RequestTimeout: { description: 'The request ran past the deadline (1.5 s)' },
    });
  });

  it('documents 503 with Retry-After on every route (the database unreachable)', () => {
    for (const route of ROUTES) {
      expect(operationOf(document, route).responses['503']).toEqual({
        $ref: '#/components/responses/ServiceUnavailable',
      });
    }
    expect(Object.keys(document.components.responses.ServiceUnavailable.headers)).toContain(
      'Retry-After',
    );
  });

  it('keeps no component nobody refers to, and names a contact (Spectral)', () => {
    const { schemas, ...others } = document.components;
    const text = JSON.stringify({ ...document, components: others });
    const referenced = new Set<string>();
    const queue = [...text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    while (queue.length) {
      const name = queue.pop()!;
      if (referenced.has(name)) continue;
      referenced.add(name);
      queue.push(
        ...[...JSON.stringify(schemas[name]).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map(
          (m) => m[1]!,
        ),
      );
    }
    expect(Object.keys(schemas).filter((name) => !referenced.has(name))).toEqual([]);
    expect(document.info.contact).toEqual({
      name: 'API reference',
      url: expect.stringMatching(/\/docs$/),
    });
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
      expect(operation.security).toEqual([{ [`${keyType}Key`]: [scope] }]);
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
      // Page-numbered lists only: the order-event feed pages by cursor.
      if (field.deprecationReason || !field.args.some((arg) => arg.name === 'page')) continue;
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
      // Less the fields REST answers leave out (src/rest/sofa.ts).
      expect(component.required).toEqual(
        Object.values(type.getFields())
          .filter((field) => !isGraphqlOnly(field))
          .map((field) => field.name),
      );
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

  it('declares the x-api-key scheme of each key type and the quota headers', () => {
    for (const scheme of ['affiliateKey', 'partnerKey']) {
      expect(document.components.securitySchemes[scheme]).toMatchObject({
        type: 'apiKey',
        in: 'header',
        name: 'x-api-key',
      });
    }
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
  let payoutId: string;

  beforeAll(async () => {
    ({ apiKey: partnerKey } = await createApiKey('partner'));
    const affiliate = await createAffiliate();
    affiliateKey = affiliate.apiKey;
    const brand = await createBrand({ logoUrl: null, description: 'Shoes and more' });
    brandId = brand.id;
    campaignId = (await createCampaign(brand.id)).id;
    const order = await createOrder(affiliate.affiliateId, brand.id, { status: 'APPROVED' });
    await lockOrders([order.id]);
    payoutId = await createPayout(affiliate.affiliateId, [order.id]);
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
    const params = { brandId, campaignId, payoutId };
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
      const path = pathOf(route, { payoutId });
      const byDefault = await call(`${path}?${required}`, { key });
      const above = await call(`${path}?${required}limit=${rule!.maxLimit + 1}`, { key });
      const huge = await call(`${path}?${required}limit=2147483648`, { key });
      const atMax = await call(`${path}?${required}limit=${rule!.maxLimit}`, { key });
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
