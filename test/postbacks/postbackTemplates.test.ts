// Postback templates: macros in braces, refused by name when unknown or malformed, values
// percent-encoded in URLs and forms and JSON-encoded in JSON bodies, so a value never adds or
// changes a parameter.
import type { OrderStatus, PostbackPayoutRule } from '../../src/generated/prisma/client';
import {
  conversionKey,
  macroValues,
  SAMPLE_CONVERSION,
  type MacroValues,
} from '../../src/modules/postbacks/macros';
import {
  parsePostback,
  renderRequest,
  shownRequest,
  renderedRefusal,
  type PostbackSettings,
} from '../../src/modules/postbacks/request';
import {
  encodeValue,
  parseJsonTemplate,
  parseTemplate,
  parseUrlTemplate,
  render,
  renderJson,
  TemplateError,
} from '../../src/modules/postbacks/templates';

const values = (overrides: Partial<MacroValues> = {}): MacroValues => ({
  ...macroValues(
    SAMPLE_CONVERSION,
    {
      event: 'order.status_changed',
      status: 'APPROVED',
      previousStatus: 'PENDING',
      reason: null,
      deliveryId: 'd-1',
      attempt: 2,
    },
    { statusMap: { APPROVED: 'sale' }, typeMap: {}, payoutRule: 'EARNINGS' },
    's3cret',
  ),
  ...overrides,
});

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof TemplateError) return error.message;
    throw error;
  }
  return null;
};

describe('parseTemplate', () => {
  test('splits literals and macros', () => {
    expect(parseTemplate('a={sub1}&b={payout}', 't')).toEqual([
      { literal: 'a=' },
      { macro: 'sub1' },
      { literal: '&b=' },
      { macro: 'payout' },
    ]);
  });

  test.each([
    ['x={sub6}', 't uses an unknown macro {sub6}; the macros are {sub1}, {sub2}'],
    ['x={Sub1}', 't uses an unknown macro {Sub1}'],
    ['x={}', 't is malformed: {} at character 3 names no macro'],
    ['x={sub1', 't is malformed: the { at character 3 is not closed'],
    ['x={sub1{sub2}', 't is malformed: the { at character 3 is not closed'],
    ['x=sub1}', 't is malformed: the } at character 7 closes nothing'],
  ])('refuses %s, naming it', (template, message) => {
    expect(refusal(() => parseTemplate(template, 't'))).toContain(message);
  });
});

describe('parseUrlTemplate', () => {
  test.each([
    'https://t.example/postback?subid={sub1}',
    'https://t.example/{secret}/postback?subid={sub1}',
    'https://t.example:8443?x={sub1}',
  ])('takes macros after the host: %s', (template) => {
    expect(refusal(() => parseUrlTemplate(template))).toBeNull();
  });

  test.each([
    'https://{sub1}.t.example/postback',
    'https://t.example{sub1}/postback',
    'https://t.example:{sub1}/postback',
    '{secret}/postback',
  ])('refuses a macro before the path: %s', (template) => {
    expect(refusal(() => parseUrlTemplate(template))).toMatch(
      /^urlTemplate may hold macros only after the host, in the path or the query/,
    );
  });
});

describe('encoding', () => {
  test('keeps the unreserved characters and encodes the rest', () => {
    expect(encodeValue("aZ09-._~ &=#?/+%!'()*é")).toBe(
      'aZ09-._~%20%26%3D%23%3F%2F%2B%25%21%27%28%29%2A%C3%A9',
    );
  });

  test.each(['a&status=rejected', 'a=b', 'x#frag', 'two words', 'Ünïcödé ✓', '../../admin?x=1'])(
    'a sub-ID of %j adds or changes no parameter of the URL',
    (sub1) => {
      const parts = parseUrlTemplate('https://t.example/p/{sub1}?subid={sub1}&status={status}');
      const url = new URL(render(parts, values({ sub1 })));
      expect([...url.searchParams.keys()]).toEqual(['subid', 'status']);
      expect(url.searchParams.get('subid')).toBe(sub1);
      expect(url.searchParams.get('status')).toBe('sale');
      expect(url.hash).toBe('');
      expect(url.pathname.split('/')).toHaveLength(3);
      expect(decodeURIComponent(url.pathname.split('/')[2]!)).toBe(sub1);
    },
  );

  test('a JSON body carries a value as text, whatever it holds', () => {
    const template = parseJsonTemplate('{"click":"{sub1}","n":1,"list":["{payout} {currency}"]}');
    const sub1 = '"}, "status": "rejected", "x": {"';
    expect(JSON.parse(renderJson(template, values({ sub1 })))).toEqual({
      click: sub1,
      n: 1,
      list: ['12.50 EUR'],
    });
  });
});

describe('parseJsonTemplate', () => {
  test.each([
    ['{"a": ', 'bodyTemplate is not JSON'],
    ['"{sub1}"', 'bodyTemplate must be a JSON object or array'],
    ['{"{sub1}": 1}', 'bodyTemplate may hold macros in values only, not in the key "{sub1}"'],
    ['{"a": {"b": "{nope}"}}', 'bodyTemplate at $.a.b uses an unknown macro {nope}'],
  ])('refuses %s', (template, message) => {
    expect(refusal(() => parseJsonTemplate(template))).toContain(message);
  });
});

describe('a postback request', () => {
  const get: PostbackSettings = {
    method: 'GET',
    urlTemplate: 'https://t.example/{secret}/postback?subid={sub1}&token=abc&status={status}',
    bodyFormat: null,
    bodyTemplate: null,
    statusMap: { APPROVED: 'sale' },
    typeMap: {},
    payoutRule: 'EARNINGS',
    successText: null,
    secret: 's3cret',
  };

  test('a GET renders its URL and has no body', () => {
    expect(renderRequest(parsePostback(get), values())).toEqual({
      method: 'GET',
      url: 'https://t.example/s3cret/postback?subid=sample-click-id&token=abc&status=sale',
      contentType: null,
      body: null,
    });
  });

  test('shown, its secrets are redacted: {secret} and secret-named parameters', () => {
    expect(shownRequest(parsePostback(get), values())).toEqual({
      method: 'GET',
      url: 'https://t.example/REDACTED/postback?subid=sample-click-id&token=REDACTED&status=sale',
      body: null,
    });
  });

  test('a POST form body is encoded as the URL is; shown with its secret fields redacted', () => {
    const post = {
      ...get,
      method: 'POST' as const,
      bodyFormat: 'FORM' as const,
      bodyTemplate: 'clickid={sub1}&sum={payout}&api_key={secret}&note={sub2}',
    };
    const parsed = parsePostback(post);
    const rendered = renderRequest(parsed, values({ sub2: 'a&b=c' }));
    expect(rendered.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(rendered.body!))).toEqual({
      clickid: 'sample-click-id',
      sum: '12.50',
      api_key: 's3cret',
      note: 'a&b=c',
    });
    expect(shownRequest(parsed, values()).body).toBe(
      'clickid=sample-click-id&sum=12.50&api_key=REDACTED&note=newsletter',
    );
  });

  test('a POST JSON body: shown with its secret members redacted', () => {
    const post = {
      ...get,
      method: 'POST' as const,
      bodyFormat: 'JSON' as const,
      bodyTemplate: '{"clickid":"{sub1}","auth":{"token":"{secret}"},"at":"{ordered_at}"}',
    };
    const parsed = parsePostback(post);
    expect(renderRequest(parsed, values()).contentType).toBe('application/json');
    expect(JSON.parse(shownRequest(parsed, values()).body!)).toEqual({
      clickid: 'sample-click-id',
      auth: 'REDACTED',
      at: '2026-01-15T10:30:00.000Z',
    });
  });

  test.each([
    [
      'a GET with a body',
      { bodyFormat: 'FORM' as const, bodyTemplate: 'a=1' },
      'A GET postback has no body: leave bodyFormat and bodyTemplate out, or use POST',
    ],
    [
      'a body without its format',
      { method: 'POST' as const, bodyTemplate: 'a=1' },
      'bodyTemplate needs a bodyFormat (FORM or JSON)',
    ],
    [
      'a format without its body',
      { method: 'POST' as const, bodyFormat: 'JSON' as const },
      'A JSON body needs a bodyTemplate',
    ],
    [
      'a URL template over 2,048 characters',
      { urlTemplate: `https://t.example/?x=${'a'.repeat(2_048)}` },
      'urlTemplate must be at most 2048 characters',
    ],
  ])('refuses %s', (_name, change, message) => {
    expect(refusal(() => parsePostback({ ...get, ...change }))).toBe(message);
  });

  test('a POST without a body template sends its parameters in the URL', () => {
    const parsed = parsePostback({ ...get, method: 'POST' });
    expect(renderRequest(parsed, values())).toMatchObject({ method: 'POST', body: null });
  });

  test('a rendered URL over 8,192 characters is not sent', () => {
    const rendered = renderRequest(parsePostback(get), values({ sub1: 'x'.repeat(9_000) }));
    expect(renderedRefusal(rendered)).toMatch(/^the rendered URL is \d+ characters long/);
    expect(renderedRefusal(renderRequest(parsePostback(get), values()))).toBeNull();
  });
});

describe('macro values', () => {
  test('fill every macro; a value the order lacks is empty', () => {
    expect(
      macroValues(
        {
          ...SAMPLE_CONVERSION,
          campaignId: null,
          attribution: null,
          linkCode: null,
          channelId: null,
        },
        {
          event: 'order.created',
          status: 'PENDING',
          previousStatus: null,
          reason: null,
          deliveryId: 'd-1',
          attempt: 1,
        },
        { statusMap: { APPROVED: 'sale' }, typeMap: {}, payoutRule: 'EARNINGS' },
        null,
      ),
    ).toEqual({
      sub1: 'sample-click-id',
      sub2: 'newsletter',
      sub3: '',
      sub4: '',
      sub5: '',
      order_id: SAMPLE_CONVERSION.orderId,
      order_number: 'SAMPLE-1001',
      event: 'order.created',
      // Not in the map: sent as the network names it.
      status: 'PENDING',
      type: '',
      previous_status: '',
      reason: '',
      payout: '12.50',
      original_payout: '12.50',
      sale_amount: '250.00',
      currency: 'EUR',
      brand_id: SAMPLE_CONVERSION.brandId,
      campaign_id: '',
      coupon: '',
      attribution: '',
      link_code: '',
      channel_id: '',
      payout_id: '',
      ordered_at: '2026-01-15T10:30:00.000Z',
      ordered_at_unix: '1768473000',
      delivery_id: 'd-1',
      conversion_key: conversionKey(SAMPLE_CONVERSION.orderId, 'PENDING', 1250),
      attempt: '1',
      secret: '',
    });
  });

  test.each([
    ['JPY', 1005, 123456, 1500, ['1005', '123456', '1500', '-1005']],
    ['EUR', 1005, 123456, 1500, ['10.05', '1234.56', '15.00', '-10.05']],
    ['BHD', 1005, 123456, 1500, ['1.005', '123.456', '1.500', '-1.005']],
    ['EUR', 5, 0, 0, ['0.05', '0.00', '0.00', '-0.05']],
    ['JPY', 0, 5, 7, ['0', '5', '7', '0']],
  ])(
    'payout, sale_amount and original_payout of a %s order (%i, %i, %i minor) are written with its decimals',
    (currency, earningsMinor, transactionValueMinor, originalEarningsMinor, written) => {
      const conversion = {
        ...SAMPLE_CONVERSION,
        currency,
        earningsMinor,
        transactionValueMinor,
        originalEarningsMinor,
      };
      const context = {
        event: 'order.status_changed',
        status: 'REJECTED' as const,
        previousStatus: 'APPROVED' as const,
        reason: null,
        deliveryId: 'd-1',
        attempt: 1,
      };
      const rules = (payoutRule: PostbackPayoutRule) => ({
        statusMap: {},
        typeMap: {},
        payoutRule,
      });
      const values = macroValues(conversion, context, rules('EARNINGS'), null);
      const reversed = macroValues(conversion, context, rules('OWED_REVERSED'), null);
      expect([values.payout, values.sale_amount, values.original_payout, reversed.payout]).toEqual(
        written,
      );
    },
  );
});

describe('what a postback reports of an order in each status', () => {
  const order = (status: OrderStatus, previousStatus: OrderStatus | null = null) => ({
    event: 'order.status_changed',
    status,
    previousStatus,
    reason: null,
    deliveryId: 'd-1',
    attempt: 1,
  });
  const rules = (payoutRule: PostbackPayoutRule) => ({
    statusMap: { PENDING: 'lead', APPROVED: 'sale', REJECTED: 'rejected', UNAPPROVED: 'rejected' },
    typeMap: { APPROVED: 'Purchase' },
    payoutRule,
  });
  const reported = (
    payoutRule: PostbackPayoutRule,
    status: OrderStatus,
    previous?: OrderStatus,
  ) => {
    const values = macroValues(SAMPLE_CONVERSION, order(status, previous), rules(payoutRule), null);
    return [values.status, values.type, values.payout];
  };

  test.each([
    ['EARNINGS', 'PENDING', ['lead', '', '12.50']],
    ['EARNINGS', 'REJECTED', ['rejected', '', '12.50']],
    ['OWED', 'PENDING', ['lead', '', '0.00']],
    ['OWED', 'APPROVED', ['sale', 'Purchase', '12.50']],
    ['OWED', 'PAID', ['PAID', '', '12.50']],
    ['OWED', 'REJECTED', ['rejected', '', '0.00']],
    ['OWED_REVERSED', 'PENDING', ['lead', '', '0.00']],
    ['OWED_REVERSED', 'REJECTED', ['rejected', '', '-12.50']],
  ] as const)('%s, %s: %j', (rule, status, expected) => {
    expect(reported(rule, status)).toEqual(expected);
  });

  test("an approved order moved back to PENDING is sent in UNAPPROVED's word", () => {
    expect(reported('OWED', 'PENDING', 'APPROVED')[0]).toBe('rejected');
    expect(reported('OWED', 'PENDING', 'PAID')[0]).toBe('rejected');
    expect(reported('OWED', 'PENDING', 'REJECTED')[0]).toBe('lead');
  });

  test('the conversion key is the same for one status and payout, and new for any change', () => {
    const key = (status: OrderStatus, payout: number) =>
      conversionKey(SAMPLE_CONVERSION.orderId, status, payout);
    expect(key('APPROVED', 1250)).toBe(key('APPROVED', 1250));
    expect(key('APPROVED', 1250)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(new Set([key('APPROVED', 1250), key('PAID', 1250), key('APPROVED', 1125)]).size).toBe(3);
  });
});
