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

test('cells: quoted when needed, empty for null, formulas defused', () => {
  expect(csvCell(null)).toBe('');
  expect(csvCell(1.5)).toBe('1.5');
  expect(csvCell(-2)).toBe('-2');
  expect(csvCell('Shoes, "Aurora"')).toBe('"Shoes, ""Aurora"""');
  expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
  expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
});

test('csvOf: a header row, then a line per row, CRLF', () => {
  const columns = [['date'], ['byStatus', 'PAID']];
  expect(csvOf(columns, [{ date: '2026-03-01', byStatus: { PAID: 2 } }])).toBe(
    'date,byStatus.PAID\r\n2026-03-01,2\r\n',
  );
  expect(csvOf(columns, [])).toBe('date,byStatus.PAID\r\n');
});
