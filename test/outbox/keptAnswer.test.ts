// What is kept of a receiver's answer: at most 4 KiB once written out as JSON.
import { keptAnswer, RESPONSE_BODY_MAX_BYTES } from '../../src/outbox/send';

const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

test.each([
  ['plain text', 'ok '.repeat(3_000)],
  ['control characters, six bytes each in JSON', '\u0001'.repeat(4_096)],
  ['quotes and newlines', '"\n'.repeat(3_000)],
  ['multi-byte characters', 'é€😀'.repeat(1_000)],
])('%s: at most 4 KiB as JSON', (_case, answer) => {
  const kept = keptAnswer(Buffer.from(answer));
  expect(jsonBytes(kept)).toBeLessThanOrEqual(RESPONSE_BODY_MAX_BYTES);
  expect(answer.startsWith(kept)).toBe(true);
  expect(jsonBytes(kept)).toBeGreaterThan(RESPONSE_BODY_MAX_BYTES - 8);
});

test('a short answer is kept whole', () => {
  expect(keptAnswer(Buffer.from('OK'))).toBe('OK');
});
