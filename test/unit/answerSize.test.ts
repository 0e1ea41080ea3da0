// The /graphql answer budget: serialization stops at the first value past it.
import { AnswerTooLarge, boundedStringify } from '../../src/graphql/answerSize';

const past = {
  toJSON: () => {
    throw new Error('serialized past the budget');
  },
};

test('an answer within the budget is JSON.stringify’s own text', () => {
  const value = { data: { rows: ['a', 'b\u0001', { n: 1.5 }] } };
  expect(boundedStringify(1_000)(value)).toBe(JSON.stringify(value));
});

test('an answer past the budget stops at the value that passes it, not at the end', () => {
  const rows = [...Array.from({ length: 20 }, () => 'x'.repeat(1_000)), past];
  expect(() => boundedStringify(10_000)(rows)).toThrow(AnswerTooLarge);
});

test('escaped characters count as JSON writes them', () => {
  // 1,000 control characters are 6,000 characters of JSON.
  const rows = [...Array.from({ length: 3 }, () => '\u0001'.repeat(1_000)), past];
  expect(() => boundedStringify(10_000)(rows)).toThrow(AnswerTooLarge);
});

test('the finished text is measured in bytes', () => {
  expect(() => boundedStringify(1_000)(['é'.repeat(600)])).toThrow(AnswerTooLarge);
});
