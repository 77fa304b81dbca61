import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { SpotBusyError } from '../exports/queue/errors';
import type { AcquireSpotLockOptions, SpotLock, SpotLocks } from '../exports/queue/SpotLock';
import type { StoredItem } from './conditionalCheckFailure';
import { deleteIfItNames, writeUnlessHeld } from './contendedWrite';
import { epochSeconds, getLive, ifLive } from './expiringItem';
import { ExportTableAttribute } from './tableDefinition';
import { EntityType, spotLockKey } from './tableKeys';

/** Longer than any export should take; a crashed holder's lock frees itself after this. */
export const DEFAULT_SPOT_LOCK_LEASE_SECONDS = 6 * 60 * 60;
const ACQUIRE_MAX_ATTEMPTS = 3;

export interface DynamoDbSpotLocksOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Epoch milliseconds; lock expiry is judged by it. */
  now?: () => number;
  defaultLeaseSeconds?: number;
}

/** One item per spot naming the export that holds it, until its lease lapses. */
export class DynamoDbSpotLocks implements SpotLocks {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;
  readonly #now: () => number;
  readonly #defaultLeaseSeconds: number;

  constructor(options: DynamoDbSpotLocksOptions) {
    this.#client = options.client;
    this.#tableName = options.tableName;
    this.#now = options.now ?? Date.now;
    this.#defaultLeaseSeconds = options.defaultLeaseSeconds ?? DEFAULT_SPOT_LOCK_LEASE_SECONDS;
  }

  /** Free, lapsed, or already held by `exportId` (re-entrant: renews the lease). @throws SpotBusyError */
  async acquire(spotId: string, exportId: string, options: AcquireSpotLockOptions = {}): Promise<SpotLock> {
    const leaseSeconds = options.leaseSeconds ?? this.#defaultLeaseSeconds;
    return writeUnlessHeld({
      write: async () => {
        const nowMs = this.#now();
        const lock: SpotLock = {
          spotId,
          exportId,
          acquiredAt: new Date(nowMs).toISOString(),
          expiresAtEpochSeconds: epochSeconds(nowMs) + leaseSeconds,
        };
        await this.#client.send(
          new PutCommand({
            TableName: this.#tableName,
            Item: { ...spotLockKey(spotId), entityType: EntityType.spotLock, ...spotLockItem(lock) },
            ConditionExpression:
              'attribute_not_exists(#pk) OR #exportId = :exportId OR #expiresAt <= :nowSeconds',
            ExpressionAttributeNames: {
              '#pk': ExportTableAttribute.partitionKey,
              '#exportId': 'exportId',
              '#expiresAt': ExportTableAttribute.timeToLive,
            },
            ExpressionAttributeValues: { ':exportId': exportId, ':nowSeconds': epochSeconds(nowMs) },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return lock;
      },
      holderOf: (item) => ifLive(item, this.#now(), spotLockOf),
      readHolder: () => this.get(spotId),
      // Released or lapsed between our write and our read: try again.
      refusal: (holder, cause) =>
        holder.exportId === exportId ? undefined : new SpotBusyError(spotId, holder, { cause }),
      exhausted: (holder) => new SpotBusyError(spotId, holder),
      maxAttempts: ACQUIRE_MAX_ATTEMPTS,
    });
  }

  /** True when this call released it; false when `exportId` no longer held it. */
  async release(spotId: string, exportId: string): Promise<boolean> {
    // Already released, or taken over after our lease lapsed: not ours to delete.
    return deleteIfItNames(this.#client, this.#tableName, spotLockKey(spotId), exportId);
  }

  /** The live lock, if any. */
  async get(spotId: string): Promise<SpotLock | undefined> {
    return getLive(this.#client, this.#tableName, spotLockKey(spotId), this.#now, spotLockOf);
  }
}

function spotLockOf(item: StoredItem, expiresAtEpochSeconds: number): SpotLock {
  return {
    spotId: String(item.spotId),
    exportId: String(item.exportId),
    acquiredAt: String(item.acquiredAt),
    expiresAtEpochSeconds,
  };
}

function spotLockItem(lock: SpotLock): StoredItem {
  return {
    spotId: lock.spotId,
    exportId: lock.exportId,
    acquiredAt: lock.acquiredAt,
    [ExportTableAttribute.timeToLive]: lock.expiresAtEpochSeconds,
  };
}
