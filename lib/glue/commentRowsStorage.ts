import {
  COMMENT_ROW_COLUMNS,
  COMMENT_ROWS_KEY_PREFIX,
  commentRowsPartitionPrefix,
  type LakeColumn,
} from '../lake/commentRowsTable';

/**
 * How the catalog describes the comment rows' Parquet files (Hive's Parquet classes, which
 * Athena reads), shared by the table the stack creates and the partitions the archive
 * registers: a partition described otherwise than its table is an error at query time.
 */
export const PARQUET_STORAGE = {
  inputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat',
  outputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat',
  serializationLibrary: 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe',
  serdeParameters: { 'serialization.format': '1' },
} as const;

/** Glue's table parameters of the comment rows: an external Parquet table. */
export const COMMENT_ROWS_TABLE_PARAMETERS = {
  classification: 'parquet',
  EXTERNAL: 'TRUE',
} as const;

/** `s3://<bucket>/tables/comments/`: the table's location. */
export function commentRowsLocation(bucketName: string): string {
  return `s3://${bucketName}/${COMMENT_ROWS_KEY_PREFIX}`;
}

/** `s3://<bucket>/tables/comments/spot=<spotId>/date=<YYYY-MM-DD>/`: one partition's location. */
export function commentRowsPartitionLocation(bucketName: string, spotId: string, date: string): string {
  return `s3://${bucketName}/${commentRowsPartitionPrefix(spotId, date)}`;
}

/** Columns as Glue's API takes them. */
export function glueColumns(columns: readonly LakeColumn[] = COMMENT_ROW_COLUMNS) {
  return columns.map((column) => ({ Name: column.name, Type: column.type, Comment: column.description }));
}
