import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { SuppressionList } from '../exports/erasure/ports';
import { isConditionalCheckFailed } from './conditionalCheckFailure';
import { ExportTableAttribute } from './tableDefinition';
import {
  EntityType,
  SUPPRESSED_USER_SORT_KEY_PREFIX,
  spotPartitionKey,
  suppressedUserKey,
} from './tableKeys';

export interface DynamoDbSuppressionListOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
}

/** A spot's suppressed users on the exports table: one item per user in the spot's partition, never removed. */
export class DynamoDbSuppressionList implements SuppressionList {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;

  constructor(options: DynamoDbSuppressionListOptions) {
    this.#client = options.client;
    this.#tableName = options.tableName;
  }

  async suppress(spotId: string, userId: string, erasureId: string, at: string): Promise<void> {
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#tableName,
          Item: {
            ...suppressedUserKey(spotId, userId),
            [ExportTableAttribute.entityType]: EntityType.suppressedUser,
            spotId,
            userId,
            erasureId,
            suppressedAt: at,
          },
          // The first suppression stands: a repeat writes nothing.
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': ExportTableAttribute.partitionKey },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
    }
  }

  async suppressedUsers(spotId: string): Promise<string[]> {
    const users: string[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const { Items = [], LastEvaluatedKey } = await this.#client.send(
        new QueryCommand({
          TableName: this.#tableName,
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
          ExpressionAttributeNames: {
            '#pk': ExportTableAttribute.partitionKey,
            '#sk': ExportTableAttribute.sortKey,
            '#userId': 'userId',
          },
          ExpressionAttributeValues: {
            ':pk': spotPartitionKey(spotId),
            ':prefix': SUPPRESSED_USER_SORT_KEY_PREFIX,
          },
          ProjectionExpression: '#userId',
          // A strongly consistent read: a user suppressed a moment ago is left out of this archive.
          ConsistentRead: true,
          ...(startKey !== undefined && { ExclusiveStartKey: startKey }),
        }),
      );
      for (const item of Items) users.push(String(item.userId));
      startKey = LastEvaluatedKey;
    } while (startKey !== undefined);
    return users;
  }
}
