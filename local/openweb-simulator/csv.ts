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

/** Parses RFC 4180 CSV (quoted fields may hold delimiters, quotes and line breaks). */
export function parseCsv(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let inQuotes = false;
  let index = 0;

  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };

  while (index < text.length) {
    const char = text[index] as string;
    if (inQuotes) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 2;
        continue;
      }
      if (char === '"') {
        inQuotes = false;
      } else {
        field += char;
      }
      index += 1;
      continue;
    }
    if (char === '"' && field === '') {
      inQuotes = true;
    } else if (text.startsWith(delimiter, index)) {
      endField();
      index += delimiter.length;
      continue;
    } else if (char === '\r' && text[index + 1] === '\n') {
      endRow();
      index += 2;
      continue;
    } else if (char === '\n') {
      endRow();
    } else {
      field += char;
    }
    index += 1;
  }
  // A file ending without a line break still ends its last row.
  if (field !== '' || row.length > 0) {
    endRow();
  }
  return rows;
}
