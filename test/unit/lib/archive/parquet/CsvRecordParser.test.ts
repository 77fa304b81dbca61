import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvRecordCounter } from '../../../../../lib/archive/CsvRecordCounter';
import { CsvRecordParser } from '../../../../../lib/archive/parquet/CsvRecordParser';
import { formatCsv } from '../../../../../local/openweb-simulator/csv';
import { parseCsv } from '../../../../support/parseCsv';

const DELIMITERS = [',', ';', '|', '\t'] as const;

/** Every record of `bytes` as strings, fed in chunks of `chunkBytes`. */
function parse(bytes: Buffer | string, delimiter = ',', chunkBytes = Number.POSITIVE_INFINITY): string[][] {
  const input = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  const records: string[][] = [];
  const parser = new CsvRecordParser(delimiter, (fields) => {
    records.push(fields.map((field) => field.toString('utf8')));
  });
  for (let start = 0; start < input.length; start += chunkBytes) {
    // A copy per chunk, as a stream hands them over.
    parser.push(Buffer.from(input.subarray(start, Math.min(input.length, start + chunkBytes))));
  }
  parser.end();
  return records;
}

async function counted(bytes: Buffer): Promise<number> {
  const counter = new CsvRecordCounter();
  await pipeline(Readable.from([bytes]), counter, async (source) => {
    for await (const _chunk of source);
  });
  return counter.records;
}

describe('CsvRecordParser', () => {
  it.each(DELIMITERS.map((delimiter) => [JSON.stringify(delimiter), delimiter]))(
    'splits records and fields with the delimiter %s, quoted fields holding it, quotes and line breaks',
    (_name, delimiter) => {
      // Prepare
      const rows = [
        ['id', 'content', 'rank'],
        ['1', `a${delimiter}b`, '5'],
        ['2', 'she said "hi"', '-1'],
        ['3', 'two\r\nlines\nand a third', ''],
        ['4', '', 'x'],
        ['5', 'Zoë 李雷 👍 — très', '0'],
        ['6', '  spaces kept  ', '7'],
      ];
      const text = formatCsv(rows, delimiter);

      // Act
      const records = parse(text, delimiter);

      // Assess
      expect(records).toEqual(rows);
      expect(records).toEqual(parseCsv(text, delimiter));
    },
  );

  it('gives the same fields wherever the chunks split: inside a character, a CRLF or a doubled quote', () => {
    // Prepare
    const text = 'id,content\r\n1,"a ""quoted"" word\r\n👍"\r\n2,é\r\n3,"x"\r\n';

    // Act
    const whole = parse(text);
    const split = [1, 2, 3, 5, 7].map((chunkBytes) => parse(text, ',', chunkBytes));

    // Assess
    expect(whole).toEqual([
      ['id', 'content'],
      ['1', 'a "quoted" word\r\n👍'],
      ['2', 'é'],
      ['3', 'x'],
    ]);
    for (const records of split) expect(records).toEqual(whole);
  });

  it('keeps empty fields, ends a last record without a line break, and skips blank lines', () => {
    expect(parse('a,b,c\n,,\n\r\n\n1,"",3')).toEqual([
      ['a', 'b', 'c'],
      ['', '', ''],
      ['1', '', '3'],
    ]);
    expect(parse('')).toEqual([]);
    expect(parse('\r\n\r\n')).toEqual([]);
  });

  it('reads what is not RFC 4180 leniently: a quote inside a field and text after a closing quote are kept', () => {
    expect(parse('a,b\r\n5"" screen,x\r\na"b,c"d,e\r\n')).toEqual([
      ['a', 'b'],
      ['5"" screen', 'x'],
      ['a"b,c"d', 'e'],
    ]);
    expect(parse('a,b\r\n"x"y,z\r\n"unterminated,\r\nstill')).toEqual([
      ['a', 'b'],
      ['xy', 'z'],
      ['unterminated,\r\nstill'],
    ]);
  });

  it('keeps a carriage return that ends no line', () => {
    expect(parse('a,b\r\nx\ry,z\r\n')).toEqual([
      ['a', 'b'],
      ['x\ry', 'z'],
    ]);
  });

  it('finds exactly the records CsvRecordCounter counts, whatever the bytes and however they are chunked', async () => {
    const csvAlphabet = fc.constantFrom('a', 'é', '"', ',', ';', '\r', '\n', ' ', '\t', '|', '👍');
    await fc.assert(
      fc.asyncProperty(
        fc.array(csvAlphabet, { maxLength: 80 }),
        fc.integer({ min: 1, max: 9 }),
        fc.constantFrom(...DELIMITERS),
        async (characters, chunkBytes, delimiter) => {
          const bytes = Buffer.from(characters.join(''), 'utf8');
          const records = parse(bytes, delimiter, chunkBytes);
          expect(records.length).toBe(await counted(bytes));
          expect(records).toEqual(parse(bytes, delimiter));
        },
      ),
      { seed: 22, numRuns: 400 },
    );
  });

  it('refuses a delimiter that is not one ASCII character other than a quote or line break', () => {
    for (const delimiter of ['', ',,', '"', '\n', '§']) {
      expect(() => new CsvRecordParser(delimiter, () => {}), JSON.stringify(delimiter)).toThrow(RangeError);
    }
  });
});
