import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  type BackfillRecord,
  BackfillState,
  type BackfillWindow,
  type NewBackfillRecord,
} from '../exports/backfill/BackfillRecord';
import type { BackfillStore } from '../exports/backfill/BackfillStore';
import { BackfillAlreadyExistsError, BackfillNotFoundError } from '../exports/backfill/errors';
import { isConditionalCheckFailed, type StoredItem } from './conditionalCheckFailure';
import { withoutUndefined } from './exportItem';
import { clampLimit } from './exportListing';
import { reconcilerIndexQuery } from './reconcilerIndexQuery';
import { spotItemsPage } from './spotItemsPage';
import { ExportTableAttribute } from './tableDefinition';
import { BACKFILL_SORT_KEY_PREFIX, backfillKey, EntityType, ReconcilerIndexPartition } from './tableKeys';

export interface DynamoDbBackfillStoreOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
}

/**
 * The backfills on the exports table: one item per backfill in its spot's partition, holding its
 * plan. While its windows are being recorded it sits in the reconciler index (`BACKFILL_OPEN`,
 * by creation time), so an interrupted creation is finished.
 */
export class DynamoDbBackfillStore implements BackfillStore {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;

  constructor(options: DynamoDbBackfillStoreOptions) {
    this.#client = options.client;
    this.#tableName = options.tableName;
  }

  async create(record: NewBackfillRecord): Promise<BackfillRecord> {
    const created: BackfillRecord = { ...record, version: 1 };
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#tableName,
          Item: backfillItem(created),
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': ExportTableAttribute.partitionKey },
        }),
      );
      return created;
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const existing = await this.get(record.spotId, record.backfillId);
      throw new BackfillAlreadyExistsError(record.spotId, record.backfillId, existing, { cause: error });
    }
  }

  async get(spotId: string, backfillId: string): Promise<BackfillRecord | undefined> {
    const { Item } = await this.#client.send(
      new GetCommand({
        TableName: this.#tableName,
        Key: backfillKey(spotId, backfillId),
        ConsistentRead: true,
      }),
    );
    return Item === undefined ? undefined : backfillOf(Item);
  }

  async markRecorded(spotId: string, backfillId: string): Promise<BackfillRecord> {
    return this.#update(spotId, backfillId, {
      set: { recording: false },
      remove: [ExportTableAttribute.activeIndexPartitionKey, ExportTableAttribute.activeIndexSortKey],
      // Written once: a repeat changes nothing.
      condition: { name: 'recording', value: true },
    });
  }

  async markAborted(spotId: string, backfillId: string, abortedAt: string): Promise<BackfillRecord> {
    return this.#update(spotId, backfillId, {
      set: { state: BackfillState.ABORTED, abortedAt },
      condition: { name: 'state', value: BackfillState.ACTIVE },
    });
  }

  async listForSpot(
    spotId: string,
    options: { limit: number; nextToken?: string },
  ): Promise<{ items: BackfillRecord[]; nextToken?: string }> {
    const page = await spotItemsPage(this.#client, this.#tableName, {
      spotId,
      sortKeyPrefix: BACKFILL_SORT_KEY_PREFIX,
      ...options,
      // Backfill ids sort by creation time: newest first.
      newestFirst: true,
    });
    return { ...page, items: page.items.map(backfillOf) };
  }

  async findRecording(beforeIso: string, limit: number): Promise<BackfillRecord[]> {
    const { Items = [] } = await this.#client.send(
      reconcilerIndexQuery(this.#tableName, {
        partition: ReconcilerIndexPartition.BACKFILL_OPEN,
        beforeIso,
        limit: clampLimit(limit),
      }),
    );
    return Items.map(backfillOf);
  }

  /** One conditional update; when its condition fails the record is answered as it is (404 when absent). */
  async #update(
    spotId: string,
    backfillId: string,
    change: {
      set: Record<string, unknown>;
      remove?: readonly string[];
      condition: { name: string; value: unknown };
    },
  ): Promise<BackfillRecord> {
    const names: Record<string, string> = {
      '#pk': ExportTableAttribute.partitionKey,
      '#version': 'version',
      '#condition': change.condition.name,
    };
    const values: Record<string, unknown> = { ':one': 1, ':condition': change.condition.value };
    const set = ['#version = #version + :one'];
    for (const [field, value] of Object.entries(change.set)) {
      names[`#${field}`] = field;
      values[`:${field}`] = value;
      set.push(`#${field} = :${field}`);
    }
    const remove = (change.remove ?? []).map((field) => {
      names[`#${field}`] = field;
      return `#${field}`;
    });
    try {
      const { Attributes } = await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: backfillKey(spotId, backfillId),
          UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
          ConditionExpression: 'attribute_exists(#pk) AND #condition = :condition',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return backfillOf(Attributes ?? {});
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const current = await this.get(spotId, backfillId);
      if (current === undefined) throw new BackfillNotFoundError(spotId, backfillId, { cause: error });
      return current;
    }
  }
}

function backfillItem(record: BackfillRecord): StoredItem {
  return withoutUndefined({
    ...backfillKey(record.spotId, record.backfillId),
    [ExportTableAttribute.entityType]: EntityType.backfill,
    ...(record.recording && {
      [ExportTableAttribute.activeIndexPartitionKey]: ReconcilerIndexPartition.BACKFILL_OPEN,
      [ExportTableAttribute.activeIndexSortKey]: `${record.createdAt}#${record.backfillId}`,
    }),
    spotId: record.spotId,
    backfillId: record.backfillId,
    from: record.from,
    until: record.until,
    windowHours: record.windowHours,
    windows: record.windows.map(({ from, until }) => ({ from, until })),
    skipped: record.skipped.map(({ from, until }) => ({ from, until })),
    refreshed: record.refreshed?.map(({ from, until }) => ({ from, until })),
    state: record.state,
    recording: record.recording,
    createdAt: record.createdAt,
    abortedAt: record.abortedAt,
    idempotencyKey: record.idempotencyKey,
    version: record.version,
  });
}

function backfillOf(item: StoredItem): BackfillRecord {
  return withoutUndefined({
    spotId: String(item.spotId),
    backfillId: String(item.backfillId ?? String(item.sk).slice(BACKFILL_SORT_KEY_PREFIX.length)),
    from: String(item.from),
    until: String(item.until),
    windowHours: Number(item.windowHours),
    windows: windowsOf(item.windows),
    skipped: windowsOf(item.skipped),
    refreshed: Array.isArray(item.refreshed) ? windowsOf(item.refreshed) : undefined,
    state: item.state === BackfillState.ABORTED ? BackfillState.ABORTED : BackfillState.ACTIVE,
    recording: item.recording === true,
    createdAt: String(item.createdAt),
    abortedAt: typeof item.abortedAt === 'string' ? item.abortedAt : undefined,
    idempotencyKey: typeof item.idempotencyKey === 'string' ? item.idempotencyKey : undefined,
    version: typeof item.version === 'number' ? item.version : 1,
  }) as BackfillRecord;
}

function windowsOf(value: unknown): BackfillWindow[] {
  if (!Array.isArray(value)) return [];
  return value.map((window: { from?: unknown; until?: unknown }) => ({
    from: String(window.from),
    until: String(window.until),
  }));
}
