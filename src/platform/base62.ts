// Base62 (digits, upper- and lower-case letters): the alphabet of API key secrets and short-link
// codes.
import { randomInt } from 'node:crypto';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters drawn at random (crypto) from `alphabet`, base62 unless told otherwise. */
export function randomString(length: number, alphabet = BASE62): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet.charAt(randomInt(alphabet.length));
  return out;
}

/** `value` in base62, left-padded with zeros to `width` characters. */
export function toBase62(value: number, width: number): string {
  let out = '';
  let rest = value;
  do {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out.padStart(width, '0');
}
