// CSV answers (src/rest/csv.ts): negotiation, columns of a row type, cells.
import { buildSchema, type GraphQLObjectType } from 'graphql';
import { csvCell, csvColumns, csvOf, prefersCsv } from '../../src/rest/csv';

describe('prefersCsv', () => {
  test.each([
    ['text/csv', true],
    ['text/csv, application/json;q=0.9', true],
    ['text/*', true],
    ['application/json, text/csv;q=0.5', false],
    ['text/csv, application/json', false],
    ['*/*', false],
    ['application/json', false],
    ['text/csv;q=0', false],
    ['', false],
  ])('Accept: %s -> %s', (accept, csv) => expect(prefersCsv(accept)).toBe(csv));
  test('no Accept: JSON', () => expect(prefersCsv(null)).toBe(false));
});

const schema = buildSchema(`
  type Money { PENDING: Float, PAID: Float }
  type Row { date: String, clicks: Int, byStatus: Money }
  type Query { row: Row }
`);

test('columns: leaf fields in order, nested objects flattened', () => {
  expect(csvColumns(schema.getType('Row') as GraphQLObjectType)).toEqual([
    ['date'],
    ['clicks'],
    ['byStatus', 'PENDING'],
    ['byStatus', 'PAID'],
  ]);
});

describe('csvCell', () => {
  test('null is an empty cell; numbers are written as they are', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(1.5)).toBe('1.5');
    expect(csvCell(-2)).toBe('-2');
    expect(csvCell(0)).toBe('0');
  });

  test('text is always quoted, its quotes doubled', () => {
    expect(csvCell('Aurora Shoes')).toBe('"Aurora Shoes"');
    expect(csvCell('Shoes, "Aurora"')).toBe('"Shoes, ""Aurora"""');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvCell('')).toBe('""');
  });

  test('a semicolon cannot split a cell for semicolon-locale spreadsheets', () => {
    expect(csvCell('Lumen;=1+1')).toBe('"Lumen;=1+1"');
  });

  // OWASP, CSV injection: cells must not start with = + - @ tab or carriage return.
  test.each([
    ['=HYPERLINK("x")', '"\'=HYPERLINK(""x"")"'],
    ['+1+1', '"\'+1+1"'],
    ['-2+3', '"\'-2+3"'],
    ['@SUM(A1)', '"\'@SUM(A1)"'],
    ['\t=1+1', '"\'\t=1+1"'],
    ['\r=1+1', '"\'\r=1+1"'],
    ['\tplain', '"\'\tplain"'],
  ])('%j starting a formula is written after a quote', (text, cell) => {
    expect(csvCell(text)).toBe(cell);
  });

  test.each([
    ['＝1+1', '"\'＝1+1"'],
    ['＋1', '"\'＋1"'],
    ['－1', '"\'－1"'],
    ['＠SUM(A1)', '"\'＠SUM(A1)"'],
  ])('the full-width form %j is neutralised too', (text, cell) => {
    expect(csvCell(text)).toBe(cell);
  });

  test.each([
    ['  =1+1', '"\'  =1+1"'],
    ['\u00a0@SUM(A1)', '"\'\u00a0@SUM(A1)"'],
    ['\u3000＝1+1', '"\'\u3000＝1+1"'],
    ['\n-1', '"\'\n-1"'],
  ])('after leading whitespace, %j is neutralised', (text, cell) => {
    expect(csvCell(text)).toBe(cell);
  });

  test('text with an operator further in is left as it is', () => {
    expect(csvCell('a=b')).toBe('"a=b"');
    expect(csvCell('2026-03-01')).toBe('"2026-03-01"');
  });
});

test('csvOf: a header row, then a line per row, CRLF', () => {
  const columns = [['date'], ['byStatus', 'PAID']];
  expect(csvOf(columns, [{ date: '2026-03-01', byStatus: { PAID: 2 } }])).toBe(
    '"date","byStatus.PAID"\r\n"2026-03-01",2\r\n',
  );
  expect(csvOf(columns, [])).toBe('"date","byStatus.PAID"\r\n');
});
