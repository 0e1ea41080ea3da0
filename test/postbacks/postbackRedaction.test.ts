// What counts as a secret in a shown request: parameters whose name has a secret's word.
import { withoutSecrets } from '../../src/outbox/lane';
import {
  isSecretName,
  redactJson,
  redactPairs,
  redactUrl,
} from '../../src/modules/postbacks/redaction';

test.each([
  'token',
  'access_token',
  'accessToken',
  'AccessToken',
  'api_key',
  'apikey',
  'apiKey',
  'postback-key',
  'key',
  'secret',
  'client_secret',
  'password',
  'pwd',
  'signature',
  'x-sig',
  'auth',
  'hash',
])('%s names a secret', (name) => {
  expect(isSecretName(name)).toBe(true);
});

test.each(['subid', 'keyword', 'monkey', 'status', 'payout', 'cid', 'txid', 'author', 'passage'])(
  '%s does not',
  (name) => {
    expect(isSecretName(name)).toBe(false);
  },
);

test('a URL keeps its path and its other parameters as written', () => {
  expect(redactUrl('https://t.example/p?subid=a%26b&api%5Fkey=k&x&token=')).toBe(
    'https://t.example/p?subid=a%26b&api%5Fkey=REDACTED&x&token=REDACTED',
  );
  expect(redactUrl('https://t.example/p')).toBe('https://t.example/p');
});

test('form fields and JSON members, at any depth', () => {
  expect(redactPairs('a=1&sig=2')).toBe('a=1&sig=REDACTED');
  expect(JSON.parse(redactJson('{"a":[{"secret":1}],"b":{"c":"d"},"password":{"x":1}}'))).toEqual({
    a: [{ secret: 'REDACTED' }],
    b: { c: 'd' },
    password: 'REDACTED',
  });
});

describe("a kept answer without the request's secrets", () => {
  test('every occurrence, the longest secret first', () => {
    expect(withoutSecrets('a=sekret-long b=sekret', ['sekret', 'sekret-long'])).toBe(
      'a=REDACTED b=REDACTED',
    );
  });

  test('the start of a secret that the cut of the answer leaves at its end', () => {
    expect(withoutSecrets('echo: sekret-lo', ['sekret-long'])).toBe('echo: REDACTED');
    // Shorter than four characters: too short to tell from any text.
    expect(withoutSecrets('echo: sek', ['sekret-long'])).toBe('echo: sek');
  });
});
