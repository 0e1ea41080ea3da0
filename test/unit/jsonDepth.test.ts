// How deeply JSON text nests, told before it is parsed (src/limits/jsonDepth.ts).
import { jsonNestsTooDeep, MAX_JSON_DEPTH } from '../../src/limits/jsonDepth';

const arrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const objects = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

describe('jsonNestsTooDeep', () => {
  test.each([
    ['arrays', arrays],
    ['objects', objects],
  ])('%s: at the limit no, one level more yes', (_kind, nest) => {
    expect(jsonNestsTooDeep(nest(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonNestsTooDeep(nest(MAX_JSON_DEPTH + 1))).toBe(true);
  });

  test('siblings do not add up: the depth is the deepest path', () => {
    const wide = `[${Array(1_000)
      .fill(arrays(MAX_JSON_DEPTH - 1))
      .join(',')}]`;
    expect(jsonNestsTooDeep(wide)).toBe(false);
  });

  test('brackets inside strings, escaped quotes included, do not count', () => {
    const text = JSON.stringify({ q: `\\"${'['.repeat(1_000)}`, r: '{'.repeat(1_000) });
    expect(jsonNestsTooDeep(text)).toBe(false);
    expect(jsonNestsTooDeep(`["\\"", ${arrays(MAX_JSON_DEPTH)}]`)).toBe(true);
  });

  test('a smaller limit may be asked for', () => {
    expect(jsonNestsTooDeep('{"a":[{"b":[]}]}', 3)).toBe(true);
    expect(jsonNestsTooDeep('{"a":[{"b":1}]}', 3)).toBe(false);
  });

  test('a 100,000-deep body is told in one pass', () => {
    expect(jsonNestsTooDeep(arrays(100_000))).toBe(true);
  });
});
