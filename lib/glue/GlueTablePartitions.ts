import { CreatePartitionCommand, type GlueClient } from '@aws-sdk/client-glue';
import type { TablePartitions } from '../archive/ports';
import { COMMENT_ROWS_TABLE_NAME } from '../lake/commentRowsTable';
import { commentRowsPartitionLocation, glueColumns, PARQUET_STORAGE } from './commentRowsStorage';
import { CatalogPartitionError } from './errors';

export interface GlueTablePartitionsOptions {
  client: GlueClient;
  databaseName: string;
  /** The archive bucket: partition locations are in it. */
  bucketName: string;
  /** Default: the comment rows table. */
  tableName?: string;
}

/** Glue's error when the partition is there already. */
const ALREADY_EXISTS = 'AlreadyExistsException';

/**
 * The comment rows table's partitions in the Glue Data Catalog: one `CreatePartition` per spot
 * and day, described exactly as the table is (Parquet, the same columns), located at
 * `s3://<bucket>/tables/comments/spot=<spotId>/date=<YYYY-MM-DD>/`.
 */
export class GlueTablePartitions implements TablePartitions {
  readonly #client: GlueClient;
  readonly #databaseName: string;
  readonly #tableName: string;
  readonly #bucketName: string;

  constructor(options: GlueTablePartitionsOptions) {
    this.#client = options.client;
    this.#databaseName = options.databaseName;
    this.#tableName = options.tableName ?? COMMENT_ROWS_TABLE_NAME;
    this.#bucketName = options.bucketName;
  }

  /** @throws CatalogPartitionError when Glue refuses or cannot be reached (an existing partition is success) */
  async register(spotId: string, date: string): Promise<void> {
    const values = [spotId, date];
    try {
      await this.#client.send(
        new CreatePartitionCommand({
          DatabaseName: this.#databaseName,
          TableName: this.#tableName,
          PartitionInput: {
            Values: values,
            StorageDescriptor: {
              Columns: glueColumns(),
              Location: commentRowsPartitionLocation(this.#bucketName, spotId, date),
              InputFormat: PARQUET_STORAGE.inputFormat,
              OutputFormat: PARQUET_STORAGE.outputFormat,
              SerdeInfo: {
                SerializationLibrary: PARQUET_STORAGE.serializationLibrary,
                Parameters: { ...PARQUET_STORAGE.serdeParameters },
              },
            },
          },
        }),
      );
    } catch (error) {
      if ((error as { name?: unknown }).name === ALREADY_EXISTS) return;
      throw new CatalogPartitionError(
        { databaseName: this.#databaseName, tableName: this.#tableName, values },
        { cause: error },
      );
    }
  }
}
