import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import {
  type CommentFileLineage,
  CommentParquetWriter,
} from '../../../../../lib/archive/parquet/CommentParquetWriter';
import { CsvRecordParser } from '../../../../../lib/archive/parquet/CsvRecordParser';
import { COMMENT_TABLE_COLUMNS } from '../../../../../lib/archive/parquet/commentTableSchema';
import { formatCsv } from '../../../../../local/openweb-simulator/csv';
import { COMMENT_FILE_LINEAGE, COMMENTS_CSV_HEADER } from '../../../../support/commentFileFixtures';

interface Written {
  bytes: Buffer;
  rows: number;
  rowGroups: number;
}

/** Writes `csv` (text or bytes) as the table's Parquet file, fed in chunks of `chunkBytes`. */
function toParquet(
  csv: string | Buffer,
  options: {
    delimiter?: string;
    chunkBytes?: number;
    rowGroupRows?: number;
    rowGroupMaxBytes?: number;
    lineage?: CommentFileLineage;
  } = {},
): Written {
  const chunks: Buffer[] = [];
  const writer = new CommentParquetWriter({
    lineage: options.lineage ?? COMMENT_FILE_LINEAGE,
    output: (bytes) => chunks.push(bytes),
    ...(options.rowGroupRows !== undefined && { rowGroupRows: options.rowGroupRows }),
    ...(options.rowGroupMaxBytes !== undefined && { rowGroupMaxBytes: options.rowGroupMaxBytes }),
  });
  const parser = new CsvRecordParser(options.delimiter ?? ',', (fields) => writer.writeRecord(fields));
  const input = typeof csv === 'string' ? Buffer.from(csv, 'utf8') : csv;
  const chunkBytes = options.chunkBytes ?? 64 * 1024;
  for (let start = 0; start < input.length; start += chunkBytes) {
    parser.push(Buffer.from(input.subarray(start, start + chunkBytes)));
  }
  parser.end();
  writer.finish();
  return { bytes: Buffer.concat(chunks), rows: writer.rows, rowGroups: writer.rowGroups };
}

function arrayBufferOf(bytes: Buffer): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** Every row, as the writer's own reader (hyparquet) reads it. */
async function readRows(bytes: Buffer): Promise<Record<string, unknown>[]> {
  return parquetReadObjects({ file: arrayBufferOf(bytes) });
}

describe('CommentParquetWriter', () => {
  it('writes the columns of the table, in order, typed: strings, rank INT64, timestamps in UTC milliseconds', () => {
    // Act
    const { bytes } = toParquet(formatCsv([COMMENTS_CSV_HEADER], ','));
    const metadata = parquetMetadata(arrayBufferOf(bytes));

    // Assess
    const [, ...columns] = metadata.schema;
    expect(columns.map((column) => column.name)).toEqual(COMMENT_TABLE_COLUMNS.map((column) => column.name));
    for (const column of columns) {
      expect(column.repetition_type, column.name).toBe('OPTIONAL');
      const expected = COMMENT_TABLE_COLUMNS.find((known) => known.name === column.name)?.type;
      if (expected === 'STRING') expect(column).toMatchObject({ type: 'BYTE_ARRAY', converted_type: 'UTF8' });
      if (expected === 'INT64') expect(column).toMatchObject({ type: 'INT64' });
      if (expected === 'TIMESTAMP') {
        expect(column).toMatchObject({
          type: 'INT64',
          converted_type: 'TIMESTAMP_MILLIS',
          logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
        });
      }
    }
    expect(metadata.num_rows).toBe(0n);
    expect(metadata.created_by).toBe('openweb-exports');
  });

  it('keeps every value: typed where it parses, the text as it was where it does not, empty strings as empty strings', async () => {
    // Prepare
    const csv = formatCsv(
      [
        COMMENTS_CSV_HEADER,
        [
          'm1',
          'u1',
          'Zoë 李雷',
          'sp_1',
          'p1',
          'approved',
          'hello, "world"\r\nsecond line 👍',
          '42',
          '2026-10-30T10:00:00Z',
        ],
        ['m2', '', '', 'sp_1', 'p1', 'pending', '', '', ''],
        ['m3', 'u3', 'Ada', 'sp_1', 'p2', 'rejected', 'x', '1.5', 'yesterday'],
        [
          'm4',
          'u4',
          'Bo',
          'sp_1',
          'p2',
          'deleted',
          '  spaced  ',
          '-9223372036854775808',
          '2026-10-30T12:00:00.250+02:00',
        ],
      ],
      ',',
    );

    // Act
    const rows = await readRows(toParquet(csv).bytes);

    // Assess
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatchObject({
      id: 'm1',
      user_name: 'Zoë 李雷',
      content: 'hello, "world"\r\nsecond line 👍',
      rank: 42n,
      extra_columns: null,
      unparsed_values: null,
    });
    expect((rows[0] as { written_at: Date }).written_at.getTime()).toBe(Date.parse('2026-10-30T10:00:00Z'));
    // An empty string is a string; an empty typed value is no value.
    expect(rows[1]).toMatchObject({
      user_id: '',
      user_name: '',
      content: '',
      rank: null,
      written_at: null,
      unparsed_values: null,
    });
    expect(rows[2]).toMatchObject({ rank: null, written_at: null });
    expect(JSON.parse(rows[2]?.unparsed_values as string)).toEqual({ rank: '1.5', written_at: 'yesterday' });
    expect(rows[3]).toMatchObject({ content: '  spaced  ', rank: -9223372036854775808n });
    expect((rows[3] as { written_at: Date }).written_at.getTime()).toBe(
      Date.parse('2026-10-30T10:00:00.250Z'),
    );
  });

  it('puts every unknown column into extra_columns by name, and leaves a missing known column null', async () => {
    // Prepare: no user_name, no written_at; an unknown column, a repeated one, an unnamed one and a field past the header.
    const csv = formatCsv(
      [
        ['\uFEFFid', 'content', 'rank', 'mood', 'content', '', '__proto__'],
        ['m1', 'text', '3', 'happy', 'second content', 'unnamed', 'p', 'beyond'],
        ['m2', 'short row'],
      ],
      ',',
    );

    // Act
    const rows = await readRows(toParquet(csv).bytes);

    // Assess
    expect(rows[0]).toMatchObject({ id: 'm1', content: 'text', rank: 3n, user_name: null, written_at: null });
    expect(JSON.parse(rows[0]?.extra_columns as string)).toEqual({
      mood: 'happy',
      'content#5': 'second content',
      '#6': 'unnamed',
      ['__proto__']: 'p',
      '#8': 'beyond',
    });
    expect(Object.keys(JSON.parse(rows[0]?.extra_columns as string))).toEqual([
      'mood',
      'content#5',
      '#6',
      '__proto__',
      '#8',
    ]);
    expect(rows[1]).toMatchObject({ id: 'm2', content: 'short row', rank: null, extra_columns: null });
  });

  it('writes the lineage columns in every row, null windows for a conversation export', async () => {
    // Prepare
    const csv = formatCsv([['id'], ['a'], ['b']], ',');

    // Act
    const dateRange = await readRows(toParquet(csv).bytes);
    const conversation = await readRows(
      toParquet(csv, {
        lineage: { exportId: 'ex_02', exportedAt: COMMENT_FILE_LINEAGE.exportedAt, sourceFile: 'c.csv' },
      }).bytes,
    );

    // Assess
    for (const row of dateRange) {
      expect(row).toMatchObject({ export_id: 'ex_01', source_file: 'comments_1.csv' });
      expect((row.window_from as Date).toISOString()).toBe('2026-10-30T00:00:00.000Z');
      expect((row.window_until as Date).toISOString()).toBe('2026-10-31T00:00:00.000Z');
      expect((row.exported_at as Date).toISOString()).toBe('2026-10-31T02:00:00.000Z');
    }
    for (const row of conversation) {
      expect(row).toMatchObject({
        export_id: 'ex_02',
        window_from: null,
        window_until: null,
        source_file: 'c.csv',
      });
    }
  });

  it.each([',', ';', '|', '\t'])('reads the CSV with the export’s delimiter %j', async (delimiter) => {
    // Prepare
    const rows = [
      COMMENTS_CSV_HEADER,
      ['m1', 'u', 'n', 's', 'p', 'approved', `a${delimiter}b;c|d\te,f\n"g"`, '1', '2026-10-30T10:00:00Z'],
    ];

    // Act
    const [row] = await readRows(toParquet(formatCsv(rows, delimiter), { delimiter, chunkBytes: 5 }).bytes);

    // Assess
    expect(row).toMatchObject({
      id: 'm1',
      content: `a${delimiter}b;c|d\te,f\n"g"`,
      rank: 1n,
      extra_columns: null,
    });
  });

  it('ends a row group every rowGroupRows rows, or sooner once the values reach rowGroupMaxBytes', () => {
    // Prepare
    const rows = Array.from({ length: 10 }, (_, index) => [`m${index}`, 'x'.repeat(100)]);
    const csv = formatCsv([['id', 'content'], ...rows], ',');

    // Act
    const byRows = toParquet(csv, { rowGroupRows: 3 });
    const byBytes = toParquet(csv, { rowGroupRows: 1000, rowGroupMaxBytes: 250 });

    // Assess
    const sizes = (bytes: Buffer) =>
      parquetMetadata(arrayBufferOf(bytes)).row_groups.map((group) => group.num_rows);
    expect(sizes(byRows.bytes)).toEqual([3n, 3n, 3n, 1n]);
    expect(byRows).toMatchObject({ rows: 10, rowGroups: 4 });
    expect(sizes(byBytes.bytes)).toEqual([3n, 3n, 3n, 1n]);
  });

  it('writes the same bytes for the same CSV, however it was chunked', () => {
    // Prepare
    const csv = formatCsv(
      [
        COMMENTS_CSV_HEADER,
        ...Array.from({ length: 50 }, (_, index) => [
          `m${index}`,
          'u',
          'Zoë',
          's',
          'p',
          'approved',
          `line\n${index} 👍`,
          `${index}`,
          '2026-10-30T10:00:00Z',
        ]),
      ],
      ',',
    );

    // Act
    const outputs = [1, 7, 4096].map((chunkBytes) => toParquet(csv, { chunkBytes, rowGroupRows: 8 }).bytes);

    // Assess
    expect(outputs[1]?.equals(outputs[0] as Buffer)).toBe(true);
    expect(outputs[2]?.equals(outputs[0] as Buffer)).toBe(true);
  });

  it('writes a valid file with no rows for a CSV with a header only, or nothing at all', async () => {
    for (const csv of ['id,content\r\n', '']) {
      const written = toParquet(csv);
      expect(written.rows).toBe(0);
      expect(await readRows(written.bytes)).toEqual([]);
    }
  });

  it('writes bytes that are not UTF-8 with U+FFFD in their place, so the string columns stay valid', async () => {
    // Prepare
    const csv = Buffer.concat([
      Buffer.from('id,content\r\nm1,a'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('b\r\n'),
    ]);

    // Act
    const [row] = await readRows(toParquet(csv).bytes);

    // Assess
    expect(row?.content).toBe('a\uFFFD\uFFFDb');
  });
});
