import { statementNamer } from '../../src/platform/db';

const sql = (text: string) => ({ sql: text });

describe('names of prepared statements', () => {
  test('a statement is sent unnamed the first time and named from the second time on', () => {
    const nameOf = statementNamer();
    expect(nameOf(sql('SELECT 1'))).toBe('');
    const name = nameOf(sql('SELECT 1'));
    expect(name).not.toBe('');
    expect(nameOf(sql('SELECT 1'))).toBe(name);
  });

  test('different statements get different names', () => {
    const nameOf = statementNamer();
    for (const text of ['SELECT 1', 'SELECT 2', 'SELECT 1', 'SELECT 2']) nameOf(sql(text));
    expect(nameOf(sql('SELECT 1'))).not.toBe(nameOf(sql('SELECT 2')));
  });

  test('at most the given number of statements are named; the rest stay unnamed', () => {
    const nameOf = statementNamer(2);
    const texts = ['SELECT 1', 'SELECT 2', 'SELECT 3'];
    for (const text of [...texts, ...texts]) nameOf(sql(text));
    expect(texts.map((text) => nameOf(sql(text)) !== '')).toEqual([true, true, false]);
  });

  test('statements seen once are remembered up to a bound, so one-off SQL cannot grow it', () => {
    const nameOf = statementNamer(10, 2);
    for (const text of ['SELECT 1', 'SELECT 2', 'SELECT 3']) nameOf(sql(text));
    // The third one-off was not remembered: seen again, it is still a first sighting.
    expect(nameOf(sql('SELECT 3'))).toBe('');
    expect(nameOf(sql('SELECT 1'))).not.toBe('');
  });
});
