import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { CommentParquetWriter } from '../../lib/archive/parquet/CommentParquetWriter';
import { KNOWN_CSV_COLUMNS } from '../../lib/archive/parquet/commentTableSchema';
import {
  COMMENT_ROW_COLUMNS,
  commentRowsPartitionPrefix,
  LakeColumnType,
} from '../../lib/lake/commentRowsTable';
import { S3ArchiveWriter } from '../../lib/s3/S3ArchiveWriter';
import { LOCAL_S3_DATA_FOLDER } from '../../lib/settings/localRuntimeLayout';
import { startLocalS3 } from '../../local/localS3';
import type { SimulatedComment } from '../../local/openweb-simulator/simulatedComments';

/** One row of the comment rows table as the archive writes it (Lake contract); timestamps as ISO text. */
export interface LakeRow {
  id: string | null;
  user_id: string | null;
  user_name: string | null;
  spot_id: string | null;
  post_id: string | null;
  message_status: string | null;
  content: string | null;
  rank: number | null;
  written_at: string | null;
  extra_columns: string | null;
  unparsed_values: string | null;
  export_id: string;
  window_from: string | null;
  window_until: string | null;
  exported_at: string;
  source_file: string;
}

/** An archived export's Parquet files: one list of rows per file (`<exportId>-<n>.parquet`). */
export interface LakeExport {
  spotId: string;
  /** The partition date, `YYYY-MM-DD`. */
  date: string;
  exportId: string;
  files: LakeRow[][];
}

/**
 * How timestamps are encoded in the files. The contract says UTC milliseconds; a writer may mark
 * them adjusted to UTC (read back as a timestamp with time zone) or not: the tables read both alike.
 */
export type TimestampEncoding = 'millis' | 'utc-micros';

/**
 * Who writes the fixture files: DuckDB, with the contract's columns and the timestamp encoding
 * named, or `archive`: the archive's own Parquet writer (CommentParquetWriter), fed the rows as
 * the CSV records an upstream would send (the lineage from the rows, the same in every row of a file).
 */
export type LakeFileWriter = TimestampEncoding | 'archive';

/** `rows` as the archive's own writer stores them, from their CSV records (a null value as an empty field). */
export function archiveWriterParquet(rows: readonly LakeRow[]): Buffer {
  const first = rows[0];
  if (first === undefined) throw new Error('a Parquet file of the archive holds at least one row');
  const chunks: Buffer[] = [];
  const writer = new CommentParquetWriter({
    lineage: {
      exportId: first.export_id,
      ...(first.window_from !== null && { windowFrom: first.window_from }),
      ...(first.window_until !== null && { windowUntil: first.window_until }),
      exportedAt: first.exported_at,
      sourceFile: first.source_file,
    },
    output: (bytes) => chunks.push(Buffer.from(bytes)),
  });
  const encoder = new TextEncoder();
  writer.writeRecord(KNOWN_CSV_COLUMNS.map((name) => encoder.encode(name)));
  for (const row of rows) {
    writer.writeRecord(
      KNOWN_CSV_COLUMNS.map((name) => encoder.encode(row[name] === null ? '' : String(row[name]))),
    );
  }
  writer.finish();
  return Buffer.concat(chunks);
}

const DUCKDB_TYPES: Record<LakeColumnType, string> = {
  [LakeColumnType.STRING]: 'VARCHAR',
  [LakeColumnType.BIGINT]: 'BIGINT',
  [LakeColumnType.TIMESTAMP]: 'TIMESTAMP',
};

/** Writes `rows` as one Parquet file with exactly the contract's columns and types, in its order. */
export async function writeLakeParquet(
  path: string,
  rows: readonly LakeRow[],
  encoding: TimestampEncoding = 'millis',
): Promise<void> {
  const scratch = await mkdtemp(join(tmpdir(), 'lake-rows-'));
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run("SET TimeZone = 'UTC'");
    const json = join(scratch, 'rows.json');
    await writeFile(json, JSON.stringify(rows));
    const declared = COMMENT_ROW_COLUMNS.map(
      (column) =>
        `${column.name}: '${column.type === LakeColumnType.TIMESTAMP ? 'VARCHAR' : DUCKDB_TYPES[column.type]}'`,
    );
    const typed = COMMENT_ROW_COLUMNS.map((column) => {
      const name = `"${column.name}"`;
      if (column.type !== LakeColumnType.TIMESTAMP)
        return `CAST(${name} AS ${DUCKDB_TYPES[column.type]}) AS ${name}`;
      const target = encoding === 'millis' ? 'TIMESTAMP_MS' : 'TIMESTAMPTZ';
      return `CAST(CAST(${name} AS TIMESTAMPTZ) AS ${target}) AS ${name}`;
    });
    await connection.run(
      `COPY (SELECT ${typed.join(', ')} FROM read_json('${json}', format = 'array', columns = {${declared.join(', ')}})) ` +
        `TO '${path}' (FORMAT parquet, COMPRESSION zstd)`,
    );
  } finally {
    connection.closeSync();
    instance.closeSync();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The local runtime's archive bucket, open to archive fixture exports into. */
export interface LakeArchive {
  /** Stores each export's Parquet files; returns their keys. */
  archive(exports: readonly LakeExport[]): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * The local runtime's S3 stand-in under `dataDir`, written through the archive's own S3 adapter at
 * `tables/comments/spot=<spotId>/date=<date>/<exportId>-<n>.parquet`: the files then lie in the
 * stand-in's own layout, exactly as the runtime leaves them.
 */
export async function openLakeArchive(
  dataDir: string,
  encoding: LakeFileWriter = 'millis',
): Promise<LakeArchive> {
  const s3 = await startLocalS3({ directory: join(dataDir, LOCAL_S3_DATA_FOLDER) });
  const scratch = await mkdtemp(join(tmpdir(), 'lake-files-'));
  const writer = new S3ArchiveWriter({ client: s3.client, bucketName: s3.bucketName });
  let written = 0;
  return {
    async archive(exports) {
      const keys: string[] = [];
      for (const archived of exports) {
        for (const [index, rows] of archived.files.entries()) {
          const key = `${commentRowsPartitionPrefix(archived.spotId, archived.date)}${archived.exportId}-${index + 1}.parquet`;
          const file = join(scratch, `${written++}.parquet`);
          if (encoding === 'archive') await writeFile(file, archiveWriterParquet(rows));
          else await writeLakeParquet(file, rows, encoding);
          await writer.put(key, createReadStream(file), { contentType: 'application/vnd.apache.parquet' });
          await rm(file, { force: true });
          keys.push(key);
        }
      }
      return keys;
    },
    async close() {
      await s3.close();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

/** Archives the exports' Parquet files into the local runtime's S3 stand-in under `dataDir` (see `openLakeArchive`). */
export async function archiveLakeExports(
  dataDir: string,
  exports: readonly LakeExport[],
  encoding: LakeFileWriter = 'millis',
): Promise<string[]> {
  const lake = await openLakeArchive(dataDir, encoding);
  try {
    return await lake.archive(exports);
  } finally {
    await lake.close();
  }
}

export interface CommentSpec {
  id: string;
  userId: string;
  status: string;
  writtenAt: string;
  content?: string;
  /** The conversation; by default one of three, by the comment's place in the export. */
  postId?: string;
}

/** Rows of one export of `comments`, with its lineage. */
export function exportRows(
  comments: readonly CommentSpec[],
  lineage: {
    spotId: string;
    exportId: string;
    windowFrom: string | null;
    windowUntil: string | null;
    exportedAt: string;
  },
): LakeRow[] {
  return comments.map((comment, index) => ({
    id: comment.id,
    user_id: comment.userId,
    user_name: `Name of ${comment.userId}`,
    spot_id: lineage.spotId,
    post_id: comment.postId ?? `post-${(index % 3) + 1}`,
    message_status: comment.status,
    content: comment.content ?? `Comment ${comment.id}`,
    rank: index,
    written_at: comment.writtenAt,
    extra_columns: null,
    unparsed_values: null,
    export_id: lineage.exportId,
    window_from: lineage.windowFrom,
    window_until: lineage.windowUntil,
    exported_at: lineage.exportedAt,
    source_file: `${lineage.exportId}.csv`,
  }));
}

/** The archive's row of a comment the simulator generated, as the Parquet writer types it. */
export function simulatedCommentRow(
  comment: SimulatedComment,
  lineage: {
    exportId: string;
    windowFrom: string | null;
    windowUntil: string | null;
    exportedAt: string;
    sourceFile: string;
  },
): LakeRow {
  return {
    id: comment.id,
    user_id: comment.user_id,
    user_name: comment.user_name,
    spot_id: comment.spot_id,
    post_id: comment.post_id,
    message_status: comment.message_status,
    content: comment.content,
    rank: Number(comment.rank),
    written_at: comment.written_at,
    extra_columns: null,
    unparsed_values: null,
    export_id: lineage.exportId,
    window_from: lineage.windowFrom,
    window_until: lineage.windowUntil,
    exported_at: lineage.exportedAt,
    source_file: lineage.sourceFile,
  };
}

/** One export's files of a spot's comments written within [from, until): what an export of that window archives. */
export function windowExport(
  spotComments: readonly SimulatedComment[],
  window: {
    spotId: string;
    exportId: string;
    from: string;
    until: string;
    exportedAt: string;
    rowsPerFile?: number;
  },
): LakeExport {
  const fromMs = Date.parse(window.from);
  const untilMs = Date.parse(window.until);
  const rows = spotComments
    .filter((comment) => {
      const writtenMs = Date.parse(comment.written_at);
      return writtenMs >= fromMs && writtenMs < untilMs;
    })
    .map((comment) =>
      simulatedCommentRow(comment, {
        exportId: window.exportId,
        windowFrom: window.from,
        windowUntil: window.until,
        exportedAt: window.exportedAt,
        sourceFile: `${window.exportId}.csv`,
      }),
    );
  const rowsPerFile = window.rowsPerFile ?? Math.max(rows.length, 1);
  const files: LakeRow[][] = [];
  for (let start = 0; start < rows.length; start += rowsPerFile)
    files.push(rows.slice(start, start + rowsPerFile));
  return { spotId: window.spotId, date: window.from.slice(0, 10), exportId: window.exportId, files };
}
