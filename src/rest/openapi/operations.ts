// One operation per route: summary, key and scope, parameters, success and error responses.
import type { GraphQLField } from 'graphql';
import { IDEMPOTENT_REPLAYED_HEADER } from '../../platform/idempotency';
import { keyAuthOf } from '../../schema/fieldPolicy';
import { IGNORED_PARAMETERS_HEADER } from '../queryParams';
import { surfaceOf, type RestRoute } from '../routes';
import { TOTAL_COUNT_HEADER } from '../csv';
import { errorResponsesOf, headerRefs, STANDARD_HEADERS } from './errors';
import type { Json } from './json';
import { SECURITY_SCHEMES } from './security';
import { queryParameter, requestBody } from './parameters';

/** A list route's rows as CSV (`Accept: text/csv`, src/rest/csv.ts). */
const CSV_CONTENT = {
  schema: {
    type: 'string',
    description:
      `With \`Accept: text/csv\`: the same rows as CSV (RFC 4180), a header row of the row's fields ` +
      '(nested ones as `earningsByStatus.PENDING`), empty cells for null; the total number of rows ' +
      `in \`${TOTAL_COUNT_HEADER}\`. Text starting with = + - @ is written after a \`'\`, so a ` +
      'spreadsheet does not run it as a formula.',
  },
};

/** The field description without its leading `GET /path:` (the document says that already). */
function proseOf(field: GraphQLField<unknown, unknown>): string {
  const prose = (field.description ?? '').replace(/^(GET|POST)\s+\S+:?\s*/, '').trim();
  return prose.charAt(0).toUpperCase() + prose.slice(1);
}

function summaryOf(prose: string, route: RestRoute): string {
  const first = prose.split(/[;.](\s|$)/)[0]?.trim() || `${route.method} ${route.path}`;
  return first.length > 90 ? `${first.slice(0, 87)}...` : first;
}

export function tagOf(route: RestRoute): string {
  const surface = surfaceOf(route.path)!;
  const resource = route.path.slice(surface.prefix.length).split('/')[0]!;
  return `${surface.keyType === 'partner' ? 'Partner catalog' : 'Affiliate'}: ${resource}`;
}

export function operationOf(
  route: RestRoute,
  field: GraphQLField<unknown, unknown>,
  generated: Json | undefined,
): Json {
  const { keyType, scope } = keyAuthOf(field);
  const prose = proseOf(field);
  const pathArgs = field.args.filter((arg) => route.path.includes(`:${arg.name}`));
  const queryArgs = field.args.filter((arg) => !pathArgs.includes(arg));
  const successStatus = String(route.responseStatus ?? 200);
  // Sofa's response schema: the envelope type of the field.
  const generatedResponses = (generated?.responses ?? {}) as Record<string, Json>;
  const envelope = (
    generatedResponses[successStatus]?.content as Record<string, Json> | undefined
  )?.['application/json']?.schema as Json | undefined;

  const successHeaders = headerRefs([
    ...STANDARD_HEADERS,
    IGNORED_PARAMETERS_HEADER,
    route.method === 'POST' ? IDEMPOTENT_REPLAYED_HEADER : 'ETag',
    ...(route.csv ? ['Vary', TOTAL_COUNT_HEADER] : []),
  ]);
  const success = (description: string) => ({
    description,
    headers: successHeaders,
    content: {
      'application/json': { schema: envelope },
      ...(route.csv && { 'text/csv': CSV_CONTENT }),
    },
  });
  const responses: Json = {};
  if (!field.deprecationReason) {
    if (route.method === 'POST' && successStatus === '201') {
      responses['201'] = success('Created');
      responses['200'] = success('The same request was made before: the existing resource');
    } else {
      responses[successStatus] = success('OK');
      responses['304'] = {
        description: 'Not Modified: the answer is the one whose `ETag` the request named',
        headers: headerRefs(['ETag', ...STANDARD_HEADERS]),
      };
    }
  }
  Object.assign(responses, errorResponsesOf(route, field));

  const parameters: Json[] = [
    ...pathArgs.map((arg) => ({
      name: arg.name,
      in: 'path',
      required: true,
      description: arg.description ?? 'The resource id; an id that does not exist answers 404',
      schema: { type: 'string' },
    })),
    // A removed route's arguments no longer mean anything.
    ...(route.method === 'GET' && !field.deprecationReason ? queryArgs.map(queryParameter) : []),
    ...(route.method === 'POST' ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
    ...(route.method === 'GET' && !field.deprecationReason
      ? [{ $ref: '#/components/parameters/IfNoneMatch' }]
      : []),
  ];

  const description = [
    prose,
    `**Key:** ${keyType} key with scope \`${scope}\`.`,
    field.deprecationReason && `**Removed:** ${field.deprecationReason}.`,
  ]
    .filter(Boolean)
    .join('\n\n');
  return {
    operationId: field.name,
    summary: summaryOf(prose, route),
    description,
    tags: [tagOf(route)],
    ...(field.deprecationReason && { deprecated: true }),
    // OpenAPI 3.1 lets a non-OAuth requirement list role names: the key's scope.
    security: [{ [SECURITY_SCHEMES[keyType]]: [scope] }],
    'x-key-type': keyType,
    'x-required-scopes': [scope],
    ...(parameters.length && { parameters }),
    ...(route.method === 'POST' && { requestBody: requestBody(queryArgs) }),
    responses,
  };
}

/**
 * The HEAD operation of a GET one: the edge answers HEAD on every GET path as GET, headers and
 * status alike, without the body.
 */
export function headOperationOf(get: Json, responseComponents: Record<string, Json>): Json {
  const responses = Object.fromEntries(
    Object.entries(get.responses as Record<string, Json>).map(([status, response]) => {
      const component =
        typeof response.$ref === 'string'
          ? responseComponents[response.$ref.split('/').pop()!]!
          : response;
      return [
        status,
        {
          description: response.description ?? component.description,
          ...(component.headers !== undefined && { headers: component.headers }),
        },
      ];
    }),
  );
  return {
    ...get,
    operationId: `${get.operationId as string}Head`,
    summary: `${get.summary as string} (headers only)`,
    description: `As \`GET\`, without the body.\n\n${get.description as string}`,
    responses,
  };
}
