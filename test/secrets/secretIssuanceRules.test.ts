// How many secret-issuing fields an operation selects at its root: one request with an
// Idempotency-Key may issue one secret.
import { parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { schema } from '../../src/modules';
import {
  rootFieldCount,
  secretIssuingFields,
  storedIssueOf,
} from '../../src/modules/secrets/rules';

test('the mutations declared with issuesSecret are the ones an Idempotency-Key covers', () => {
  expect([...secretIssuingFields(schema)].sort()).toEqual([
    'createApiKey',
    'createWebhookEndpoint',
    'rotateApiKey',
  ]);
});

describe('rootFieldCount', () => {
  function count(document: string): number {
    const parsed = parse(document);
    const operation = parsed.definitions.find(
      (definition): definition is OperationDefinitionNode =>
        definition.kind === 'OperationDefinition',
    )!;
    const fragments = Object.fromEntries(
      parsed.definitions
        .filter(
          (definition): definition is FragmentDefinitionNode =>
            definition.kind === 'FragmentDefinition',
        )
        .map((fragment) => [fragment.name.value, fragment]),
    );
    return rootFieldCount(operation, fragments, secretIssuingFields(schema));
  }

  test.each([
    ['mutation { createApiKey(input: { name: "a" }) { apiKey } }', 1],
    ['mutation { rotateApiKey(id: "x") { apiKey } revokeApiKey(id: "y") { id } }', 1],
    [
      'mutation { a: createApiKey(input: { name: "a" }) { apiKey } b: rotateApiKey(id: "x") { apiKey } }',
      2,
    ],
    [
      'mutation { ... on Mutation { createApiKey(input: { name: "a" }) { apiKey } } createApiKey(input: { name: "b" }) { apiKey } }',
      2,
    ],
    [
      'mutation { ...F ...F } fragment F on Mutation { createApiKey(input: { name: "a" }) { apiKey } }',
      1,
    ],
    [
      'mutation { ...F } fragment F on Mutation { ...G createApiKey(input: { name: "a" }) { apiKey } } fragment G on Mutation { rotateApiKey(id: "x") { apiKey } }',
      2,
    ],
    [
      'mutation { createApiKey(input: { name: "a" }) { apiKey } createWebhookEndpoint(input: { url: "https://h", events: [] }) { secret } }',
      2,
    ],
    ['mutation { createWebhookEndpoint(input: { url: "https://h", events: [] }) { secret } }', 1],
    ['mutation { revokeApiKey(id: "y") { id } }', 0],
  ])('%s -> %p', (document, expected) => {
    expect(count(document)).toBe(expected);
  });
});

describe('storedIssueOf', () => {
  test('reads the id and the sealed secret of a stored answer', () => {
    expect(storedIssueOf({ id: 'k1', sealedSecret: 'v1.s' })).toEqual({
      id: 'k1',
      sealedSecret: 'v1.s',
    });
  });

  test('reads an API key answer stored by an earlier release (keyId, sealedApiKey)', () => {
    expect(storedIssueOf({ keyId: 'k1', sealedApiKey: 'v1.s' })).toEqual({
      id: 'k1',
      sealedSecret: 'v1.s',
    });
  });

  test.each([null, 'text', {}, { id: 'k1' }, { id: 1, sealedSecret: 'v1.s' }])(
    'holds nothing to replay in %p',
    (body) => {
      expect(storedIssueOf(body)).toBeNull();
    },
  );
});
