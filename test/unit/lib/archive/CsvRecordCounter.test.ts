import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { CsvRecordCounter } from '../../../../lib/archive/CsvRecordCounter';
import { formatCsv } from '../../../../local/openweb-simulator/csv';
import { parseCsv } from '../../../support/parseCsv';

/** Feeds `text` in chunks of `chunkBytes`, so records and quotes straddle chunk boundaries. */
async function countRows(text: string, chunkBytes = 3): Promise<number> {
  const bytes = Buffer.from(text, 'utf8');
  const chunks = Array.from({ length: Math.ceil(bytes.length / chunkBytes) }, (_, index) =>
    bytes.subarray(index * chunkBytes, (index + 1) * chunkBytes),
  );
  const counter = new CsvRecordCounter();
  await pipeline(Readable.from(chunks), counter, async (source) => {
    for await (const _chunk of source);
  });
  return counter.rows;
}

describe('CsvRecordCounter', () => {
  it('counts data rows, header excluded, with or without a final line break', async () => {
    expect(await countRows('id,text\r\n1,a\r\n2,b\r\n')).toBe(2);
    expect(await countRows('id,text\r\n1,a\r\n2,b')).toBe(2);
    expect(await countRows('id,text\n1,a\n')).toBe(1);
  });

  it('does not end a record at a line break inside quotes, and reads "" as an escaped quote', async () => {
    const text = 'id,text\r\n1,"two\r\nlines"\r\n2,"say ""hi""\nthere"\r\n3,"a,b"\r\n';
    expect(await countRows(text, 1)).toBe(3);
    expect(parseCsv(text, ',').length - 1).toBe(3);
  });

  it('agrees with a full CSV parser on generated rows full of quotes, delimiters, line breaks and non-ASCII text', async () => {
    const rows = [
      ['id', 'text'],
      ...Array.from({ length: 200 }, (_, index) => [
        String(index),
        index % 3 === 0
          ? `multi\r\nline "${index}"; ok`
          : index % 3 === 1
            ? 'ünïcödé, “quotes”'
            : `plain ${index}`,
      ]),
    ];
    for (const delimiter of [',', ';', '\t']) {
      const text = formatCsv(rows, delimiter);
      expect(await countRows(text, 7)).toBe(parseCsv(text, delimiter).length - 1);
      expect(await countRows(text, 7)).toBe(200);
    }
  });

  it('counts no rows in an empty file or a header alone', async () => {
    expect(await countRows('')).toBe(0);
    expect(await countRows('id,text\r\n')).toBe(0);
  });
});
