import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { IdempotencyConflictError, IdempotencyKeyReusedError } from '../exports/record/errors';
import type {
  IdempotencyKeys,
  IdempotencyRecord,
  PutIdempotencyRecordInput,
} from '../exports/record/IdempotencyRecord';
import type { StoredItem } from './conditionalCheckFailure';
import { deleteIfItNames, writeUnlessHeld } from './contendedWrite';
import { epochSeconds, getLive, ifLive } from './expiringItem';
import { ExportTableAttribute } from './tableDefinition';
import { EntityType, idempotencyKey } from './tableKeys';

const PUT_MAX_ATTEMPTS = 3;

export interface DynamoDbIdempotencyKeysOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Epoch milliseconds; key expiry is judged by it. */
  now?: () => number;
}

/** One item per idempotency key of a spot, naming the export the key started, until it expires. */
export class DynamoDbIdempotencyKeys implements IdempotencyKeys {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;
  readonly #now: () => number;

  constructor(options: DynamoDbIdempotencyKeysOptions) {
    this.#client = options.client;
    this.#tableName = options.tableName;
    this.#now = options.now ?? Date.now;
  }

  /** Absent or expired keys only. @throws IdempotencyConflictError, IdempotencyKeyReusedError */
  async put(spotId: string, key: string, input: PutIdempotencyRecordInput): Promise<IdempotencyRecord> {
    return writeUnlessHeld({
      write: async () => {
        const nowMs = this.#now();
        const record: IdempotencyRecord = {
          spotId,
          key,
          exportId: input.exportId,
          requestFingerprint: input.requestFingerprint,
          createdAt: new Date(nowMs).toISOString(),
          expiresAtEpochSeconds: input.expiresAtEpochSeconds,
        };
        await this.#client.send(
          new PutCommand({
            TableName: this.#tableName,
            Item: {
              ...idempotencyKey(spotId, key),
              entityType: EntityType.idempotency,
              ...idempotencyItem(record),
            },
            ConditionExpression: 'attribute_not_exists(#pk) OR #expiresAt <= :nowSeconds',
            ExpressionAttributeNames: {
              '#pk': ExportTableAttribute.partitionKey,
              '#expiresAt': ExportTableAttribute.timeToLive,
            },
            ExpressionAttributeValues: { ':nowSeconds': epochSeconds(nowMs) },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return record;
      },
      holderOf: (item) => ifLive(item, this.#now(), idempotencyRecordOf),
      readHolder: () => this.get(spotId, key),
      refusal: (existing, cause) =>
        existing.requestFingerprint === input.requestFingerprint
          ? new IdempotencyConflictError(existing, { cause })
          : new IdempotencyKeyReusedError(existing, { cause }),
      // Expired between our write and our read, every time: give the refusal up.
      exhausted: (_existing, cause) => cause,
      maxAttempts: PUT_MAX_ATTEMPTS,
    });
  }

  /** Only while the key still names `exportId`; true when this call deleted it. */
  async delete(spotId: string, key: string, exportId: string): Promise<boolean> {
    // Gone already, or the key now names another export: not ours to delete.
    return deleteIfItNames(this.#client, this.#tableName, idempotencyKey(spotId, key), exportId);
  }

  /** Expired records read as absent. */
  async get(spotId: string, key: string): Promise<IdempotencyRecord | undefined> {
    return getLive(
      this.#client,
      this.#tableName,
      idempotencyKey(spotId, key),
      this.#now,
      idempotencyRecordOf,
    );
  }
}

function idempotencyRecordOf(item: StoredItem, expiresAtEpochSeconds: number): IdempotencyRecord {
  return {
    spotId: String(item.spotId),
    key: String(item.idempotencyKey),
    exportId: String(item.exportId),
    requestFingerprint: String(item.requestFingerprint),
    createdAt: String(item.createdAt),
    expiresAtEpochSeconds,
  };
}

function idempotencyItem(record: IdempotencyRecord): StoredItem {
  return {
    spotId: record.spotId,
    idempotencyKey: record.key,
    exportId: record.exportId,
    requestFingerprint: record.requestFingerprint,
    createdAt: record.createdAt,
    [ExportTableAttribute.timeToLive]: record.expiresAtEpochSeconds,
  };
}
