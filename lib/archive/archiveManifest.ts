import type { ArchivedFile } from '../exports/record/ExportArchive';
import { COMMENT_ROWS_TABLE_NAME } from '../lake/commentRowsTable';
import {
  COMMENT_TABLE_COLUMNS,
  COMMENT_TABLE_PARTITION_COLUMNS,
  type CommentTableColumn,
} from './parquet/commentTableSchema';

/** The schema of the Parquet files an archive wrote. */
export interface ArchiveParquetSchema {
  /** The catalog table the files belong to (`comment_rows`, whose files are under `tables/comments/`). */
  table: typeof COMMENT_ROWS_TABLE_NAME;
  /** The columns in each file, in order. */
  columns: CommentTableColumn[];
  /** The columns taken from the object keys (`spot=…/date=…/`), not stored in the files. */
  partitionColumns: string[];
}

/**
 * `_manifest.json` beside an export's raw files: every CSV file with its Parquet file, and the
 * Parquet files' schema. Written after every data and Parquet file, so a manifest always
 * describes files that are there.
 */
export interface ArchiveManifest {
  files: ArchivedFile[];
  /** Absent when the archive writes no Parquet files (`archive.writeTable` off). */
  parquetSchema?: ArchiveParquetSchema;
}

/**
 * The manifest of `files`, with the Parquet files' schema when `writeTable` is on: the same files
 * give the same JSON, so a re-run rewrites the same bytes.
 */
export function archiveManifest(files: ArchivedFile[], options: { writeTable: boolean }): ArchiveManifest {
  if (!options.writeTable) return { files };
  return {
    files,
    parquetSchema: {
      table: COMMENT_ROWS_TABLE_NAME,
      columns: COMMENT_TABLE_COLUMNS.map(({ name, type }) => ({ name, type })),
      partitionColumns: [...COMMENT_TABLE_PARTITION_COLUMNS],
    },
  };
}
