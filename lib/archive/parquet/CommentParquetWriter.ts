import type { SchemaElement } from 'hyparquet';
import { type ColumnSource, ParquetWriter } from 'hyparquet-writer';
import { snappyCompressor } from 'hysnappy';
import { CommentRowMapping, KNOWN_STRING_COLUMNS } from './CommentRowMapping';
import { COMMENT_TABLE_COLUMNS, type CommentTableColumn } from './commentTableSchema';
import { ParquetByteOutput } from './ParquetByteOutput';

/**
 * Rows per row group, chosen by measurement (`ARCHIVE_ROW_GROUP_ROWS=… npm run bench:archive`,
 * docs/archive.md): with rows of about 1 KB the archive's peak memory grows with the row group
 * (2,000 rows: 86 MB, 3,000: 97 MB, 10,000: 106 MB at 100k records) while its speed does not
 * follow; 3,000 rows keep it well inside the 128 MB goal at any file size.
 */
export const COMMENT_ROW_GROUP_ROWS = 3_000;
/** A row group also ends once its values reach this many bytes, so long comments stay bounded too. */
export const COMMENT_ROW_GROUP_MAX_BYTES = 4 * 1024 * 1024;

/** Where every row of one CSV file came from: the same in every row of its Parquet file. */
export interface CommentFileLineage {
  exportId: string;
  /** ISO instants of a date-range export's window; undefined for a conversation export. */
  windowFrom?: string;
  windowUntil?: string;
  /** When the upstream finished the export. */
  exportedAt?: string;
  /** The CSV's name in the upstream's zip. */
  sourceFile: string;
}

export interface CommentParquetWriterOptions {
  lineage: CommentFileLineage;
  /** Receives the file's bytes in order, as they are written. */
  output: (bytes: Buffer) => void;
  rowGroupRows?: number;
  rowGroupMaxBytes?: number;
}

/**
 * Parquet's schema of the table: every column optional, snappy-compressed. The file's own
 * writer name carries no version, so the same rows give the same bytes with any release.
 */
const CREATED_BY = 'openweb-exports';

function schemaElement(column: CommentTableColumn): SchemaElement {
  switch (column.type) {
    case 'STRING':
      return {
        name: column.name,
        type: 'BYTE_ARRAY',
        converted_type: 'UTF8',
        logical_type: { type: 'STRING' },
        repetition_type: 'OPTIONAL',
      };
    case 'INT64':
      return { name: column.name, type: 'INT64', repetition_type: 'OPTIONAL' };
    case 'TIMESTAMP':
      return {
        name: column.name,
        type: 'INT64',
        converted_type: 'TIMESTAMP_MILLIS',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
        repetition_type: 'OPTIONAL',
      };
  }
}

export const COMMENT_PARQUET_SCHEMA: SchemaElement[] = [
  { name: 'schema', num_children: COMMENT_TABLE_COLUMNS.length },
  ...COMMENT_TABLE_COLUMNS.map(schemaElement),
];

/**
 * Columns whose values are long and unique: a dictionary never pays (the writer would sample them
 * to find that out, every row group), and neither do statistics.
 */
const FREE_TEXT_COLUMNS = new Set(['content', 'extra_columns', 'unparsed_values']);
/**
 * Columns whose min/max a query can prune row groups by: the identity, the instants, the rank and
 * the lineage. The others' statistics would only cost time (their values are not in any order).
 */
const STATISTICS_COLUMNS = new Set([
  'id',
  'spot_id',
  'rank',
  'written_at',
  'export_id',
  'window_from',
  'window_until',
  'exported_at',
  'source_file',
]);

/**
 * Snappy in WebAssembly (hysnappy, ~5 KB, from the writer's authors), instantiated on the first
 * Parquet file: several times faster than the writer's own JavaScript snappy (docs/archive.md).
 */
let fastSnappy: ((input: Uint8Array) => Uint8Array) | undefined;
function compressSnappy(input: Uint8Array): Uint8Array {
  fastSnappy ??= snappyCompressor();
  return fastSnappy(input);
}

function instantMs(value: string | undefined): number | null {
  if (value === undefined) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Writes one CSV file's records as a Parquet file of the `comment_rows` table, a row group every
 * `rowGroupRows` rows (or `rowGroupMaxBytes` of values, whichever comes first): memory holds one
 * row group, whatever the file's size. The first record is the header; it decides how columns
 * map (CommentRowMapping). Row groups split at the same rows however the input was chunked, so
 * the same CSV always gives the same bytes.
 */
export class CommentParquetWriter {
  readonly #output: ParquetByteOutput;
  readonly #writer: ParquetWriter;
  readonly #lineage: {
    exportId: string;
    windowFrom: number | null;
    windowUntil: number | null;
    exportedAt: number | null;
    sourceFile: string;
  };
  readonly #rowGroupRows: number;
  readonly #rowGroupMaxBytes: number;
  #mapping: CommentRowMapping | undefined;
  #strings: (Uint8Array | string | null)[][] = KNOWN_STRING_COLUMNS.map(() => []);
  #ranks: (bigint | null)[] = [];
  #writtenAt: (number | null)[] = [];
  #extraColumns: (string | null)[] = [];
  #unparsedValues: (string | null)[] = [];
  #groupRows = 0;
  #groupBytes = 0;
  #finished = false;

  constructor(options: CommentParquetWriterOptions) {
    this.#output = new ParquetByteOutput(options.output);
    this.#writer = new ParquetWriter({
      writer: this.#output,
      schema: COMMENT_PARQUET_SCHEMA,
      codec: 'SNAPPY',
      compressors: { SNAPPY: compressSnappy },
      createdBy: CREATED_BY,
    });
    const { lineage } = options;
    this.#lineage = {
      exportId: lineage.exportId,
      windowFrom: instantMs(lineage.windowFrom),
      windowUntil: instantMs(lineage.windowUntil),
      exportedAt: instantMs(lineage.exportedAt),
      sourceFile: lineage.sourceFile,
    };
    this.#rowGroupRows = options.rowGroupRows ?? COMMENT_ROW_GROUP_ROWS;
    this.#rowGroupMaxBytes = options.rowGroupMaxBytes ?? COMMENT_ROW_GROUP_MAX_BYTES;
  }

  /** Rows in the file's row groups so far, as its footer will say. */
  get rows(): number {
    return Number(this.#writer.num_rows);
  }

  get rowGroups(): number {
    return this.#writer.row_groups.length;
  }

  /** One CSV record's fields (UTF-8): the header first, then one per row. */
  writeRecord(fields: Uint8Array[]): void {
    if (this.#finished) throw new Error('the Parquet file is already finished');
    if (this.#mapping === undefined) {
      this.#mapping = new CommentRowMapping(fields);
      return;
    }
    const row = this.#mapping.values(fields);
    row.strings.forEach((value, column) => {
      (this.#strings[column] as (Uint8Array | string | null)[]).push(value);
    });
    this.#ranks.push(row.rank);
    this.#writtenAt.push(row.writtenAtMs);
    this.#extraColumns.push(row.extraColumns);
    this.#unparsedValues.push(row.unparsedValues);
    this.#groupRows++;
    this.#groupBytes += row.size;
    if (this.#groupRows >= this.#rowGroupRows || this.#groupBytes >= this.#rowGroupMaxBytes) {
      this.#writeRowGroup();
    }
  }

  /** Writes the last row group and the footer; the output has the whole file then. */
  finish(): void {
    if (this.#finished) return;
    this.#writeRowGroup();
    this.#finished = true;
    void this.#writer.finish();
  }

  #writeRowGroup(): void {
    const rows = this.#groupRows;
    if (rows === 0) return;
    const lineage = this.#lineage;
    const data: Record<string, unknown[]> = {
      rank: this.#ranks,
      written_at: this.#writtenAt,
      extra_columns: this.#extraColumns,
      unparsed_values: this.#unparsedValues,
      export_id: new Array(rows).fill(lineage.exportId),
      window_from: new Array(rows).fill(lineage.windowFrom),
      window_until: new Array(rows).fill(lineage.windowUntil),
      exported_at: new Array(rows).fill(lineage.exportedAt),
      source_file: new Array(rows).fill(lineage.sourceFile),
    };
    KNOWN_STRING_COLUMNS.forEach((name, column) => {
      data[name] = this.#strings[column] as (Uint8Array | string | null)[];
    });
    const columnData: ColumnSource[] = COMMENT_TABLE_COLUMNS.map(({ name }) => ({
      name,
      data: data[name] as ColumnSource['data'],
      statistics: STATISTICS_COLUMNS.has(name),
      ...((FREE_TEXT_COLUMNS.has(name) || name === 'id') && { encoding: 'PLAIN' as const }),
    }));
    void this.#writer.write({ columnData, rowGroupSize: rows });
    this.#strings = KNOWN_STRING_COLUMNS.map(() => []);
    this.#ranks = [];
    this.#writtenAt = [];
    this.#extraColumns = [];
    this.#unparsedValues = [];
    this.#groupRows = 0;
    this.#groupBytes = 0;
  }
}
