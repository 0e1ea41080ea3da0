// Each currency's ISO 4217 exponent, and amounts between minor units and the decimals answered.
import {
  amountText,
  CURRENCIES_BY_EXPONENT,
  decimalText,
  exponentOf,
  fromMinor,
  toMinor,
} from '../../src/platform/currencies';
import { earningsPerClick } from '../../src/modules/reports/range';

describe('exponentOf', () => {
  test.each([
    // ISO 4217 list one, minor unit 0
    ...['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI']
      .concat(['VND', 'VUV', 'XAF', 'XOF', 'XPF'])
      .map((code) => [code, 0] as const),
    // minor unit 3
    ...['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'].map((code) => [code, 3] as const),
    // minor unit 4
    ...['CLF', 'UYW'].map((code) => [code, 4] as const),
    // a sample of minor unit 2
    ...['EUR', 'USD', 'GBP', 'CHF', 'MGA', 'MRU', 'HUF', 'UYU', 'CNY', 'INR', 'TWD', 'ZWG']
      .concat(['SLE', 'VES'])
      .map((code) => [code, 2] as const),
  ] as [string, number][])('%s has %i decimals', (code, exponent) => {
    expect(exponentOf(code)).toBe(exponent);
  });

  test('the table holds exactly the 26 codes whose minor unit is not 2', () => {
    expect(
      Object.fromEntries([...CURRENCIES_BY_EXPONENT].map(([e, codes]) => [e, codes.length])),
    ).toEqual({ 0: 17, 3: 7, 4: 2 });
  });

  test.each(['ABC', 'XAU', 'XXX', '', 'constructor', '__proto__'])(
    'a code the list does not know (%p) has 2 decimals',
    (code) => {
      expect(exponentOf(code)).toBe(2);
    },
  );

  test('codes are read in any case', () => {
    expect(exponentOf('jpy')).toBe(0);
    expect(exponentOf('Bhd')).toBe(3);
  });
});

describe('decimalText and amountText', () => {
  test.each([
    [1234n, 3, '1.234'],
    [-5n, 0, '-5'],
    [5n, 2, '0.05'],
    [-5n, 3, '-0.005'],
    [0n, 2, '0.00'],
    [0n, 0, '0'],
    [1250n, 2, '12.50'],
    [12345678901234567890n, 4, '1234567890123456.7890'],
  ])('%p at %i places is %s', (units, places, text) => {
    expect(decimalText(units, places)).toBe(text);
  });

  test.each([
    [1500, 'JPY', '1500'],
    [1250, 'EUR', '12.50'],
    [1234, 'BHD', '1.234'],
    [-1, 'KWD', '-0.001'],
    [12345, 'CLF', '1.2345'],
    [99, 'ABC', '0.99'],
    [2n ** 60n, 'EUR', '11529215046068469.76'],
  ])('%p %s minor is %s', (minor, currency, text) => {
    expect(amountText(minor, currency)).toBe(text);
  });

  test('refuses a minor amount that is not whole', () => {
    expect(() => amountText(12.5, 'EUR')).toThrow(RangeError);
  });
});

describe('fromMinor', () => {
  test.each([
    [1500, 'JPY', 1500],
    [1250, 'EUR', 12.5],
    [1234, 'BHD', 1.234],
    [-5, 'JPY', -5],
    [-123, 'BHD', -0.123],
    [1, 'UYW', 0.0001],
    [123456, 'EUR', 1234.56],
    [0, 'BHD', 0],
    [2_147_483_647, 'JPY', 2_147_483_647],
    [2_147_483_647, 'KWD', 2_147_483.647],
    [12345n, 'EUR', 123.45],
  ])('%p %s minor is %p', (minor, currency, amount) => {
    expect(fromMinor(minor, currency)).toBe(amount);
    // JSON writes it as the exact decimal
    expect(JSON.stringify(fromMinor(minor, currency))).toBe(String(amount));
  });

  test('is the number the exact decimal text parses to, for every exponent', () => {
    const minors = [
      ...Array.from({ length: 20_001 }, (_, i) => i - 10_000),
      ...Array.from({ length: 2_000 }, (_, i) => Math.round(Math.sin(i + 1) * 2 ** 52)),
      Number.MAX_SAFE_INTEGER,
      Number.MIN_SAFE_INTEGER,
    ];
    for (const currency of ['JPY', 'EUR', 'BHD', 'CLF']) {
      const differing = minors.filter(
        (minor) => fromMinor(minor, currency) !== Number(amountText(minor, currency)),
      );
      expect([currency, differing]).toEqual([currency, []]);
    }
  });

  test('an amount past 2^53 minor units is the double nearest to its decimal', () => {
    expect(fromMinor(2n ** 60n + 1n, 'EUR')).toBe(Number('11529215046068469.77'));
  });
});

describe('toMinor', () => {
  test.each([
    [1500, 'JPY', 1500],
    [12.5, 'EUR', 1250],
    [1.234, 'BHD', 1234],
    [0.1, 'EUR', 10],
    [1.005, 'EUR', 101],
    [10.005, 'EUR', 1001],
    [-10.05, 'EUR', -1005],
    [0.0001, 'CLF', 1],
    [1e-7, 'EUR', 0],
    [1.5e21, 'JPY', 1.5e21],
    [99.99, 'ABC', 9999],
  ])('%p %s is %p minor', (amount, currency, minor) => {
    expect(toMinor(amount, currency)).toBe(minor);
  });

  test.each([
    [10.5, 'JPY', 11, 10, 11],
    [10.4, 'JPY', 11, 10, 10],
    [-10.5, 'JPY', -10, -11, -11],
    [12.345, 'EUR', 1235, 1234, 1235],
    [1.2345, 'BHD', 1235, 1234, 1235],
    [7, 'JPY', 7, 7, 7],
  ])('%p %s rounds up to %p, down to %p, to the nearest %p', (amount, currency, up, down, near) => {
    expect([
      toMinor(amount, currency, 'up'),
      toMinor(amount, currency, 'down'),
      toMinor(amount, currency, 'nearest'),
    ]).toEqual([up, down, near]);
  });

  test('refuses what is no finite number', () => {
    expect(() => toMinor(Number.NaN, 'EUR')).toThrow(RangeError);
    expect(() => toMinor(Number.POSITIVE_INFINITY, 'EUR')).toThrow(RangeError);
  });
});

describe('earningsPerClick', () => {
  test.each([
    [1234, 3, 'JPY', 411.33],
    [1234, 3, 'EUR', 4.1133],
    [1234, 3, 'BHD', 0.41133],
    [1, 8, 'JPY', 0.13],
    [1, 8, 'EUR', 0.0013],
    [5, 40, 'EUR', 0.0013],
    [0, 10, 'EUR', 0],
    [-1234, 3, 'JPY', -411.33],
  ])('%i minor over %i clicks in %s is %p', (minor, clicks, currency, epc) => {
    expect(earningsPerClick(minor, clicks, currency)).toBe(epc);
  });

  test('null without clicks', () => {
    expect(earningsPerClick(100, 0, 'EUR')).toBeNull();
  });
});
