// What counts as a secret in a shown request: parameters whose name has a secret's word.
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
