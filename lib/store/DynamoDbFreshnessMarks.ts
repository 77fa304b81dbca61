import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { FreshnessMark, FreshnessMarks } from '../exports/fleet/ports';
import { isConditionalCheckFailed } from './conditionalCheckFailure';
import { reconcilerIndexQuery } from './reconcilerIndexQuery';
import { ExportTableAttribute } from './tableDefinition';
import { EntityType, freshnessMarkKey, ReconcilerIndexPartition } from './tableKeys';

/** Marks looked up at once when finding the unmarked spots. */
const CONCURRENT_READS = 25;

export interface DynamoDbFreshnessMarksOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
}

/**
 * The spots' freshness marks on the exports table: one small item per measured spot, in the
 * reconciler's index (partition FRESHNESS_DUE, by `checkAt`) while it has a next measurement.
 * Which spots have a mark is remembered for the life of the instance: marks are never deleted, so
 * a warm reconciler asks the table only about spots it has not seen marked.
 */
export class DynamoDbFreshnessMarks implements FreshnessMarks {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;
  readonly #marked = new Set<string>();

  constructor(options: DynamoDbFreshnessMarksOptions) {
    this.#client = options.client;
    this.#tableName = options.tableName;
  }

  async get(spotId: string): Promise<FreshnessMark | undefined> {
    const { Item } = await this.#client.send(
      new GetCommand({ TableName: this.#tableName, Key: freshnessMarkKey(spotId), ConsistentRead: true }),
    );
    return Item === undefined ? undefined : markOf(Item);
  }

  async change(mark: FreshnessMark, previousStale: boolean | undefined): Promise<boolean> {
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#tableName,
          Item: {
            ...freshnessMarkKey(mark.spotId),
            entityType: EntityType.freshnessMark,
            spotId: mark.spotId,
            stale: mark.stale,
            since: mark.since,
            ...(mark.watchedSince !== undefined && { watchedSince: mark.watchedSince }),
            ...(mark.coveredUntil !== undefined && { coveredUntil: mark.coveredUntil }),
            ...(mark.checkAt !== undefined && {
              checkAt: mark.checkAt,
              [ExportTableAttribute.activeIndexPartitionKey]: ReconcilerIndexPartition.FRESHNESS_DUE,
              [ExportTableAttribute.activeIndexSortKey]: mark.checkAt,
            }),
          },
          ...(previousStale === undefined
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: 'stale = :previous',
                ExpressionAttributeValues: { ':previous': previousStale },
              }),
        }),
      );
      this.#marked.add(mark.spotId);
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) {
        this.#marked.add(mark.spotId);
        return false;
      }
      throw error;
    }
  }

  async due(beforeIso: string, limit: number): Promise<FreshnessMark[]> {
    const { Items = [] } = await this.#client.send(
      reconcilerIndexQuery(this.#tableName, {
        partition: ReconcilerIndexPartition.FRESHNESS_DUE,
        beforeIso,
        limit,
      }),
    );
    const marks = Items.map(markOf);
    for (const mark of marks) this.#marked.add(mark.spotId);
    return marks;
  }

  async unmarked(spotIds: readonly string[]): Promise<string[]> {
    const unknown = [...new Set(spotIds)].filter((spotId) => !this.#marked.has(spotId));
    const unmarked = new Set<string>();
    // Single-item reads, a few at a time (the functions are granted no batch reads): once per
    // spot for the life of the instance. A read that fails leaves its spot to the next run.
    for (let start = 0; start < unknown.length; start += CONCURRENT_READS) {
      await Promise.all(
        unknown.slice(start, start + CONCURRENT_READS).map(async (spotId) => {
          try {
            const { Item } = await this.#client.send(
              new GetCommand({
                TableName: this.#tableName,
                Key: freshnessMarkKey(spotId),
                ConsistentRead: true,
                ProjectionExpression: 'spotId',
              }),
            );
            if (Item === undefined) unmarked.add(spotId);
            else this.#marked.add(spotId);
          } catch {
            // Asked again by the next run.
          }
        }),
      );
    }
    return unknown.filter((spotId) => unmarked.has(spotId));
  }
}

function markOf(item: Record<string, unknown>): FreshnessMark {
  return {
    spotId: String(item.spotId),
    stale: item.stale === true,
    since: String(item.since),
    ...(typeof item.watchedSince === 'string' && { watchedSince: item.watchedSince }),
    ...(item.coveredUntil !== undefined && {
      coveredUntil: item.coveredUntil === null ? null : String(item.coveredUntil),
    }),
    ...(typeof item.checkAt === 'string' && { checkAt: item.checkAt }),
  };
}
