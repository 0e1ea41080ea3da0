// What a postback's rendered request shows its owner (deliveries, tests): the request as sent, but
// with its secrets replaced by REDACTED. A secret is the `{secret}` macro's value (rendered as
// REDACTED) and the value of every query parameter, form field or JSON member whose name has a
// word of SECRET_WORDS (`token`, `api_key`, `postbackKey`, `x-signature`; `keyword` has none).
// Pure.

export const REDACTED = 'REDACTED';

/** Words that make a parameter's value a secret. */
const SECRET_WORDS = new Set([
  'token',
  'key',
  'apikey',
  'secret',
  'password',
  'passwd',
  'pwd',
  'pass',
  'signature',
  'sig',
  'auth',
  'hash',
  'hmac',
  'credential',
  'credentials',
]);
/** Names that hold such a word without separating it (accesstoken, clientsecret). */
const SECRET_INSIDE = /token|secret|passw|signature|apikey/;

/** Whether a parameter of this name carries a secret. */
export function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.some((word) => SECRET_WORDS.has(word)) || SECRET_INSIDE.test(name.toLowerCase());
}

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** `a=1&token=2` -> `a=1&token=REDACTED`: pairs kept in order, as written. */
export function redactPairs(pairs: string): string {
  return pairs
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return equals !== -1 && isSecretName(decodedName(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
}

/** The values of the secret pairs of `a=1&token=2`, as written and decoded. */
export function secretsInPairs(pairs: string): string[] {
  return pairs.split('&').flatMap((pair) => {
    const equals = pair.indexOf('=');
    if (equals === -1 || !isSecretName(decodedName(pair.slice(0, equals)))) return [];
    const value = pair.slice(equals + 1);
    return value ? [value, decodedName(value)] : [];
  });
}

/** A URL with the values of its secret query parameters redacted (templates have no fragment). */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : `${url.slice(0, query + 1)}${redactPairs(url.slice(query + 1))}`;
}

function redactJsonValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJsonValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        isSecretName(key) ? REDACTED : redactJsonValue(item),
      ]),
    );
  }
  return value;
}

function secretJsonValues(value: unknown, isSecret = false): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => secretJsonValues(item, isSecret));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) =>
      secretJsonValues(item, isSecret || isSecretName(key)),
    );
  }
  return isSecret && value !== null && value !== '' ? [String(value)] : [];
}

/** The values of a JSON text's secret members. */
export function secretsInJson(json: string): string[] {
  return secretJsonValues(JSON.parse(json));
}

/** A JSON text with the values of its secret members redacted. */
export function redactJson(json: string): string {
  return JSON.stringify(redactJsonValue(JSON.parse(json)));
}
