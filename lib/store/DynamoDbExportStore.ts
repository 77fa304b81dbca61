import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ArchiveStatus } from '../exports/record/ExportArchive';
import {
  EXPORT_CHANGE_FIELDS,
  type ExportRecord,
  type NewExportRecord,
} from '../exports/record/ExportRecord';
import { ExportStatus, isTerminal } from '../exports/record/ExportStatus';
import type {
  ConditionalTransition,
  ExportPage,
  ExportStore,
  GetExportOptions,
  ListExportsOptions,
} from '../exports/record/ExportStore';
import {
  ExportAlreadyExistsError,
  ExportNotFoundError,
  TransitionConflictError,
} from '../exports/record/errors';
import { isConditionalCheckFailed, type StoredItem } from './conditionalCheckFailure';
import { refusingValue } from './contendedWrite';
import { DynamoDbExportLinks, LinkAttribute, type LinkItemAttributes } from './DynamoDbExportLinks';
import {
  exportRecordToItem,
  itemToExportRecord,
  reconcilerIndexOf,
  statusIndexSortKeyOf,
} from './exportItem';
import { clampLimit, exportListing } from './exportListing';
import { decodePaginationToken, encodePaginationToken } from './paginationToken';
import { reconcilerIndexQuery } from './reconcilerIndexQuery';
import { ExportTableAttribute, ExportTableIndex } from './tableDefinition';
import {
  EntityType,
  exportKey,
  legacyArchiveIndexKey,
  ReconcilerIndexPartition,
  spotSeenKey,
  statusIndexPartitionKey,
} from './tableKeys';

/** Items one legacy-archive sweep reads (the table is read once, a page per reconciler run). */
const LEGACY_SCAN_PAGE_ITEMS = 200;
/** Sorts after every instant: the whole partition. */
const END_OF_INDEX = '~';

export interface DynamoDbExportStoreOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
}

/**
 * The export store on the single table: export records, one item each, written conditionally,
 * with their links beside them when they are too many for the item (DynamoDbExportLinks). A
 * refused write is reported with the record as it is now; what to make of it is the caller's decision.
 */
export class DynamoDbExportStore implements ExportStore {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;
  readonly #links: DynamoDbExportLinks;
  /** Spots this instance has written the seen item of: once per spot and instance. */
  readonly #seenSpots = new Set<string>();

  constructor(options: DynamoDbExportStoreOptions) {
    this.#client = options.client;
    this.#tableName = options.tableName;
    this.#links = new DynamoDbExportLinks(options);
  }

  /** @throws ExportAlreadyExistsError */
  async createExport(newRecord: NewExportRecord): Promise<ExportRecord> {
    const record: ExportRecord = { ...newRecord, version: 1 };
    const linkAttributes = await this.#links.write(record.spotId, record.exportId, record.links);
    const item: StoredItem = { ...exportRecordToItem(record), ...linkAttributes.set };
    for (const name of linkAttributes.remove) delete item[name];
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#tableName,
          Item: item,
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': ExportTableAttribute.partitionKey },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      await this.#markSpotSeen(record.spotId);
      return record;
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const existing = await this.#current(record.spotId, record.exportId, error);
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
    return Item === undefined ? undefined : this.#links.recordOf(Item);
  }

  /** @throws ExportNotFoundError; TransitionConflictError with the current record when the condition fails */
  async transition(spotId: string, exportId: string, request: ConditionalTransition): Promise<ExportRecord> {
    const { to, from, expectedVersion, changes = {}, remove: removedFields = [] } = request;
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
    // Links are stored before the record names them: in its item or in pages of their own.
    const linkAttributes: LinkItemAttributes | undefined =
      changes.links === undefined
        ? removedFields.includes('links')
          ? { set: {}, remove: Object.values(LinkAttribute) }
          : undefined
        : await this.#links.write(spotId, exportId, changes.links);
    const fieldValues: StoredItem = {};
    for (const field of EXPORT_CHANGE_FIELDS) {
      if (field === 'links') Object.assign(fieldValues, linkAttributes?.set);
      else fieldValues[field] = changes[field];
    }
    for (const [field, value] of Object.entries(fieldValues)) {
      if (value === undefined) continue;
      names[`#${field}`] = field;
      values[`:${field}`] = value;
      set.push(`#${field} = :${field}`);
    }
    const removed = [
      ...removedFields.filter((field) => field !== 'links'),
      ...(linkAttributes?.remove ?? []),
    ];
    for (const field of removed) {
      if (fieldValues[field] !== undefined) continue;
      names[`#${field}`] = field;
      remove.push(`#${field}`);
    }
    // Keep the sparse reconciler index in step: a dequeued export becomes active, a COMPLETED one
    // waits for its archive, other terminal records leave it, polls move it.
    names['#activeIndexPk'] = ExportTableAttribute.activeIndexPartitionKey;
    names['#activeIndexSk'] = ExportTableAttribute.activeIndexSortKey;
    if (to === ExportStatus.COMPLETED) {
      values[':archivePending'] = ReconcilerIndexPartition.ARCHIVE_PENDING;
      values[':archiveDueAt'] = changes.completedAt ?? new Date().toISOString();
      set.push('#activeIndexPk = :archivePending', '#activeIndexSk = :archiveDueAt');
    } else if (isTerminal(to)) {
      remove.push('#activeIndexPk', '#activeIndexSk');
    } else if (changes.dequeuedAt !== undefined) {
      names['#statusIndexSk'] = ExportTableAttribute.statusIndexSortKey;
      values[':active'] = ReconcilerIndexPartition.ACTIVE;
      values[':exportId'] = exportId;
      set.push('#activeIndexPk = :active', '#activeIndexSk = :dequeuedAt', '#statusIndexSk = :exportId');
    } else if (changes.lastPolledAt !== undefined) {
      delete names['#activeIndexPk'];
      set.push('#activeIndexSk = :lastPolledAt');
    } else {
      delete names['#activeIndexPk'];
      delete names['#activeIndexSk'];
    }

    const fromPlaceholders = from.map((status, index) => {
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
      const written = Attributes ?? {};
      // The links just written need no reading back.
      return changes.links === undefined
        ? this.#links.recordOf(written)
        : { ...itemToExportRecord(written), links: changes.links };
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const currentItem = await refusingValue(
        error,
        (item) => item,
        () => this.#getItem(spotId, exportId),
      );
      await this.#discardUnnamedPages(spotId, exportId, linkAttributes, currentItem);
      if (currentItem === undefined) throw new ExportNotFoundError(spotId, exportId, { cause: error });
      const current = await this.#links.recordOf(currentItem);
      throw new TransitionConflictError(
        { current, to, expectedFrom: from, expectedVersion },
        { cause: error },
      );
    }
  }

  /** Newest first. @throws InvalidPaginationTokenError */
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
        // A queue lists in its order; everything else newest first.
        ScanIndexForward: options.status === ExportStatus.QUEUED,
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
      items: await Promise.all(pageItems.map((item) => this.#links.recordOf(item))),
      ...(nextKey === undefined ? {} : { nextToken: encodePaginationToken(nextKey) }),
    };
  }

  /** Active exports whose lastPolledAt (else when they took the spot) is before `beforeIso`, oldest first. */
  findActiveNotPolledSince(beforeIso: string, limit: number): Promise<ExportRecord[]> {
    return this.#dueInReconcilerIndex(ReconcilerIndexPartition.ACTIVE, beforeIso, limit);
  }

  /** Queued exports of every spot, first queued first. */
  findQueued(limit: number): Promise<ExportRecord[]> {
    return this.#dueInReconcilerIndex(ReconcilerIndexPartition.QUEUED, END_OF_INDEX, limit);
  }

  /** COMPLETED exports whose archive is absent, or PENDING with a claim that lapsed before `beforeIso`. */
  findArchivePending(beforeIso: string, limit: number): Promise<ExportRecord[]> {
    return this.#dueInReconcilerIndex(ReconcilerIndexPartition.ARCHIVE_PENDING, beforeIso, limit);
  }

  async indexLegacyArchives(): Promise<number> {
    const { Item: cursor } = await this.#client.send(
      new GetCommand({ TableName: this.#tableName, Key: legacyArchiveIndexKey(), ConsistentRead: true }),
    );
    if (cursor?.done === true) return 0;
    const { Items = [], LastEvaluatedKey } = await this.#client.send(
      new ScanCommand({
        TableName: this.#tableName,
        FilterExpression:
          '#entityType = :export AND #status = :completed AND attribute_not_exists(#indexPk) AND ' +
          '(attribute_not_exists(#archive) OR #archive.#archiveStatus = :pending)',
        ExpressionAttributeNames: {
          '#entityType': ExportTableAttribute.entityType,
          '#status': 'status',
          '#indexPk': ExportTableAttribute.activeIndexPartitionKey,
          '#archive': 'archive',
          '#archiveStatus': 'status',
        },
        ExpressionAttributeValues: {
          ':export': EntityType.export,
          ':completed': ExportStatus.COMPLETED,
          ':pending': ArchiveStatus.PENDING,
        },
        Limit: LEGACY_SCAN_PAGE_ITEMS,
        ExclusiveStartKey: cursor?.lastEvaluatedKey as Record<string, unknown> | undefined,
      }),
    );
    let indexed = 0;
    for (const item of Items) {
      const record = itemToExportRecord(item);
      const index = reconcilerIndexOf(record);
      if (index === undefined) continue;
      try {
        await this.#client.send(
          new UpdateCommand({
            TableName: this.#tableName,
            Key: exportKey(record.spotId, record.exportId),
            UpdateExpression: 'SET #indexPk = :indexPk, #indexSk = :indexSk',
            ConditionExpression: '#status = :completed AND attribute_not_exists(#indexPk)',
            ExpressionAttributeNames: {
              '#status': 'status',
              '#indexPk': ExportTableAttribute.activeIndexPartitionKey,
              '#indexSk': ExportTableAttribute.activeIndexSortKey,
            },
            ExpressionAttributeValues: {
              ':completed': ExportStatus.COMPLETED,
              ':indexPk': index.activeIndexPk,
              ':indexSk': index.activeIndexSk,
            },
          }),
        );
        indexed += 1;
      } catch (error) {
        // Archived, or indexed, meanwhile.
        if (!isConditionalCheckFailed(error)) throw error;
      }
    }
    await this.#client.send(
      new PutCommand({
        TableName: this.#tableName,
        Item: {
          ...legacyArchiveIndexKey(),
          ...(LastEvaluatedKey === undefined
            ? { done: true }
            : { lastEvaluatedKey: LastEvaluatedKey, done: false }),
        },
      }),
    );
    return indexed;
  }

  async queuePosition(record: ExportRecord): Promise<number> {
    let ahead = 0;
    let startKey: Record<string, unknown> | undefined;
    // A count stops at 1 MB of keys read: page on.
    do {
      const { Count = 0, LastEvaluatedKey } = await this.#client.send(
        new QueryCommand({
          TableName: this.#tableName,
          IndexName: ExportTableIndex.byStatus,
          KeyConditionExpression: '#statusIndexPk = :queued AND #statusIndexSk < :mine',
          ExpressionAttributeNames: {
            '#statusIndexPk': ExportTableAttribute.statusIndexPartitionKey,
            '#statusIndexSk': ExportTableAttribute.statusIndexSortKey,
          },
          ExpressionAttributeValues: {
            ':queued': statusIndexPartitionKey(record.spotId, ExportStatus.QUEUED),
            ':mine': statusIndexSortKeyOf(record),
          },
          Select: 'COUNT',
          ExclusiveStartKey: startKey,
        }),
      );
      ahead += Count;
      startKey = LastEvaluatedKey;
    } while (startKey !== undefined);
    return ahead + 1;
  }

  async listSpots(limit: number): Promise<string[]> {
    const { Items = [] } = await this.#client.send(
      reconcilerIndexQuery(this.#tableName, {
        partition: ReconcilerIndexPartition.SPOTS,
        limit: clampLimit(limit),
      }),
    );
    return Items.map((item) => String(item.spotId));
  }

  /**
   * Says, once per spot and instance, that the spot has had an export, so the fleet lists it when
   * it is idle. Best effort: the export is recorded already, and a spot whose item a refusal kept
   * out is listed while it has an export running or queued, and written by the next creation.
   */
  async #markSpotSeen(spotId: string): Promise<void> {
    if (this.#seenSpots.has(spotId)) return;
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#tableName,
          Item: {
            ...spotSeenKey(spotId),
            [ExportTableAttribute.entityType]: EntityType.spotSeen,
            spotId,
            [ExportTableAttribute.activeIndexPartitionKey]: ReconcilerIndexPartition.SPOTS,
            [ExportTableAttribute.activeIndexSortKey]: spotId,
          },
        }),
      );
      this.#seenSpots.add(spotId);
    } catch {
      // Not recorded this time: the next creation for the spot writes it.
    }
  }

  async #dueInReconcilerIndex(
    partition: ReconcilerIndexPartition,
    beforeIso: string,
    limit: number,
  ): Promise<ExportRecord[]> {
    const { Items = [] } = await this.#client.send(
      reconcilerIndexQuery(this.#tableName, { partition, beforeIso, limit: clampLimit(limit) }),
    );
    return Promise.all(Items.map((item) => this.#links.recordOf(item)));
  }

  async #current(
    spotId: string,
    exportId: string,
    failure: Parameters<typeof refusingValue>[0],
  ): Promise<ExportRecord | undefined> {
    const item = await refusingValue(
      failure,
      (refused) => refused,
      () => this.#getItem(spotId, exportId),
    );
    return item === undefined ? undefined : this.#links.recordOf(item);
  }

  async #getItem(spotId: string, exportId: string): Promise<StoredItem | undefined> {
    const { Item } = await this.#client.send(
      new GetCommand({ TableName: this.#tableName, Key: exportKey(spotId, exportId), ConsistentRead: true }),
    );
    return Item;
  }

  /** Pages a refused write put down for nothing (the record names other pages, or none) are removed. */
  async #discardUnnamedPages(
    spotId: string,
    exportId: string,
    written: LinkItemAttributes | undefined,
    current: StoredItem | undefined,
  ): Promise<void> {
    if (written?.linkSetId === undefined || current?.[LinkAttribute.linkSetId] === written.linkSetId) return;
    // Tidying only: pages no record names are never read, so a failed delete just leaves them.
    await this.#links
      .discard(spotId, exportId, written.linkSetId, Number(written.set[LinkAttribute.linkPages]))
      .catch(() => undefined);
  }
}
