import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type ErasureRecord, ErasureStatus, type NewErasureRecord } from '../exports/erasure/ErasureRecord';
import { ErasureAlreadyExistsError, ErasureChangedError } from '../exports/erasure/errors';
import type { ErasurePage, ErasureStore } from '../exports/erasure/ports';
import { isConditionalCheckFailed, type StoredItem } from './conditionalCheckFailure';
import { withoutUndefined } from './exportItem';
import { clampLimit } from './exportListing';
import { reconcilerIndexQuery } from './reconcilerIndexQuery';
import { spotItemsPage } from './spotItemsPage';
import { ExportTableAttribute } from './tableDefinition';
import { EntityType, ERASURE_SORT_KEY_PREFIX, erasureKey, ReconcilerIndexPartition } from './tableKeys';

export interface DynamoDbErasureStoreOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
}

/**
 * The erasures on the exports table: one item per erasure in its spot's partition, written whole
 * and only over the version read. While RUNNING it sits in the reconciler index
 * (`ERASURE_RUNNING`, by when its lease lapses), so a run that died is resumed.
 */
export class DynamoDbErasureStore implements ErasureStore {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;

  constructor(options: DynamoDbErasureStoreOptions) {
    this.#client = options.client;
    this.#tableName = options.tableName;
  }

  async create(record: NewErasureRecord): Promise<ErasureRecord> {
    const created: ErasureRecord = { ...record, version: 1 };
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#tableName,
          Item: erasureItem(created),
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': ExportTableAttribute.partitionKey },
        }),
      );
      return created;
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      throw new ErasureAlreadyExistsError(await this.get(record.spotId, record.erasureId), { cause: error });
    }
  }

  async get(spotId: string, erasureId: string): Promise<ErasureRecord | undefined> {
    const { Item } = await this.#client.send(
      new GetCommand({
        TableName: this.#tableName,
        Key: erasureKey(spotId, erasureId),
        ConsistentRead: true,
      }),
    );
    return Item === undefined ? undefined : erasureOf(Item);
  }

  async save(next: ErasureRecord): Promise<ErasureRecord> {
    const saved: ErasureRecord = { ...next, version: next.version + 1 };
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#tableName,
          Item: erasureItem(saved),
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': next.version },
        }),
      );
      return saved;
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const current = await this.get(next.spotId, next.erasureId);
      throw new ErasureChangedError(next.spotId, next.erasureId, current, { cause: error });
    }
  }

  async listForSpot(spotId: string, options: { limit: number; nextToken?: string }): Promise<ErasurePage> {
    const page = await spotItemsPage(this.#client, this.#tableName, {
      spotId,
      sortKeyPrefix: ERASURE_SORT_KEY_PREFIX,
      ...options,
    });
    return { ...page, items: page.items.map(erasureOf) };
  }

  async findRunning(beforeIso: string, limit: number): Promise<ErasureRecord[]> {
    const { Items = [] } = await this.#client.send(
      reconcilerIndexQuery(this.#tableName, {
        partition: ReconcilerIndexPartition.ERASURE_RUNNING,
        beforeIso,
        limit: clampLimit(limit),
      }),
    );
    return Items.map(erasureOf);
  }
}

function erasureItem(record: ErasureRecord): StoredItem {
  return withoutUndefined({
    ...erasureKey(record.spotId, record.erasureId),
    [ExportTableAttribute.entityType]: EntityType.erasure,
    ...(record.status === ErasureStatus.RUNNING && {
      [ExportTableAttribute.activeIndexPartitionKey]: ReconcilerIndexPartition.ERASURE_RUNNING,
      [ExportTableAttribute.activeIndexSortKey]: record.leaseUntil ?? record.requestedAt,
    }),
    ...record,
    verification:
      record.verification === undefined ? undefined : withoutUndefined({ ...record.verification }),
    files: record.files.map((file) => withoutUndefined({ ...file })),
  });
}

function erasureOf(item: StoredItem): ErasureRecord {
  const {
    pk: _pk,
    sk: _sk,
    [ExportTableAttribute.entityType]: _entityType,
    [ExportTableAttribute.activeIndexPartitionKey]: _indexPk,
    [ExportTableAttribute.activeIndexSortKey]: _indexSk,
    ...record
  } = item;
  return record as unknown as ErasureRecord;
}
