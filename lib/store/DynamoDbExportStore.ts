import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ExportRecord, NewExportRecord } from '../exports/ExportRecord';
import type {
  AcquireSpotLockOptions,
  ConditionalTransition,
  ExportPage,
  ExportStore,
  GetExportOptions,
  ListExportsOptions,
  PutIdempotencyRecordInput,
} from '../exports/ExportStore';
import type { IdempotencyRecord } from '../exports/IdempotencyRecord';
import type { SpotLock } from '../exports/SpotLock';
import { DynamoDbExportRecords } from './DynamoDbExportRecords';
import { DynamoDbIdempotencyKeys } from './DynamoDbIdempotencyKeys';
import { DynamoDbSpotLock } from './DynamoDbSpotLock';

export { DEFAULT_SPOT_LOCK_LEASE_SECONDS } from './DynamoDbSpotLock';
export { MAX_LIST_EXPORTS_LIMIT } from './exportListing';

export interface DynamoDbExportStoreOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Epoch milliseconds; lock and idempotency expiry are judged by it. */
  now?: () => number;
  defaultSpotLockLeaseSeconds?: number;
}

/** The export store on one DynamoDB table: records, spot locks and idempotency keys side by side. */
export class DynamoDbExportStore implements ExportStore {
  readonly #records: DynamoDbExportRecords;
  readonly #locks: DynamoDbSpotLock;
  readonly #idempotencyKeys: DynamoDbIdempotencyKeys;

  constructor(options: DynamoDbExportStoreOptions) {
    const { client, tableName, now } = options;
    this.#records = new DynamoDbExportRecords({ client, tableName });
    this.#locks = new DynamoDbSpotLock({
      client,
      tableName,
      ...(now !== undefined && { now }),
      ...(options.defaultSpotLockLeaseSeconds !== undefined && {
        defaultLeaseSeconds: options.defaultSpotLockLeaseSeconds,
      }),
    });
    this.#idempotencyKeys = new DynamoDbIdempotencyKeys({
      client,
      tableName,
      ...(now !== undefined && { now }),
    });
  }

  createExport(record: NewExportRecord): Promise<ExportRecord> {
    return this.#records.create(record);
  }

  getExport(spotId: string, exportId: string, options?: GetExportOptions): Promise<ExportRecord | undefined> {
    return this.#records.get(spotId, exportId, options);
  }

  transition(spotId: string, exportId: string, request: ConditionalTransition): Promise<ExportRecord> {
    return this.#records.transition(spotId, exportId, request);
  }

  listExports(spotId: string, options: ListExportsOptions): Promise<ExportPage> {
    return this.#records.list(spotId, options);
  }

  findActiveNotPolledSince(beforeIso: string, limit: number): Promise<ExportRecord[]> {
    return this.#records.findActiveNotPolledSince(beforeIso, limit);
  }

  acquireSpotLock(spotId: string, exportId: string, options?: AcquireSpotLockOptions): Promise<SpotLock> {
    return this.#locks.acquire(spotId, exportId, options);
  }

  releaseSpotLock(spotId: string, exportId: string): Promise<boolean> {
    return this.#locks.release(spotId, exportId);
  }

  getSpotLock(spotId: string): Promise<SpotLock | undefined> {
    return this.#locks.get(spotId);
  }

  putIdempotencyRecord(
    spotId: string,
    key: string,
    input: PutIdempotencyRecordInput,
  ): Promise<IdempotencyRecord> {
    return this.#idempotencyKeys.put(spotId, key, input);
  }

  deleteIdempotencyRecord(spotId: string, key: string, exportId: string): Promise<boolean> {
    return this.#idempotencyKeys.delete(spotId, key, exportId);
  }

  getIdempotencyRecord(spotId: string, key: string): Promise<IdempotencyRecord | undefined> {
    return this.#idempotencyKeys.get(spotId, key);
  }
}
