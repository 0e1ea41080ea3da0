// Each currency's minor unit (its ISO 4217 exponent), and amounts between the minor units the
// database stores and the decimal numbers every surface answers: 1500 JPY-minor is 1500 yen,
// 1250 EUR-minor 12.50 euros, 1234 BHD-minor 1.234 dinars. Pure.

/**
 * The ISO 4217 currencies whose minor unit is not a hundredth, from the standard's list one
 * (column "Minor unit", as maintained by SIX Financial Information for ISO). Every other code has
 * two decimals, and so has a code the list does not know: two decimals is the common case, and a
 * code without a minor unit in the standard (XAU, XDR ...) is no currency an order is paid in.
 * Not `Intl.NumberFormat`: its digits are CLDR's display conventions, not ISO's minor units
 * (CLDR shows IQD, HUF, IDR and 14 others with fewer digits than the currency has).
 */
const EXPONENTS: ReadonlyMap<string, number> = new Map([
  ...['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND']
    .concat(['VUV', 'XAF', 'XOF', 'XPF'])
    .map((code) => [code, 0] as const),
  ...['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'].map((code) => [code, 3] as const),
  ...['CLF', 'UYW'].map((code) => [code, 4] as const),
]);

/** The decimals of every other code, listed by ISO 4217 or not. */
export const DEFAULT_EXPONENT = 2;

/** ISO 4217's code for "no currency involved": what an amount of nothing (zero) is counted in. */
export const NO_CURRENCY = 'XXX';

/** The currencies whose exponent is not the default, by exponent (for filters per currency). */
export const CURRENCIES_BY_EXPONENT: ReadonlyMap<number, readonly string[]> = [...EXPONENTS].reduce(
  (groups, [code, exponent]) => {
    groups.set(exponent, [...(groups.get(exponent) ?? []), code]);
    return groups;
  },
  new Map<number, string[]>(),
);

/** The decimals of a currency's amounts: 0 for JPY, 2 for EUR, 3 for BHD; 2 for an unknown code. */
export function exponentOf(currency: string): number {
  return EXPONENTS.get(currency.toUpperCase()) ?? DEFAULT_EXPONENT;
}

/**
 * An integer count of 10^-places units as exact decimal text: (1234n, 3) -> "1.234",
 * (-5n, 0) -> "-5", (5n, 2) -> "0.05". Every digit the places hold is written ("12.50").
 */
export function decimalText(units: bigint, places: number): string {
  const sign = units < 0n ? '-' : '';
  const digits = (units < 0n ? -units : units).toString().padStart(places + 1, '0');
  if (places === 0) return sign + digits;
  return `${sign}${digits.slice(0, -places)}.${digits.slice(-places)}`;
}

/** Minor units as the amount's exact decimal text, every decimal of the currency written: "12.50". */
export function amountText(minor: number | bigint, currency: string): string {
  return decimalText(BigInt(minor), exponentOf(currency));
}

/**
 * Minor units as the number the answers carry: 1500 JPY -> 1500, 1250 EUR -> 12.5, 1234 BHD ->
 * 1.234, -5 JPY -> -5. It is the number the exact decimal text parses to, the double nearest to
 * the amount, which JSON writes back as that decimal.
 */
export function fromMinor(minor: number | bigint, currency: string): number {
  const exponent = exponentOf(currency);
  const whole = typeof minor === 'bigint' ? Number(minor) : minor;
  // Both operands are exact doubles and IEEE 754 rounds a quotient correctly, so this is that
  // same nearest double (test/unit/currencies.test.ts compares the two), at a hundredth of the cost.
  if (Number.isSafeInteger(whole)) return whole / 10 ** exponent;
  return Number(decimalText(BigInt(minor), exponent));
}

/** How an amount with more decimals than its currency has becomes whole minor units. */
export type MinorRounding = 'nearest' | 'up' | 'down';

const DECIMAL_NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/**
 * The minor units of an amount in major units: 12.5 EUR -> 1250, 1500 JPY -> 1500, 1.234 BHD ->
 * 1234. Read from the number's shortest decimal text (what its sender wrote, 10.005 and not the
 * double's 10.00499...), then rounded to a whole minor unit: to the nearest (half away from zero),
 * up or down (a lower bound of a filter rounds up, an upper bound down: 10.5 yen is at least 11).
 */
export function toMinor(amount: number, currency: string, rounding: MinorRounding = 'nearest') {
  return scaledToMinor(amount, exponentOf(currency), rounding);
}

/** `toMinor` for a currency of `exponent` decimals. */
export function scaledToMinor(amount: number, exponent: number, rounding: MinorRounding): number {
  const parts = DECIMAL_NUMBER.exec(String(amount));
  if (!parts) throw new RangeError(`${amount} is no finite amount`);
  const [, sign = '', whole = '', fraction = '', power = '0'] = parts;
  const digits = BigInt(whole + fraction);
  // amount = digits * 10^(power - fraction.length); minor = amount * 10^exponent.
  const shift = exponent + Number(power) - fraction.length;
  let magnitude: bigint;
  if (shift >= 0) {
    magnitude = digits * 10n ** BigInt(shift);
  } else {
    const divisor = 10n ** BigInt(-shift);
    const quotient = digits / divisor;
    const remainder = digits % divisor;
    const awayFromZero =
      remainder !== 0n &&
      (rounding === 'nearest' ? remainder * 2n >= divisor : (rounding === 'up') === (sign === ''));
    magnitude = awayFromZero ? quotient + 1n : quotient;
  }
  return Number(sign === '-' ? -magnitude : magnitude);
}
