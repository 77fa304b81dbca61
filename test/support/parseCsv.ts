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
