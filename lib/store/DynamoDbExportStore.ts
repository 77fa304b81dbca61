import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { ExportRecord, NewExportRecord } from '../exports/ExportRecord';
import { EXPORT_CHANGE_FIELDS } from '../exports/ExportRecord';
import { type ExportStatus, isTerminal } from '../exports/ExportStatus';
import type {
  AcquireSpotLockOptions,
  ExportPage,
  ExportStore,
  GetExportOptions,
  ListExportsOptions,
  PutIdempotencyRecordInput,
  RecordPollOptions,
  RecordPollResult,
  TransitionRequest,
} from '../exports/ExportStore';
import { IllegalTransitionError } from '../exports/errors';
import { assertTransition, canTransition, legalSourcesOf } from '../exports/exportTransitions';
import type { IdempotencyRecord } from '../exports/IdempotencyRecord';
import { type PollObservation, planPollUpdate } from '../exports/planPollUpdate';
import type { SpotLock } from '../exports/SpotLock';
import {
  ExportAlreadyExistsError,
  ExportNotFoundError,
  IdempotencyConflictError,
  IdempotencyKeyReusedError,
  SpotBusyError,
  TransitionConflictError,
} from '../exports/storeErrors';
import {
  isConditionalCheckFailed,
  itemOfConditionalCheckFailure,
  type StoredItem,
} from './conditionalCheckFailure';
import { exportRecordToItem, itemToExportRecord } from './exportItem';
import { decodePaginationToken, encodePaginationToken, type PaginationKeyShape } from './paginationToken';
import { ExportTableAttribute, ExportTableIndex } from './tableDefinition';
import {
  ACTIVE_INDEX_PARTITION,
  EntityType,
  EXPORT_SORT_KEY_PREFIX,
  exportKey,
  idempotencyKey,
  spotLockKey,
  spotPartitionKey,
  statusIndexPartitionKey,
  type TableKey,
} from './tableKeys';

/** Longer than any export should take; a crashed holder's lock frees itself after this. */
export const DEFAULT_SPOT_LOCK_LEASE_SECONDS = 6 * 60 * 60;
export const DEFAULT_POLL_BOOKKEEPING_INTERVAL_SECONDS = 5 * 60;
export const MAX_LIST_EXPORTS_LIMIT = 100;
// Bounds re-reading after lost races; each retry follows a write someone else made.
const RECORD_POLL_MAX_ATTEMPTS = 3;
const CONTENDED_PUT_MAX_ATTEMPTS = 3;
const MS_PER_SECOND = 1000;

const EXPORT_BASE_KEY_NAMES = [ExportTableAttribute.partitionKey, ExportTableAttribute.sortKey] as const;
const EXPORT_STATUS_INDEX_KEY_NAMES = [
  ...EXPORT_BASE_KEY_NAMES,
  ExportTableAttribute.statusIndexPartitionKey,
  ExportTableAttribute.statusIndexSortKey,
] as const;

export interface DynamoDbExportStoreOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Epoch milliseconds; lock and idempotency expiry are judged by it. */
  now?: () => number;
  defaultSpotLockLeaseSeconds?: number;
  pollBookkeepingIntervalSeconds?: number;
}

export class DynamoDbExportStore implements ExportStore {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;
  readonly #now: () => number;
  readonly #defaultSpotLockLeaseSeconds: number;
  readonly #pollBookkeepingIntervalSeconds: number;

  constructor(options: DynamoDbExportStoreOptions) {
    this.#client = options.client;
    this.#tableName = options.tableName;
    this.#now = options.now ?? Date.now;
    this.#defaultSpotLockLeaseSeconds =
      options.defaultSpotLockLeaseSeconds ?? DEFAULT_SPOT_LOCK_LEASE_SECONDS;
    this.#pollBookkeepingIntervalSeconds =
      options.pollBookkeepingIntervalSeconds ?? DEFAULT_POLL_BOOKKEEPING_INTERVAL_SECONDS;
  }

  async createExport(newRecord: NewExportRecord): Promise<ExportRecord> {
    const record: ExportRecord = { ...newRecord, version: 1 };
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#tableName,
          Item: exportRecordToItem(record),
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': ExportTableAttribute.partitionKey },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return record;
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const existing = await this.#currentExport(record.spotId, record.exportId, error);
      throw new ExportAlreadyExistsError(record.spotId, record.exportId, existing, { cause: error });
    }
  }

  async getExport(
    spotId: string,
    exportId: string,
    options: GetExportOptions = {},
  ): Promise<ExportRecord | undefined> {
    const { Item } = await this.#client.send(
      new GetCommand({
        TableName: this.#tableName,
        Key: exportKey(spotId, exportId),
        ConsistentRead: options.consistentRead ?? true,
      }),
    );
    return Item === undefined ? undefined : itemToExportRecord(Item);
  }

  async transition(spotId: string, exportId: string, request: TransitionRequest): Promise<ExportRecord> {
    const { to, expectedVersion, changes = {}, remove: removedFields = [] } = request;
    const expectedFrom = expectedStatuses(request);
    for (const from of expectedFrom) assertTransition(from, to, exportId);

    const names: Record<string, string> = {
      '#pk': ExportTableAttribute.partitionKey,
      '#status': 'status',
      '#version': 'version',
      '#statusIndexPk': ExportTableAttribute.statusIndexPartitionKey,
    };
    const values: Record<string, unknown> = {
      ':to': to,
      ':one': 1,
      ':statusIndexPk': statusIndexPartitionKey(spotId, to),
    };
    const set = ['#status = :to', '#version = #version + :one', '#statusIndexPk = :statusIndexPk'];
    const remove: string[] = [];
    for (const field of EXPORT_CHANGE_FIELDS) {
      const value = changes[field];
      if (value === undefined) continue;
      names[`#${field}`] = field;
      values[`:${field}`] = value;
      set.push(`#${field} = :${field}`);
    }
    for (const field of removedFields) {
      if (changes[field] !== undefined) continue;
      names[`#${field}`] = field;
      remove.push(`#${field}`);
    }
    // Keep the sparse reconciler index in step: terminal records leave it, polls move it.
    if (isTerminal(to)) {
      names['#activeIndexPk'] = ExportTableAttribute.activeIndexPartitionKey;
      names['#activeIndexSk'] = ExportTableAttribute.activeIndexSortKey;
      remove.push('#activeIndexPk', '#activeIndexSk');
    } else if (changes.lastPolledAt !== undefined) {
      names['#activeIndexSk'] = ExportTableAttribute.activeIndexSortKey;
      set.push('#activeIndexSk = :lastPolledAt');
    }

    const fromPlaceholders = expectedFrom.map((status, index) => {
      values[`:from${index}`] = status;
      return `:from${index}`;
    });
    let condition = `attribute_exists(#pk) AND #status IN (${fromPlaceholders.join(', ')})`;
    if (expectedVersion !== undefined) {
      values[':expectedVersion'] = expectedVersion;
      condition += ' AND #version = :expectedVersion';
    }

    try {
      const { Attributes } = await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: exportKey(spotId, exportId),
          UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
          ConditionExpression: condition,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return itemToExportRecord(Attributes ?? {});
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const current = await this.#currentExport(spotId, exportId, error);
      if (current === undefined) throw new ExportNotFoundError(spotId, exportId, { cause: error });
      if (!canTransition(current.status, to)) {
        throw new IllegalTransitionError({ from: current.status, to, exportId, current }, { cause: error });
      }
      throw new TransitionConflictError({ current, to, expectedFrom, expectedVersion }, { cause: error });
    }
  }

  async recordPoll(
    current: ExportRecord,
    observation: PollObservation,
    options: RecordPollOptions = {},
  ): Promise<RecordPollResult> {
    const pollBookkeepingIntervalSeconds =
      options.pollBookkeepingIntervalSeconds ?? this.#pollBookkeepingIntervalSeconds;
    let record = current;
    for (let attempt = 1; ; attempt++) {
      const plan = planPollUpdate(record, observation, { pollBookkeepingIntervalSeconds });
      if (plan.kind === 'unchanged') return { outcome: 'unchanged', record };
      try {
        const written = await this.transition(record.spotId, record.exportId, {
          to: plan.to,
          from: record.status,
          expectedVersion: record.version,
          changes: plan.changes,
        });
        return { outcome: plan.kind === 'update' ? 'updated' : 'bookkept', record: written };
      } catch (error) {
        // Someone wrote first: decide again against what they wrote (it may already say the same).
        const newer =
          error instanceof TransitionConflictError || error instanceof IllegalTransitionError
            ? error.current
            : undefined;
        if (newer === undefined || attempt >= RECORD_POLL_MAX_ATTEMPTS) throw error;
        record = newer;
      }
    }
  }

  async listExports(spotId: string, options: ListExportsOptions): Promise<ExportPage> {
    const limit = clampLimit(options.limit);
    const listing = exportListing(spotId, options.status);
    const startKey =
      options.nextToken === undefined
        ? undefined
        : decodePaginationToken(options.nextToken, listing.tokenShape);
    // One extra item tells whether another page exists, so the last page carries no token.
    const { Items = [], LastEvaluatedKey } = await this.#client.send(
      new QueryCommand({
        TableName: this.#tableName,
        ...listing.query,
        ScanIndexForward: false,
        Limit: limit + 1,
        ExclusiveStartKey: startKey,
      }),
    );

    const pageItems = Items.slice(0, limit);
    const lastItem = pageItems.at(-1);
    const nextKey =
      Items.length > limit && lastItem !== undefined
        ? Object.fromEntries(listing.tokenShape.attributeNames.map((name) => [name, String(lastItem[name])]))
        : // The 1 MB page limit can stop a query short of `limit`.
          (LastEvaluatedKey as Record<string, string> | undefined);
    return {
      items: pageItems.map(itemToExportRecord),
      ...(nextKey === undefined ? {} : { nextToken: encodePaginationToken(nextKey) }),
    };
  }

  async findActiveNotPolledSince(beforeIso: string, limit: number): Promise<ExportRecord[]> {
    const { Items = [] } = await this.#client.send(
      new QueryCommand({
        TableName: this.#tableName,
        IndexName: ExportTableIndex.activeByLastPolled,
        KeyConditionExpression: '#activeIndexPk = :active AND #activeIndexSk < :before',
        ExpressionAttributeNames: {
          '#activeIndexPk': ExportTableAttribute.activeIndexPartitionKey,
          '#activeIndexSk': ExportTableAttribute.activeIndexSortKey,
        },
        ExpressionAttributeValues: { ':active': ACTIVE_INDEX_PARTITION, ':before': beforeIso },
        ScanIndexForward: true,
        Limit: clampLimit(limit),
      }),
    );
    return Items.map(itemToExportRecord);
  }

  async acquireSpotLock(
    spotId: string,
    exportId: string,
    options: AcquireSpotLockOptions = {},
  ): Promise<SpotLock> {
    const leaseSeconds = options.leaseSeconds ?? this.#defaultSpotLockLeaseSeconds;
    let holder: SpotLock | undefined;
    for (let attempt = 1; attempt <= CONTENDED_PUT_MAX_ATTEMPTS; attempt++) {
      const nowMs = this.#now();
      const lock: SpotLock = {
        spotId,
        exportId,
        acquiredAt: new Date(nowMs).toISOString(),
        expiresAtEpochSeconds: epochSeconds(nowMs) + leaseSeconds,
      };
      try {
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
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        const failed = itemOfConditionalCheckFailure(error);
        holder = failed === undefined ? await this.getSpotLock(spotId) : this.#liveSpotLock(failed);
        if (holder !== undefined && holder.exportId !== exportId) {
          throw new SpotBusyError(spotId, holder, { cause: error });
        }
        // Released or lapsed between our write and our read: try again.
      }
    }
    throw new SpotBusyError(spotId, holder);
  }

  async releaseSpotLock(spotId: string, exportId: string): Promise<boolean> {
    // Already released, or taken over after our lease lapsed: not ours to delete.
    return this.#deleteIfItNames(spotLockKey(spotId), exportId);
  }

  async getSpotLock(spotId: string): Promise<SpotLock | undefined> {
    const { Item } = await this.#client.send(
      new GetCommand({ TableName: this.#tableName, Key: spotLockKey(spotId), ConsistentRead: true }),
    );
    return Item === undefined ? undefined : this.#liveSpotLock(Item);
  }

  async putIdempotencyRecord(
    spotId: string,
    key: string,
    input: PutIdempotencyRecordInput,
  ): Promise<IdempotencyRecord> {
    for (let attempt = 1; ; attempt++) {
      const nowMs = this.#now();
      const record: IdempotencyRecord = {
        spotId,
        key,
        exportId: input.exportId,
        requestFingerprint: input.requestFingerprint,
        createdAt: new Date(nowMs).toISOString(),
        expiresAtEpochSeconds: input.expiresAtEpochSeconds,
      };
      try {
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
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        const failed = itemOfConditionalCheckFailure(error);
        const existing =
          failed === undefined
            ? await this.getIdempotencyRecord(spotId, key)
            : this.#liveIdempotencyRecord(failed);
        if (existing !== undefined) {
          throw existing.requestFingerprint === input.requestFingerprint
            ? new IdempotencyConflictError(existing, { cause: error })
            : new IdempotencyKeyReusedError(existing, { cause: error });
        }
        // Expired between our write and our read: try again.
        if (attempt >= CONTENDED_PUT_MAX_ATTEMPTS) throw error;
      }
    }
  }

  async deleteIdempotencyRecord(spotId: string, key: string, exportId: string): Promise<boolean> {
    // Gone already, or the key now names another export: not ours to delete.
    return this.#deleteIfItNames(idempotencyKey(spotId, key), exportId);
  }

  /** Deletes the item only while it still names `exportId`; true when this call deleted it. */
  async #deleteIfItNames(key: TableKey, exportId: string): Promise<boolean> {
    try {
      await this.#client.send(
        new DeleteCommand({
          TableName: this.#tableName,
          Key: key,
          ConditionExpression: '#exportId = :exportId',
          ExpressionAttributeNames: { '#exportId': 'exportId' },
          ExpressionAttributeValues: { ':exportId': exportId },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }

  async getIdempotencyRecord(spotId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const { Item } = await this.#client.send(
      new GetCommand({ TableName: this.#tableName, Key: idempotencyKey(spotId, key), ConsistentRead: true }),
    );
    return Item === undefined ? undefined : this.#liveIdempotencyRecord(Item);
  }

  async #currentExport(
    spotId: string,
    exportId: string,
    failure: Parameters<typeof itemOfConditionalCheckFailure>[0],
  ): Promise<ExportRecord | undefined> {
    const item = itemOfConditionalCheckFailure(failure);
    return item === undefined ? this.getExport(spotId, exportId) : itemToExportRecord(item);
  }

  // TTL deletion lags by up to days, so expiry is judged on read.
  #liveSpotLock(item: StoredItem): SpotLock | undefined {
    const expiresAtEpochSeconds = Number(item[ExportTableAttribute.timeToLive]);
    if (!(expiresAtEpochSeconds > epochSeconds(this.#now()))) return undefined;
    return {
      spotId: String(item.spotId),
      exportId: String(item.exportId),
      acquiredAt: String(item.acquiredAt),
      expiresAtEpochSeconds,
    };
  }

  #liveIdempotencyRecord(item: StoredItem): IdempotencyRecord | undefined {
    const expiresAtEpochSeconds = Number(item[ExportTableAttribute.timeToLive]);
    if (!(expiresAtEpochSeconds > epochSeconds(this.#now()))) return undefined;
    return {
      spotId: String(item.spotId),
      key: String(item.idempotencyKey),
      exportId: String(item.exportId),
      requestFingerprint: String(item.requestFingerprint),
      createdAt: String(item.createdAt),
      expiresAtEpochSeconds,
    };
  }
}

interface ExportListing {
  query: Pick<
    QueryCommandInput,
    'IndexName' | 'KeyConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
  >;
  tokenShape: PaginationKeyShape;
}

/** A spot's exports come from the base table; one status's from the status index. */
function exportListing(spotId: string, status: ExportStatus | undefined): ExportListing {
  const pk = spotPartitionKey(spotId);
  const prefixes = { [ExportTableAttribute.sortKey]: EXPORT_SORT_KEY_PREFIX };
  if (status === undefined) {
    return {
      query: {
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :exportPrefix)',
        ExpressionAttributeNames: {
          '#pk': ExportTableAttribute.partitionKey,
          '#sk': ExportTableAttribute.sortKey,
        },
        ExpressionAttributeValues: { ':pk': pk, ':exportPrefix': EXPORT_SORT_KEY_PREFIX },
      },
      tokenShape: {
        attributeNames: EXPORT_BASE_KEY_NAMES,
        fixedValues: { [ExportTableAttribute.partitionKey]: pk },
        prefixes,
      },
    };
  }
  const statusIndexPk = statusIndexPartitionKey(spotId, status);
  return {
    query: {
      IndexName: ExportTableIndex.byStatus,
      KeyConditionExpression: '#statusIndexPk = :statusIndexPk',
      ExpressionAttributeNames: { '#statusIndexPk': ExportTableAttribute.statusIndexPartitionKey },
      ExpressionAttributeValues: { ':statusIndexPk': statusIndexPk },
    },
    tokenShape: {
      attributeNames: EXPORT_STATUS_INDEX_KEY_NAMES,
      fixedValues: {
        [ExportTableAttribute.partitionKey]: pk,
        [ExportTableAttribute.statusIndexPartitionKey]: statusIndexPk,
      },
      prefixes,
    },
  };
}

function clampLimit(limit: number): number {
  return Math.min(Math.max(Math.trunc(limit) || 1, 1), MAX_LIST_EXPORTS_LIMIT);
}

function expectedStatuses(request: TransitionRequest): readonly ExportStatus[] {
  if (request.from === undefined) return legalSourcesOf(request.to);
  const from: readonly ExportStatus[] = typeof request.from === 'string' ? [request.from] : request.from;
  if (from.length === 0) throw new TypeError('transition: `from` must name at least one status');
  return from;
}

function spotLockItem(lock: SpotLock): StoredItem {
  return {
    spotId: lock.spotId,
    exportId: lock.exportId,
    acquiredAt: lock.acquiredAt,
    [ExportTableAttribute.timeToLive]: lock.expiresAtEpochSeconds,
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

function epochSeconds(epochMs: number): number {
  return Math.floor(epochMs / MS_PER_SECOND);
}
