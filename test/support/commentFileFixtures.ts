import type { CommentFileLineage } from '../../lib/archive/parquet/CommentParquetWriter';
import { KNOWN_CSV_COLUMNS } from '../../lib/archive/parquet/commentTableSchema';

/** Where a comments file written as Parquet in a test came from. */
export const COMMENT_FILE_LINEAGE: CommentFileLineage = {
  exportId: 'ex_01',
  windowFrom: '2026-10-30T00:00:00Z',
  windowUntil: '2026-10-31T00:00:00Z',
  exportedAt: '2026-10-31T02:00:00Z',
  sourceFile: 'comments_1.csv',
};

/** An upstream comments CSV's header: the columns the table knows, in file order. */
export const COMMENTS_CSV_HEADER: readonly string[] = KNOWN_CSV_COLUMNS;
