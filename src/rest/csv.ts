// CSV answers of list routes that offer them (`csv: true` in the route table), for spreadsheets:
// the rows of the JSON body's `data`, one column per leaf field of the row type (nested objects
// flattened as `earningsByStatus.PENDING`), with a header row. The page info goes in headers.
import { getNamedType, isObjectType, type GraphQLField, type GraphQLObjectType } from 'graphql';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8; header=present';
/** The list's total rows (`meta.total`) on a CSV answer, which has no envelope. */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';

/** The quality an Accept header gives a media type (exact, `type/*`, or `* /*`); 0 when absent. */
function qualityOf(accept: string, type: string): number {
  const [major] = type.split('/');
  let best = { specificity: -1, quality: 0 };
  for (const range of accept.split(',')) {
    const [name = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const specificity = name === type ? 2 : name === `${major}/*` ? 1 : name === '*/*' ? 0 : -1;
    if (specificity <= best.specificity) continue;
    const q = params.find((param) => param.startsWith('q='));
    const quality = q ? Number(q.slice(2)) : 1;
    best = { specificity, quality: Number.isFinite(quality) ? quality : 0 };
  }
  return best.quality;
}

/** Whether the client asks for CSV rather than JSON (JSON wins a tie: it is the default). */
export function prefersCsv(accept: string | null): boolean {
  if (!accept) return false;
  const csv = qualityOf(accept, 'text/csv');
  return csv > 0 && csv > qualityOf(accept, 'application/json');
}

/** The row type of a list field's envelope (`{ data: [Row] }`). */
export function rowTypeOf(field: GraphQLField<unknown, unknown>): GraphQLObjectType {
  const envelope = getNamedType(field.type);
  const data = isObjectType(envelope) ? envelope.getFields().data : undefined;
  const row = data && getNamedType(data.type);
  if (!row || !isObjectType(row)) throw new Error(`${field.name} answers no list of rows`);
  return row;
}

/** Column paths of a row type, in field order; nested objects give their own fields. */
export function csvColumns(type: GraphQLObjectType, prefix: string[] = []): string[][] {
  return Object.values(type.getFields()).flatMap((field) => {
    const named = getNamedType(field.type);
    const path = [...prefix, field.name];
    return isObjectType(named) ? csvColumns(named, path) : [path];
  });
}

/**
 * Text a spreadsheet would run as a formula (OWASP, CSV injection): starting with `= + - @`, a tab
 * or a carriage return, or the full-width `＝ ＋ － ＠` that spreadsheets also read as operators,
 * also after leading whitespace, which spreadsheets skip. Such text is written after a `'`.
 */
const FORMULA_START = /^\s*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * One cell: empty for null, numbers as they are, text always quoted (a spreadsheet whose locale
 * separates cells with `;` reads `Lumen;=1+1` unquoted as two cells, the second a formula) with
 * formulas neutralised.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${text.replace(/"/g, '""')}"`;
}

/** The CSV text of rows: a header row of the column paths, then one line per row (CRLF, RFC 4180). */
export function csvOf(columns: string[][], rows: readonly unknown[]): string {
  const valueAt = (row: unknown, path: string[]) =>
    path.reduce<unknown>(
      (value, name) =>
        value !== null && typeof value === 'object'
          ? (value as Record<string, unknown>)[name]
          : undefined,
      row,
    );
  const lines = [
    columns.map((path) => csvCell(path.join('.'))),
    ...rows.map((row) => columns.map((path) => csvCell(valueAt(row, path)))),
  ];
  return lines.map((cells) => `${cells.join(',')}\r\n`).join('');
}
