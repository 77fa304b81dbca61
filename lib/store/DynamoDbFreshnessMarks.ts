import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { FreshnessMark, FreshnessMarks } from '../exports/fleet/ports';
import { isConditionalCheckFailed } from './conditionalCheckFailure';
import { EntityType, freshnessMarkKey } from './tableKeys';

export interface DynamoDbFreshnessMarksOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
}

/** The spots' freshness marks on the exports table: one small item per measured spot, written only on a change. */
export class DynamoDbFreshnessMarks implements FreshnessMarks {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;

  constructor(options: DynamoDbFreshnessMarksOptions) {
    this.#client = options.client;
    this.#tableName = options.tableName;
  }

  async get(spotId: string): Promise<FreshnessMark | undefined> {
    const { Item } = await this.#client.send(
      new GetCommand({ TableName: this.#tableName, Key: freshnessMarkKey(spotId), ConsistentRead: true }),
    );
    if (Item === undefined) return undefined;
    return {
      spotId,
      stale: Item.stale === true,
      since: String(Item.since),
      ...(typeof Item.watchedSince === 'string' && { watchedSince: Item.watchedSince }),
    };
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
          },
          ...(previousStale === undefined
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: 'stale = :previous',
                ExpressionAttributeValues: { ':previous': previousStale },
              }),
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }
}
