// Strict query-string parsing of REST routes, docs/decisions.md "Parameters": integers, booleans,
// ISO dates, UUIDs and exact enum values; lists from `a,b` and repeated parameters; 400 naming the
// parameter.
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLString,
} from 'graphql';
import { ignoredParameters, variablesFromQuery } from '../../src/rest/queryParams';
import { BadRequestError } from '../../src/platform/errors';

const DateTime = new GraphQLScalarType({ name: 'DateTime' });
const UUID = new GraphQLScalarType({ name: 'UUID' });
const CampaignStatus = new GraphQLEnumType({
  name: 'CampaignStatus',
  values: { onTime: {}, expired: {}, scheduled: {} },
});

const Query = new GraphQLObjectType({
  name: 'Query',
  fields: {
    campaigns: {
      type: GraphQLString,
      args: {
        limit: { type: GraphQLInt },
        isHighlight: { type: GraphQLBoolean },
        startAt: { type: DateTime },
        organizationId: { type: UUID },
        status: { type: CampaignStatus },
        name: { type: GraphQLString },
        categories: { type: new GraphQLList(GraphQLString) },
        statuses: { type: new GraphQLList(new GraphQLNonNull(CampaignStatus)) },
        campaignId: { type: UUID },
      },
    },
  },
});

const args = Query.getFields().campaigns!.args;

function parse(query: string): Record<string, unknown> {
  return variablesFromQuery(args, new URLSearchParams(query));
}

/** The error a query string is refused with; fails the test when it is accepted. */
function refusal(query: string): BadRequestError {
  try {
    parse(query);
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestError);
    return error as BadRequestError;
  }
  throw new Error(`"${query}" was accepted`);
}

describe('integers', () => {
  test('limit=10 reads 10', () => {
    expect(parse('limit=10')).toEqual({ limit: 10 });
  });

  test('a signed integer reads as a number (range checks belong to each argument)', () => {
    expect(parse('limit=-3')).toEqual({ limit: -3 });
  });

  test('the largest 32-bit integer is accepted', () => {
    expect(parse('limit=2147483647')).toEqual({ limit: 2147483647 });
  });

  test.each([
    '+1',
    '0x10',
    '1e3',
    '1.5',
    ' 5',
    '5 ',
    'abc',
    '10abc',
    '99999999999',
    '2147483648',
    '-2147483649',
  ])('limit=%j answers 400 naming limit', (raw) => {
    const error = refusal(`limit=${encodeURIComponent(raw)}`);
    expect(error.message).toBe('limit must be an integer');
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.status).toBe(400);
  });

  test('limit= (empty) counts as absent', () => {
    expect(parse('limit=')).toEqual({});
  });
});

describe('a limit that is clamped (contract: values above the maximum are clamped silently)', () => {
  const field = new GraphQLObjectType({
    name: 'Query',
    fields: {
      list: {
        type: GraphQLString,
        args: {
          limit: {
            type: GraphQLInt,
            extensions: { pageRule: { defaultLimit: 10, maxLimit: 20, aboveMax: 'clamp' } },
          },
        },
      },
    },
  }).getFields().list!;
  const parseLimit = (raw: string) =>
    variablesFromQuery(field.args, new URLSearchParams(`limit=${raw}`));

  test.each(['21', '2147483648', '99999999999999999999'])('limit=%s reads the maximum', (raw) => {
    expect(parseLimit(raw)).toEqual({ limit: 20 });
  });

  test.each(['+21', '-1', '0x20', '20.5'])(
    'limit=%s is still read as the integer it is, or 400',
    (raw) => {
      if (raw === '-1') expect(parseLimit(raw)).toEqual({ limit: -1 });
      else expect(() => parseLimit(encodeURIComponent(raw))).toThrow('limit must be an integer');
    },
  );
});

describe('booleans', () => {
  test('isHighlight=true reads true', () => {
    expect(parse('isHighlight=true')).toEqual({ isHighlight: true });
  });

  test('isHighlight=false reads false', () => {
    expect(parse('isHighlight=false')).toEqual({ isHighlight: false });
  });

  test.each(['1', '0', 'yes', 'TRUE', 'False', 'on'])(
    'isHighlight=%s answers 400 naming isHighlight',
    (raw) => {
      expect(refusal(`isHighlight=${raw}`).message).toBe('isHighlight must be true or false');
    },
  );
});

describe('dates', () => {
  test.each([
    '2026-01-31',
    '2026-01-31T12:00:00Z',
    '2026-01-31T12:00:00.000Z',
    '2026-01-31T12:00+01:00',
  ])('startAt=%s is accepted as given', (raw) => {
    expect(parse(`startAt=${encodeURIComponent(raw)}`)).toEqual({ startAt: raw });
  });

  test.each([
    'yesterday',
    '31/01/2026',
    '2026-13-01',
    '2026-01-31T25:00:00Z',
    '1769860800',
    '2026-1-31',
  ])('startAt=%s answers 400 naming startAt', (raw) => {
    expect(refusal(`startAt=${encodeURIComponent(raw)}`).message).toBe(
      'startAt must be an ISO 8601 date-time',
    );
  });
});

describe('UUIDs', () => {
  test('a UUID is accepted, in either case', () => {
    expect(parse('organizationId=0b6f2c1e-8a4d-4e7b-9c3a-5f1d2e3c4b5a')).toEqual({
      organizationId: '0b6f2c1e-8a4d-4e7b-9c3a-5f1d2e3c4b5a',
    });
    expect(parse('organizationId=0B6F2C1E-8A4D-4E7B-9C3A-5F1D2E3C4B5A')).toEqual({
      organizationId: '0B6F2C1E-8A4D-4E7B-9C3A-5F1D2E3C4B5A',
    });
  });

  test.each([
    'xyz',
    '0b6f2c1e8a4d4e7b9c3a5f1d2e3c4b5a',
    '0b6f2c1e-8a4d-4e7b-9c3a-5f1d2e3c4b5',
    '{0b6f2c1e-8a4d-4e7b-9c3a-5f1d2e3c4b5a}',
  ])('organizationId=%s answers 400 naming organizationId', (raw) => {
    expect(refusal(`organizationId=${encodeURIComponent(raw)}`).message).toBe(
      'organizationId must be a UUID',
    );
  });

  test('a non-null argument is checked like a nullable one', () => {
    expect(refusal('campaignId=42').message).toBe('campaignId must be a UUID');
  });
});

describe('enums', () => {
  test('an exact value is accepted', () => {
    expect(parse('status=onTime')).toEqual({ status: 'onTime' });
  });

  test.each(['ontime', 'ONTIME', 'OnTime', 'onTmie'])(
    'status=%s answers 400 listing the allowed values, with the likely one',
    (raw) => {
      expect(refusal(`status=${raw}`).message).toBe(
        'status must be one of: onTime, expired, scheduled (did you mean onTime?)',
      );
    },
  );

  test('a value like none of them gets no guess', () => {
    expect(refusal('status=late').message).toBe(
      'status must be one of: onTime, expired, scheduled',
    );
  });
});

describe('lists', () => {
  test('categories=a,b reads two values', () => {
    expect(parse('categories=fashion,sports')).toEqual({ categories: ['fashion', 'sports'] });
  });

  test('a repeated parameter reads as a list', () => {
    expect(parse('categories=fashion&categories=sports')).toEqual({
      categories: ['fashion', 'sports'],
    });
  });

  test('commas and repetition mix, in order', () => {
    expect(parse('categories=a,b&categories=c&categories=d,e')).toEqual({
      categories: ['a', 'b', 'c', 'd', 'e'],
    });
  });

  test('a single value reads as a one-item list', () => {
    expect(parse('categories=fashion')).toEqual({ categories: ['fashion'] });
  });

  test('more than 20 repeated values stay a list (qs would turn them into an object)', () => {
    const values = Array.from({ length: 25 }, (_, index) => `c${index}`);
    const query = values.map((value) => `categories=${value}`).join('&');
    expect(parse(query)).toEqual({ categories: values });
  });

  test('items are taken exactly as written, spaces included', () => {
    expect(parse('categories=a,%20b')).toEqual({ categories: ['a', ' b'] });
  });

  test.each(['categories=a,,b', 'categories=a,', 'categories=,', 'statuses=onTime,'])(
    'an empty item answers 400 naming the parameter: %s',
    (query) => {
      expect(refusal(query).message).toMatch(/^(categories|statuses) has an empty item$/);
    },
  );

  test('an enum item with a space is not that enum value', () => {
    expect(refusal('statuses=%20onTime').message).toBe(
      'statuses must be one of: onTime, expired, scheduled (did you mean onTime?)',
    );
  });

  test('an empty list parameter counts as absent', () => {
    expect(parse('categories=')).toEqual({});
    expect(parse('categories=&categories=')).toEqual({});
  });

  test('an enum list takes exact values from commas and repetition', () => {
    expect(parse('statuses=onTime,expired&statuses=scheduled')).toEqual({
      statuses: ['onTime', 'expired', 'scheduled'],
    });
  });

  test('an enum list with one wrong value answers 400 naming the parameter', () => {
    expect(refusal('statuses=onTime,Expired').message).toBe(
      'statuses must be one of: onTime, expired, scheduled (did you mean expired?)',
    );
  });
});

describe('parameters given once', () => {
  test('limit given twice answers 400 naming limit', () => {
    expect(refusal('limit=1&limit=2').message).toBe('limit must be given once');
  });

  test('a string parameter given twice answers 400, even with the same value', () => {
    expect(refusal('name=a&name=a').message).toBe('name must be given once');
  });

  test('a comma in a non-list parameter is part of its value', () => {
    expect(parse('name=a,b')).toEqual({ name: 'a,b' });
  });
});

describe('absent and unknown parameters', () => {
  test('a required parameter left out, or given empty, is a 400 naming it', () => {
    const required = new GraphQLObjectType({
      name: 'Query',
      fields: {
        report: {
          type: GraphQLString,
          args: { groupBy: { type: new GraphQLNonNull(CampaignStatus) } },
        },
      },
    }).getFields().report!.args;
    for (const query of ['', 'groupBy=']) {
      expect(() => variablesFromQuery(required, new URLSearchParams(query))).toThrow(
        'groupBy is required',
      );
    }
    expect(variablesFromQuery(required, new URLSearchParams('groupBy=expired'))).toEqual({
      groupBy: 'expired',
    });
  });

  test('an empty query gives no variables', () => {
    expect(parse('')).toEqual({});
  });

  test('empty values count as absent', () => {
    expect(parse('limit=&isHighlight=&startAt=&organizationId=&status=&name=')).toEqual({});
  });

  test('unknown parameters are ignored', () => {
    expect(parse('utm_source=mail&limit=5&LIMIT=abc&foo[bar]=1')).toEqual({ limit: 5 });
  });

  test('and named for the answer header, once each, plain names only, at most 10', () => {
    const query = (text: string) => ignoredParameters(args, new URLSearchParams(text));
    expect(query('tpyes=Offer&limit=5&tpyes=Coupon&LIMIT=abc&foo[bar]=1')).toEqual([
      'tpyes',
      'LIMIT',
      'foo[bar]',
    ]);
    expect(query('bad%0D%0Aname=1&sp%20ace=2&ok=3')).toEqual(['ok']);
    expect(query(Array.from({ length: 12 }, (_, n) => `p${n}=1`).join('&'))).toHaveLength(10);
    expect(query('limit=5&status=onTime')).toEqual([]);
  });
});

describe('strings', () => {
  test('a percent-encoded string is decoded', () => {
    expect(parse('name=caf%C3%A9%20bar')).toEqual({ name: 'café bar' });
  });
});
