/**
 * The AWS list prices an export's estimated cost is computed from, and the sizes it assumes where
 * nothing is measured. The values live in the settings (lib/settings/settingsTable.ts,
 * `AWS_PRICE_TABLE`), with the region and the date they were read.
 */
export interface PriceTable {
  /** The AWS region the prices are for, e.g. `us-east-1`. */
  region: string;
  /** When they were read from AWS's pricing pages, `YYYY-MM`. */
  asOf: string;
  stepFunctionsPerTransitionUsd: number;
  lambdaPerRequestUsd: number;
  lambdaPerGbSecondUsd: number;
  dynamoDbPerWriteUnitUsd: number;
  dynamoDbPerReadUnitUsd: number;
  apiGatewayPerRequestUsd: number;
  eventBridgePerEventUsd: number;
  secretsManagerPerCallUsd: number;
  s3PerPutUsd: number;
  s3PerGbMonthUsd: number;
  /** What an invocation is billed as, where it is not measured: memory and duration. */
  workflowTaskGb: number;
  workflowTaskBilledSeconds: number;
  startGb: number;
  startBilledSeconds: number;
  archiveGb: number;
  /** The archive step's billed time per MB it stores (gzip CSV and Parquet). */
  archiveBilledSecondsPerMb: number;
}
