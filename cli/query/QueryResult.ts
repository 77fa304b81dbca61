/** How a column's values are shown: numbers right-aligned and as JSON numbers, the rest as text. */
export const ColumnKind = {
  INTEGER: 'integer',
  FLOAT: 'float',
  DECIMAL: 'decimal',
  BOOLEAN: 'boolean',
  TEXT: 'text',
} as const;

export type ColumnKind = (typeof ColumnKind)[keyof typeof ColumnKind];

export interface QueryColumn {
  name: string;
  /** The engine's own type name, e.g. `bigint` (Athena) or `BIGINT` (DuckDB). */
  type: string;
  kind: ColumnKind;
}

/**
 * A query's answer, the same shape from both engines: every value as text in one canonical form
 * (integers and decimals as written, floats as JavaScript prints them, timestamps as
 * `YYYY-MM-DD HH:MM:SS.mmm`), or null, so the same question prints the same answer on both.
 */
export interface QueryResult {
  columns: QueryColumn[];
  rows: (string | null)[][];
  /** What the query read (Athena bills by it); undefined where the engine does not say. */
  scannedBytes?: number;
}

/** A float in canonical text: `5.714E1` (Trino's way) and `57.14` are both `57.14`. */
export function canonicalFloatText(text: string): string {
  const value = Number(text);
  return Number.isNaN(value) ? text : String(value);
}

/**
 * A timestamp with milliseconds, always three digits (Athena's `timestamp(3)`):
 * `2024-05-01 10:00:00` → `2024-05-01 10:00:00.000`, `…:00.123456` → `…:00.123`.
 */
export function canonicalTimestampText(text: string): string {
  const match = /^(\d{4,}-\d\d-\d\d \d\d:\d\d:\d\d)(?:\.(\d+))?(.*)$/.exec(text);
  if (match === null) return text;
  const [, seconds, fraction = '', rest = ''] = match;
  return `${seconds}.${fraction.padEnd(3, '0').slice(0, 3)}${rest}`;
}
