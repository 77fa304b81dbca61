import { ColumnKind, type QueryColumn, type QueryResult } from './QueryResult';

/** How `query` prints its answer. */
export const QueryOutputFormat = {
  TABLE: 'table',
  CSV: 'csv',
  JSON: 'json',
} as const;

export type QueryOutputFormat = (typeof QueryOutputFormat)[keyof typeof QueryOutputFormat];

/** A table cell longer than this is cut, with `…`: one long comment must not push every column off screen. */
export const MAX_TABLE_CELL_CHARS = 60;
/** How a table shows a null (CSV leaves the field empty, JSON writes null). */
const TABLE_NULL = 'NULL';
const NUMERIC_KINDS = new Set<string>([ColumnKind.INTEGER, ColumnKind.FLOAT, ColumnKind.DECIMAL]);

export function formatQueryResult(result: QueryResult, format: QueryOutputFormat): string {
  switch (format) {
    case QueryOutputFormat.TABLE:
      return formatTable(result);
    case QueryOutputFormat.CSV:
      return formatCsv(result);
    case QueryOutputFormat.JSON:
      return `${JSON.stringify(
        result.rows.map((row) => jsonRow(result.columns, row)),
        null,
        2,
      )}\n`;
  }
}

/**
 * Columns aligned with spaces, numbers to the right, a rule under the header; a cell shows line
 * breaks and tabs as `\n`, `\r`, `\t`, so a row stays one line.
 */
function formatTable(result: QueryResult): string {
  const header = result.columns.map((column) => cellText(column.name));
  const body = result.rows.map((row) => row.map((value) => (value === null ? TABLE_NULL : cellText(value))));
  const widths = header.map((name, index) =>
    Math.max(displayWidth(name), ...body.map((row) => displayWidth(row[index] ?? ''))),
  );
  const line = (cells: string[], alignRight: (index: number) => boolean) =>
    cells
      .map((cell, index) => pad(cell, widths[index] ?? 0, alignRight(index)))
      .join('  ')
      .trimEnd();
  const numeric = (index: number) => NUMERIC_KINDS.has(result.columns[index]?.kind ?? '');
  return [
    line(header, numeric),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...body.map((row) => line(row, numeric)),
  ]
    .map((text) => `${text}\n`)
    .join('');
}

function cellText(value: string): string {
  const visible = value
    .replaceAll('\\', '\\\\')
    .replaceAll('\r', '\\r')
    .replaceAll('\n', '\\n')
    .replaceAll('\t', '\\t');
  const characters = [...visible];
  return characters.length <= MAX_TABLE_CELL_CHARS
    ? visible
    : `${characters.slice(0, MAX_TABLE_CELL_CHARS - 1).join('')}…`;
}

/** Characters on screen: code points, East Asian wide characters and emoji counting two. */
function displayWidth(text: string): number {
  let width = 0;
  for (const character of text) width += isWide(character.codePointAt(0) ?? 0) ? 2 : 1;
  return width;
}

function isWide(codePoint: number): boolean {
  return (
    (codePoint >= 0x1100 && codePoint <= 0x115f) ||
    (codePoint >= 0x2e80 && codePoint <= 0xa4cf) ||
    (codePoint >= 0xac00 && codePoint <= 0xd7a3) ||
    (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
    (codePoint >= 0xfe30 && codePoint <= 0xfe4f) ||
    (codePoint >= 0xff00 && codePoint <= 0xff60) ||
    (codePoint >= 0xffe0 && codePoint <= 0xffe6) ||
    (codePoint >= 0x1f300 && codePoint <= 0x1faff) ||
    (codePoint >= 0x20000 && codePoint <= 0x3fffd)
  );
}

function pad(text: string, width: number, right: boolean): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return right ? `${fill}${text}` : `${text}${fill}`;
}

/** RFC 4180 fields: quoted when they hold a comma, a quote or a line break; null is an empty field, `""` an empty string. */
function formatCsv(result: QueryResult): string {
  const field = (value: string | null) => {
    if (value === null) return '';
    return value === '' || /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
  };
  return [result.columns.map((column) => field(column.name)), ...result.rows.map((row) => row.map(field))]
    .map((fields) => `${fields.join(',')}\n`)
    .join('');
}

/** Numbers and booleans as JSON's own, except integers JavaScript cannot hold exactly, which stay text. */
function jsonRow(columns: readonly QueryColumn[], row: readonly (string | null)[]): Record<string, unknown> {
  return Object.fromEntries(
    columns.map((column, index) => [column.name, jsonValue(column, row[index] ?? null)]),
  );
}

function jsonValue(column: QueryColumn, value: string | null): unknown {
  if (value === null) return null;
  switch (column.kind) {
    case ColumnKind.INTEGER: {
      const number = Number(value);
      return Number.isSafeInteger(number) ? number : value;
    }
    case ColumnKind.FLOAT: {
      const number = Number(value);
      return Number.isFinite(number) ? number : value;
    }
    case ColumnKind.BOOLEAN:
      return value === 'true';
    default:
      return value;
  }
}
