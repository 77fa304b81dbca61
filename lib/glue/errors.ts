import { ServiceError } from '../errors/ClassifiedError';
import { isTransientFailure } from '../exports/record/failureReasons';

/** Glue's throttling error, not marked retryable by the SDK: the SDK's own retries are spent when it surfaces. */
const GLUE_THROTTLING = 'ThrottlingException';

/**
 * Glue did not register a partition of the comment rows table: the files are stored, queries do
 * not see them yet. Passing trouble (throttling, a Glue fault, the network) when its cause is;
 * otherwise (access denied, no such table) the deployment needs a fix.
 */
export class CatalogPartitionError extends ServiceError {
  override name = 'CatalogPartitionError';
  readonly partition: { databaseName: string; tableName: string; values: string[] };

  constructor(
    partition: { databaseName: string; tableName: string; values: string[] },
    options: ErrorOptions & { cause: unknown },
  ) {
    super(
      `Glue did not register partition (${partition.values.join(', ')}) of ` +
        `${partition.databaseName}.${partition.tableName}: ${causeName(options.cause)}`,
      options,
    );
    this.partition = partition;
  }

  override get retryable(): boolean {
    return (
      isTransientFailure(this.cause) ||
      (this.cause as { name?: unknown } | undefined)?.name === GLUE_THROTTLING
    );
  }
}

function causeName(cause: unknown): string {
  return cause instanceof Error ? cause.name : 'unknown error';
}
