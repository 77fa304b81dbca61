/** Lines end with CRLF, as RFC 4180 asks. */
export const CSV_LINE_END = '\r\n';

/**
 * Quotes a field when it holds the delimiter, a quote or a line break, or starts or ends with
 * whitespace (which some readers trim); quotes inside are doubled.
 */
export function formatCsvField(value: string, delimiter: string): string {
  const needsQuotes = value.includes(delimiter) || /["\r\n]|^\s|\s$/.test(value);
  return needsQuotes ? `"${value.replaceAll('"', '""')}"` : value;
}

export function formatCsv(rows: readonly (readonly string[])[], delimiter: string): string {
  return rows
    .map((row) => row.map((field) => formatCsvField(field, delimiter)).join(delimiter) + CSV_LINE_END)
    .join('');
}
