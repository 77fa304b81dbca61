import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ArchiveClaimRefusedError } from '../archive/errors';
import type { ArchiveClaim, ArchiveRecords, ArchiveRevisions } from '../archive/ports';
import { ArchiveStatus, CatalogStatus, type ExportArchive } from '../exports/record/ExportArchive';
import type { ExportRecord } from '../exports/record/ExportRecord';
import { ExportStatus } from '../exports/record/ExportStatus';
import { isConditionalCheckFailed } from './conditionalCheckFailure';
import { DynamoDbExportLinks } from './DynamoDbExportLinks';
import { withoutUndefined } from './exportItem';
import { reconcilerIndexQuery } from './reconcilerIndexQuery';
import { ExportTableAttribute } from './tableDefinition';
import { exportKey, ReconcilerIndexPartition } from './tableKeys';

export interface DynamoDbArchiveRecordsOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
}

/** The `archive` attribute of export items: claimed by one run at a time, finished only by it. */
export class DynamoDbArchiveRecords implements ArchiveRecords, ArchiveRevisions {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;
  readonly #links: DynamoDbExportLinks;

  constructor(options: DynamoDbArchiveRecordsOptions) {
    this.#client = options.client;
    this.#tableName = options.tableName;
    this.#links = new DynamoDbExportLinks(options);
  }

  async claim(spotId: string, exportId: string, claim: ArchiveClaim): Promise<ExportRecord> {
    const pending: ExportArchive = {
      status: ArchiveStatus.PENDING,
      files: [],
      runId: claim.runId,
      claimedAt: claim.now,
      claimedUntil: claim.claimedUntil,
    };
    const takeable = [
      'attribute_not_exists(#archive)',
      '(#archive.#archiveStatus = :pending AND (#archive.#runId = :runId OR #archive.#claimedUntil < :now))',
      ...(claim.force === true ? ['#archive.#archiveStatus IN (:archived, :failed)'] : []),
    ];
    return this.#write(spotId, exportId, pending, {
      // The reconciler looks at it again once this claim lapses.
      index: { partition: ReconcilerIndexPartition.ARCHIVE_PENDING, dueAt: claim.claimedUntil },
      condition: `attribute_exists(#pk) AND #status = :completed AND (${takeable.join(' OR ')})`,
      names: { '#status': 'status', '#claimedUntil': 'claimedUntil' },
      values: {
        ':completed': ExportStatus.COMPLETED,
        ':pending': ArchiveStatus.PENDING,
        ':runId': claim.runId,
        ':now': claim.now,
        ...(claim.force === true && { ':archived': ArchiveStatus.ARCHIVED, ':failed': ArchiveStatus.FAILED }),
      },
    });
  }

  async finish(
    spotId: string,
    exportId: string,
    runId: string,
    archive: ExportArchive,
  ): Promise<ExportRecord> {
    return this.#write(
      spotId,
      exportId,
      withoutUndefined({ ...archive, runId: undefined, claimedAt: undefined, claimedUntil: undefined }),
      {
        // A final archive leaves the reconciler's index, unless its partition is still to be
        // registered: a later archive run finds it there.
        index:
          archive.catalog === CatalogStatus.PENDING
            ? {
                partition: ReconcilerIndexPartition.CATALOG_PENDING,
                dueAt: archive.archivedAt ?? new Date().toISOString(),
              }
            : 'remove',
        condition:
          'attribute_exists(#pk) AND #archive.#archiveStatus = :pending AND #archive.#runId = :runId',
        names: {},
        values: { ':pending': ArchiveStatus.PENDING, ':runId': runId },
      },
    );
  }

  async revise(spotId: string, exportId: string, archive: ExportArchive): Promise<ExportRecord> {
    return this.#write(spotId, exportId, withoutUndefined({ ...archive }), {
      index: 'keep',
      condition: 'attribute_exists(#pk) AND #archive.#archiveStatus = :archived',
      names: {},
      values: { ':archived': ArchiveStatus.ARCHIVED },
    });
  }

  async lapseClaim(spotId: string, exportId: string, runId: string, at: string): Promise<boolean> {
    try {
      await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: exportKey(spotId, exportId),
          UpdateExpression: 'SET #archive.#claimedUntil = :at, #indexSk = :at',
          ConditionExpression: '#archive.#archiveStatus = :pending AND #archive.#runId = :runId',
          ExpressionAttributeNames: {
            '#archive': 'archive',
            '#archiveStatus': 'status',
            '#runId': 'runId',
            '#claimedUntil': 'claimedUntil',
            '#indexSk': ExportTableAttribute.activeIndexSortKey,
          },
          ExpressionAttributeValues: { ':pending': ArchiveStatus.PENDING, ':runId': runId, ':at': at },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }

  async findCatalogPending(limit: number): Promise<ExportRecord[]> {
    const { Items = [] } = await this.#client.send(
      reconcilerIndexQuery(this.#tableName, { partition: ReconcilerIndexPartition.CATALOG_PENDING, limit }),
    );
    return Promise.all(Items.map((item) => this.#links.recordOf(item)));
  }

  async recordCatalogRegistered(spotId: string, exportId: string): Promise<boolean> {
    try {
      await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: exportKey(spotId, exportId),
          UpdateExpression:
            'SET #archive.#catalog = :registered, #version = #version + :one ' +
            'REMOVE #archive.#catalogReason, #activeIndexPk, #activeIndexSk',
          ConditionExpression: '#archive.#archiveStatus = :archived AND #archive.#catalog = :pending',
          ExpressionAttributeNames: {
            '#archive': 'archive',
            '#archiveStatus': 'status',
            '#catalog': 'catalog',
            '#catalogReason': 'catalogReason',
            '#version': 'version',
            '#activeIndexPk': ExportTableAttribute.activeIndexPartitionKey,
            '#activeIndexSk': ExportTableAttribute.activeIndexSortKey,
          },
          ExpressionAttributeValues: {
            ':archived': ArchiveStatus.ARCHIVED,
            ':pending': CatalogStatus.PENDING,
            ':registered': CatalogStatus.REGISTERED,
            ':one': 1,
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }

  async #write(
    spotId: string,
    exportId: string,
    archive: ExportArchive,
    expression: {
      index: { partition: string; dueAt: string } | 'remove' | 'keep';
      condition: string;
      names: Record<string, string>;
      values: Record<string, unknown>;
    },
  ): Promise<ExportRecord> {
    const index =
      expression.index === 'keep'
        ? { update: '', set: '', values: {} }
        : expression.index === 'remove'
          ? { update: ' REMOVE #activeIndexPk, #activeIndexSk', set: '', values: {} }
          : {
              update: '',
              set: ', #activeIndexPk = :indexPartition, #activeIndexSk = :indexDueAt',
              values: {
                ':indexPartition': expression.index.partition,
                ':indexDueAt': expression.index.dueAt,
              },
            };
    try {
      const { Attributes } = await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: exportKey(spotId, exportId),
          UpdateExpression: `SET #archive = :archive, #version = #version + :one${index.set}${index.update}`,
          ConditionExpression: expression.condition,
          ExpressionAttributeNames: {
            '#pk': ExportTableAttribute.partitionKey,
            '#archive': 'archive',
            '#archiveStatus': 'status',
            // DynamoDB refuses a name the expressions do not use.
            ...(expression.condition.includes('#runId') && { '#runId': 'runId' }),
            '#version': 'version',
            ...(expression.index !== 'keep' && {
              '#activeIndexPk': ExportTableAttribute.activeIndexPartitionKey,
              '#activeIndexSk': ExportTableAttribute.activeIndexSortKey,
            }),
            ...expression.names,
          },
          ExpressionAttributeValues: {
            ':archive': archive,
            ':one': 1,
            ...index.values,
            ...expression.values,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return await this.#links.recordOf(Attributes ?? {});
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const { Item } = await this.#client.send(
        new GetCommand({
          TableName: this.#tableName,
          Key: exportKey(spotId, exportId),
          ConsistentRead: true,
        }),
      );
      throw new ArchiveClaimRefusedError(
        spotId,
        exportId,
        Item === undefined ? undefined : await this.#links.recordOf(Item),
        {
          cause: error,
        },
      );
    }
  }
}
