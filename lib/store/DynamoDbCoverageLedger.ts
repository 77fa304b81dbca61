import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type {
  CoverageLedger,
  CoverageWindow,
  NewCoverageWindow,
  ScheduleWatermark,
  WindowPage,
  WindowUpdate,
} from '../exports/coverage/CoverageLedger';
import { WindowState } from '../exports/coverage/CoverageLedger';
import { MAX_EXPORT_RANGE_HOURS } from '../exports/requests/exportRequestLimits';
import { isConditionalCheckFailed, type StoredItem } from './conditionalCheckFailure';
import { withoutUndefined } from './exportItem';
import { clampLimit } from './exportListing';
import { decodePaginationToken, nextTableKeyToken } from './paginationToken';
import { reconcilerIndexQuery } from './reconcilerIndexQuery';
import { ExportTableAttribute } from './tableDefinition';
import {
  coverageWindowKey,
  EntityType,
  ReconcilerIndexPartition,
  restatementBudgetKey,
  scheduleWatermarkKey,
  spotPartitionKey,
  WATERMARK_SORT_KEY_PREFIX,
  WINDOW_SORT_KEY_PREFIX,
} from './tableKeys';

export interface DynamoDbCoverageLedgerOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
}

const MS_PER_HOUR = 3_600_000;
/** A window starts at most this long before any instant it covers: the longest export range. */
const LONGEST_WINDOW_MS = MAX_EXPORT_RANGE_HOURS * MS_PER_HOUR;
const WINDOW_FIELDS = [
  'state',
  'source',
  'exportId',
  'exportIds',
  'attempts',
  'plannedAt',
  'nextAttemptAt',
  'reason',
  'rows',
  'coveredAt',
  'dueAt',
  'restate',
  'versions',
  'restatement',
  'givenUpAges',
] as const;
const SECONDS_PER_DAY = 86_400;
/** A day's restatement count is kept this long after the day, then expires. */
const RESTATEMENT_BUDGET_KEPT_DAYS = 7;

/** The coverage ledger on the exports table: one item per window and per schedule watermark, in the spot's partition. */
export class DynamoDbCoverageLedger implements CoverageLedger {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;

  constructor(options: DynamoDbCoverageLedgerOptions) {
    this.#client = options.client;
    this.#tableName = options.tableName;
  }

  async claimWindow(
    window: NewCoverageWindow,
    options: { replaceGap?: boolean } = {},
  ): Promise<{ window: CoverageWindow; created: boolean }> {
    const created: CoverageWindow = { ...window, version: 1 };
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#tableName,
          Item: windowItem(created),
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': ExportTableAttribute.partitionKey },
        }),
      );
      return { window: created, created: true };
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
    }
    const existing = await this.getWindow(window.spotId, window.from, window.until);
    if (existing === undefined) return this.claimWindow(window, options);
    if (!options.replaceGap || existing.state !== WindowState.GAP)
      return { window: existing, created: false };
    // A gap planned again: a fresh window in its place, its history kept.
    const replaced = await this.updateWindow(window.spotId, window.from, window.until, {
      expectedVersion: existing.version,
      expectedStates: [WindowState.GAP],
      changes: {
        ...windowChanges(window),
        exportIds: [
          ...existing.exportIds,
          ...window.exportIds.filter((id) => !existing.exportIds.includes(id)),
        ],
      },
      remove: ['reason', 'nextAttemptAt'],
    });
    if (replaced !== undefined) return { window: replaced, created: true };
    const current = await this.getWindow(window.spotId, window.from, window.until);
    return current === undefined ? this.claimWindow(window, options) : { window: current, created: false };
  }

  async getWindow(spotId: string, from: string, until: string): Promise<CoverageWindow | undefined> {
    const { Item } = await this.#client.send(
      new GetCommand({
        TableName: this.#tableName,
        Key: coverageWindowKey(spotId, from, until),
        ConsistentRead: true,
      }),
    );
    return Item === undefined ? undefined : windowOf(Item);
  }

  async updateWindow(
    spotId: string,
    from: string,
    until: string,
    update: WindowUpdate,
  ): Promise<CoverageWindow | undefined> {
    const names: Record<string, string> = { '#pk': ExportTableAttribute.partitionKey, '#version': 'version' };
    const values: Record<string, unknown> = { ':one': 1 };
    const set = ['#version = #version + :one'];
    const remove: string[] = [];
    for (const field of WINDOW_FIELDS) {
      const value = update.changes[field];
      if (value === undefined) continue;
      names[`#${field}`] = field;
      values[`:${field}`] = value;
      set.push(`#${field} = :${field}`);
    }
    for (const field of update.remove ?? []) {
      if (update.changes[field] !== undefined) continue;
      names[`#${field}`] = field;
      remove.push(`#${field}`);
    }
    // The reconciler's index follows `dueAt`.
    names['#indexPk'] = ExportTableAttribute.activeIndexPartitionKey;
    names['#indexSk'] = ExportTableAttribute.activeIndexSortKey;
    if (update.changes.dueAt !== undefined) {
      values[':due'] = ReconcilerIndexPartition.WINDOW_DUE;
      set.push('#indexPk = :due', '#indexSk = :dueAt');
    } else if (update.remove?.includes('dueAt')) {
      remove.push('#indexPk', '#indexSk');
    } else {
      delete names['#indexPk'];
      delete names['#indexSk'];
    }
    const conditions = ['attribute_exists(#pk)'];
    if (update.expectedExportId !== undefined) {
      names['#exportId'] = 'exportId';
      values[':expectedExportId'] = update.expectedExportId;
      conditions.push('#exportId = :expectedExportId');
    }
    if (update.expectedStates !== undefined) {
      names['#state'] = 'state';
      const placeholders = update.expectedStates.map((state, index) => {
        values[`:state${index}`] = state;
        return `:state${index}`;
      });
      conditions.push(`#state IN (${placeholders.join(', ')})`);
    }
    if (update.expectedVersion !== undefined) {
      values[':expectedVersion'] = update.expectedVersion;
      conditions.push('#version = :expectedVersion');
    }
    try {
      const { Attributes } = await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: coverageWindowKey(spotId, from, until),
          UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return windowOf(Attributes ?? {});
    } catch (error) {
      if (isConditionalCheckFailed(error)) return undefined;
      throw error;
    }
  }

  async deleteWindow(
    spotId: string,
    from: string,
    until: string,
    exportId: string,
    options: { expectedStates?: readonly WindowState[] } = {},
  ): Promise<boolean> {
    const names: Record<string, string> = { '#exportId': 'exportId' };
    const values: Record<string, unknown> = { ':exportId': exportId };
    const conditions = ['#exportId = :exportId'];
    if (options.expectedStates !== undefined) {
      names['#state'] = 'state';
      const placeholders = options.expectedStates.map((state, index) => {
        values[`:state${index}`] = state;
        return `:state${index}`;
      });
      conditions.push(`#state IN (${placeholders.join(', ')})`);
    }
    try {
      await this.#client.send(
        new DeleteCommand({
          TableName: this.#tableName,
          Key: coverageWindowKey(spotId, from, until),
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }

  async listWindows(
    spotId: string,
    options: { from: string; until: string; limit: number; nextToken?: string },
  ): Promise<WindowPage> {
    const pk = spotPartitionKey(spotId);
    const earliestStart = new Date(Date.parse(options.from) - LONGEST_WINDOW_MS)
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
    const limit = clampLimit(options.limit, MAX_WINDOWS_PAGE);
    const startKey =
      options.nextToken === undefined
        ? undefined
        : decodePaginationToken(options.nextToken, {
            attributeNames: [ExportTableAttribute.partitionKey, ExportTableAttribute.sortKey],
            fixedValues: { [ExportTableAttribute.partitionKey]: pk },
            prefixes: { [ExportTableAttribute.sortKey]: WINDOW_SORT_KEY_PREFIX },
          });
    const windows: CoverageWindow[] = [];
    let lastTaken: StoredItem | undefined;
    let more = false;
    let exclusiveStartKey: Record<string, unknown> | undefined = startKey;
    // The windows that end before the range are read and filtered out: each request evaluates up
    // to a full page of items, so they cost reads but not one request each when the page is small.
    do {
      const { Items = [], LastEvaluatedKey } = await this.#client.send(
        new QueryCommand({
          TableName: this.#tableName,
          KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :low AND :high',
          FilterExpression: '#until > :from',
          ExpressionAttributeNames: {
            '#pk': ExportTableAttribute.partitionKey,
            '#sk': ExportTableAttribute.sortKey,
            '#until': 'until',
          },
          ExpressionAttributeValues: {
            ':pk': pk,
            ':low': `${WINDOW_SORT_KEY_PREFIX}${earliestStart}`,
            // A window starting at `until` sorts after this bound: it is not in the range.
            ':high': `${WINDOW_SORT_KEY_PREFIX}${options.until}`,
            ':from': options.from,
          },
          Limit: MAX_WINDOWS_PAGE,
          ExclusiveStartKey: exclusiveStartKey,
        }),
      );
      for (const item of Items) {
        if (windows.length === limit) {
          more = true;
          break;
        }
        windows.push(windowOf(item));
        lastTaken = item;
      }
      exclusiveStartKey = LastEvaluatedKey;
    } while (exclusiveStartKey !== undefined && windows.length < limit);
    // The next page starts after the last window of this one (the query may have read past it).
    const nextStart =
      (more || exclusiveStartKey !== undefined) && lastTaken !== undefined ? lastTaken : undefined;
    return {
      windows,
      ...nextTableKeyToken(nextStart),
    };
  }

  async findDueWindows(beforeIso: string, limit: number): Promise<CoverageWindow[]> {
    const { Items = [] } = await this.#client.send(
      reconcilerIndexQuery(this.#tableName, {
        partition: ReconcilerIndexPartition.WINDOW_DUE,
        beforeIso,
        limit: clampLimit(limit),
      }),
    );
    return Items.map(windowOf);
  }

  async getWatermark(spotId: string, schedule: string): Promise<ScheduleWatermark | undefined> {
    const { Item } = await this.#client.send(
      new GetCommand({
        TableName: this.#tableName,
        Key: scheduleWatermarkKey(spotId, schedule),
        ConsistentRead: true,
      }),
    );
    return Item === undefined ? undefined : watermarkOf(Item);
  }

  async advanceWatermark(
    spotId: string,
    schedule: string,
    until: string,
    updatedAt: string,
    restate?: readonly string[],
  ): Promise<ScheduleWatermark> {
    try {
      const { Attributes } = await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: scheduleWatermarkKey(spotId, schedule),
          UpdateExpression: `SET #entityType = :entityType, #spotId = :spotId, #schedule = :schedule, #until = :until, #updatedAt = :updatedAt, #restate = :restate`,
          ConditionExpression: 'attribute_not_exists(#until) OR #until < :until',
          ExpressionAttributeNames: {
            '#entityType': ExportTableAttribute.entityType,
            '#spotId': 'spotId',
            '#schedule': 'schedule',
            '#until': 'until',
            '#updatedAt': 'updatedAt',
            '#restate': 'restate',
          },
          ExpressionAttributeValues: {
            ':entityType': EntityType.scheduleWatermark,
            ':spotId': spotId,
            ':schedule': schedule,
            ':until': until,
            ':updatedAt': updatedAt,
            ':restate': [...(restate ?? [])],
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return watermarkOf(Attributes ?? {});
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      // Already at or past `until`: never moved back.
      return (await this.getWatermark(spotId, schedule)) as ScheduleWatermark;
    }
  }

  async listWatermarks(spotId: string): Promise<ScheduleWatermark[]> {
    const { Items = [] } = await this.#client.send(
      new QueryCommand({
        TableName: this.#tableName,
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
        ExpressionAttributeNames: {
          '#pk': ExportTableAttribute.partitionKey,
          '#sk': ExportTableAttribute.sortKey,
        },
        ExpressionAttributeValues: { ':pk': spotPartitionKey(spotId), ':prefix': WATERMARK_SORT_KEY_PREFIX },
      }),
    );
    return Items.map(watermarkOf);
  }

  async takeRestatementBudget(spotId: string, day: string, limit: number): Promise<boolean> {
    if (limit <= 0) return false;
    try {
      await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: restatementBudgetKey(spotId, day),
          UpdateExpression: 'SET #entityType = :entityType, #ttl = :ttl ADD #taken :one',
          ConditionExpression: 'attribute_not_exists(#taken) OR #taken < :limit',
          ExpressionAttributeNames: {
            '#entityType': ExportTableAttribute.entityType,
            '#ttl': ExportTableAttribute.timeToLive,
            '#taken': 'taken',
          },
          ExpressionAttributeValues: {
            ':entityType': EntityType.restatementBudget,
            ':ttl':
              Date.parse(`${day}T00:00:00Z`) / 1000 + (RESTATEMENT_BUDGET_KEPT_DAYS + 1) * SECONDS_PER_DAY,
            ':one': 1,
            ':limit': limit,
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }
}

/** The most windows one page of a listing holds. */
export const MAX_WINDOWS_PAGE = 1000;

function windowChanges(window: NewCoverageWindow): WindowUpdate['changes'] {
  return Object.fromEntries(WINDOW_FIELDS.map((field) => [field, window[field]])) as WindowUpdate['changes'];
}

function windowItem(window: CoverageWindow): StoredItem {
  return withoutUndefined({
    ...coverageWindowKey(window.spotId, window.from, window.until),
    [ExportTableAttribute.entityType]: EntityType.coverageWindow,
    ...(window.dueAt !== undefined && {
      [ExportTableAttribute.activeIndexPartitionKey]: ReconcilerIndexPartition.WINDOW_DUE,
      [ExportTableAttribute.activeIndexSortKey]: window.dueAt,
    }),
    spotId: window.spotId,
    from: window.from,
    until: window.until,
    ...windowChanges(window),
    version: window.version,
  });
}

function windowOf(item: StoredItem): CoverageWindow {
  return withoutUndefined({
    spotId: item.spotId,
    from: item.from,
    until: item.until,
    state: item.state,
    source: item.source,
    exportId: item.exportId,
    exportIds: Array.isArray(item.exportIds) ? item.exportIds : [],
    attempts: typeof item.attempts === 'number' ? item.attempts : 1,
    plannedAt: item.plannedAt,
    nextAttemptAt: item.nextAttemptAt,
    reason: item.reason,
    rows: item.rows,
    coveredAt: item.coveredAt,
    dueAt: item.dueAt,
    restate: Array.isArray(item.restate) && item.restate.length > 0 ? item.restate : undefined,
    versions: Array.isArray(item.versions) ? item.versions : undefined,
    restatement: item.restatement,
    givenUpAges:
      Array.isArray(item.givenUpAges) && item.givenUpAges.length > 0 ? item.givenUpAges : undefined,
    version: typeof item.version === 'number' ? item.version : 1,
  }) as CoverageWindow;
}

function watermarkOf(item: StoredItem): ScheduleWatermark {
  return {
    spotId: String(item.spotId),
    schedule: String(item.schedule),
    until: String(item.until),
    updatedAt: String(item.updatedAt),
    ...(Array.isArray(item.restate) && item.restate.length > 0 && { restate: item.restate.map(String) }),
  };
}
