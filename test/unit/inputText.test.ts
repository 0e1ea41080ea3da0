// Control characters in GraphQL string inputs (src/graphql/inputText.ts).
import { parse } from 'graphql';
import { inputWithControlCharacter } from '../../src/graphql/inputText';

const found = (query: string, variables?: Record<string, unknown>) =>
  inputWithControlCharacter(parse(query), variables);

test.each([
  ['an argument', '{ a(search: "x\\u0000") }', 'search'],
  ['a list item', '{ a(categories: ["ok", "x\\n"]) }', 'categories'],
  ['an input object field', '{ a(input: { name: "x\\u007f" }) }', 'input'],
  ['a directive argument', '{ a @include(if: true, note: "\\u0001") }', 'note'],
  ['a variable default', 'query ($s: String = "\\u0000") { a(search: $s) }', '$s'],
  ['a block string', '{ a(search: """x\u0007y""") }', 'search'],
])('finds %s', (_what, query, name) => {
  expect(found(query)).toBe(name);
});

test('finds a declared variable, nested anywhere in its value', () => {
  const query = 'query ($input: CreateApiKeyInput!) { a(input: $input) }';
  expect(found(query, { input: { scopes: ['ok', 'x\u0000'] } })).toBe('$input');
});

test('ignores variables the operation does not declare', () => {
  expect(found('{ a }', { unused: '\u0000' })).toBeNull();
});

test('lets ordinary text through, tabs and newlines of the document itself included', () => {
  expect(found('{\n\ta(search: "Café ☕ 😀 \\" \\\\") }', { s: 'fine' })).toBeNull();
});
