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

/**
 * One partition of the comment rows table as Glue's API takes it: the spot and day, located at
 * their prefix and described exactly as the table is. The archive's registration and the repair
 * both send this.
 */
export function commentRowsPartitionInput(bucketName: string, spotId: string, date: string) {
  return {
    Values: [spotId, date],
    StorageDescriptor: {
      Columns: glueColumns(),
      Location: commentRowsPartitionLocation(bucketName, spotId, date),
      InputFormat: PARQUET_STORAGE.inputFormat,
      OutputFormat: PARQUET_STORAGE.outputFormat,
      SerdeInfo: {
        SerializationLibrary: PARQUET_STORAGE.serializationLibrary,
        Parameters: { ...PARQUET_STORAGE.serdeParameters },
      },
    },
  };
}
