import {
  BatchCreatePartitionCommand,
  type BatchCreatePartitionCommandOutput,
  CreatePartitionCommand,
  GetPartitionsCommand,
  type GlueClient,
} from '@aws-sdk/client-glue';
import type { PartitionCatalog, TablePartitions } from '../archive/ports';
import { COMMENT_ROWS_TABLE_NAME } from '../lake/commentRowsTable';
import { commentRowsPartitionInput } from './commentRowsStorage';
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
/** Glue's limit of partitions in one BatchCreatePartition. */
export const GLUE_BATCH_CREATE_MAX_PARTITIONS = 100;

/**
 * The comment rows table's partitions in the Glue Data Catalog: one partition per spot and day,
 * described exactly as the table is (Parquet, the same columns), located at
 * `s3://<bucket>/tables/comments/spot=<spotId>/date=<YYYY-MM-DD>/`. The archive registers its
 * export's with `CreatePartition`; the repair reads a spot's with `GetPartitions` and adds the
 * missing ones with `BatchCreatePartition`.
 */
export class GlueTablePartitions implements TablePartitions, PartitionCatalog {
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
    try {
      await this.#client.send(
        new CreatePartitionCommand({
          DatabaseName: this.#databaseName,
          TableName: this.#tableName,
          PartitionInput: commentRowsPartitionInput(this.#bucketName, spotId, date),
        }),
      );
    } catch (error) {
      if ((error as { name?: unknown }).name === ALREADY_EXISTS) return;
      throw this.#error([spotId, date], error);
    }
  }

  /** @throws CatalogPartitionError when Glue refuses or cannot be reached */
  async registeredDates(spotId: string): Promise<string[]> {
    const dates: string[] = [];
    let nextToken: string | undefined;
    try {
      do {
        const page = await this.#client.send(
          new GetPartitionsCommand({
            DatabaseName: this.#databaseName,
            TableName: this.#tableName,
            // Spot ids are `sp_` and letters, digits, `_` or `-`; a quote is doubled all the same.
            Expression: `spot = '${spotId.replaceAll("'", "''")}'`,
            // Only the values are read: the columns of every partition would be most of the answer.
            ExcludeColumnSchema: true,
            ...(nextToken !== undefined && { NextToken: nextToken }),
          }),
        );
        for (const partition of page.Partitions ?? []) {
          const [spot, date] = partition.Values ?? [];
          if (spot === spotId && date !== undefined) dates.push(date);
        }
        nextToken = page.NextToken;
      } while (nextToken !== undefined && nextToken !== '');
    } catch (error) {
      throw this.#error([spotId], error);
    }
    return dates;
  }

  /** @throws CatalogPartitionError for the first partition Glue refused (existing ones are success) */
  async registerDates(spotId: string, dates: readonly string[]): Promise<number> {
    let created = 0;
    for (let start = 0; start < dates.length; start += GLUE_BATCH_CREATE_MAX_PARTITIONS) {
      const batch = dates.slice(start, start + GLUE_BATCH_CREATE_MAX_PARTITIONS);
      let answer: BatchCreatePartitionCommandOutput;
      try {
        answer = await this.#client.send(
          new BatchCreatePartitionCommand({
            DatabaseName: this.#databaseName,
            TableName: this.#tableName,
            PartitionInputList: batch.map((date) =>
              commentRowsPartitionInput(this.#bucketName, spotId, date),
            ),
          }),
        );
      } catch (error) {
        throw this.#error([spotId, ...batch], error);
      }
      const errors = answer.Errors ?? [];
      const refused = errors.find((error) => error.ErrorDetail?.ErrorCode !== ALREADY_EXISTS);
      if (refused !== undefined) {
        const cause = new Error(refused.ErrorDetail?.ErrorMessage ?? 'refused');
        cause.name = refused.ErrorDetail?.ErrorCode ?? 'UnknownError';
        throw this.#error(refused.PartitionValues ?? [spotId], cause);
      }
      created += batch.length - errors.length;
    }
    return created;
  }

  #error(values: string[], cause: unknown): CatalogPartitionError {
    return new CatalogPartitionError(
      { databaseName: this.#databaseName, tableName: this.#tableName, values },
      { cause },
    );
  }
}
