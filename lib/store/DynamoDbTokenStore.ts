import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TokenStore, UpstreamToken } from '../openweb/TokenStore';
import { isConditionalCheckFailed } from './conditionalCheckFailure';
import { ExportTableAttribute } from './tableDefinition';
import { EntityType, upstreamTokenKey } from './tableKeys';

export interface DynamoDbTokenStoreOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Epoch milliseconds; token validity and leases are judged by it. */
  now?: () => number;
}

const MS_PER_SECOND = 1000;

/**
 * One item per spot holding the shared upstream token and the refresh lease,
 * so the whole fleet authenticates once per spot per token lifetime.
 */
export class DynamoDbTokenStore implements TokenStore {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;
  readonly #now: () => number;

  constructor(options: DynamoDbTokenStoreOptions) {
    this.#client = options.client;
    this.#tableName = options.tableName;
    this.#now = options.now ?? Date.now;
  }

  async get(spotId: string): Promise<UpstreamToken | undefined> {
    // Strongly consistent: containers waiting on another's refresh must see its token at once.
    const { Item } = await this.#client.send(
      new GetCommand({ TableName: this.#tableName, Key: upstreamTokenKey(spotId), ConsistentRead: true }),
    );
    const token = Item?.token;
    const expiresAt = Item?.tokenExpiresAtMs;
    if (typeof token !== 'string' || typeof expiresAt !== 'number' || expiresAt <= this.#now())
      return undefined;
    return { token, expiresAt };
  }

  async put(spotId: string, token: UpstreamToken): Promise<void> {
    // The refresh is done: release the lease so a later rejection need not wait for it to lapse.
    await this.#client.send(
      new UpdateCommand({
        TableName: this.#tableName,
        Key: upstreamTokenKey(spotId),
        UpdateExpression:
          'SET #entityType = :entityType, #spotId = :spotId, #token = :token, #tokenExpiresAtMs = :expiresAt, #ttl = :ttl REMOVE #leaseUntilMs',
        ExpressionAttributeNames: {
          '#entityType': ExportTableAttribute.entityType,
          '#spotId': 'spotId',
          '#token': 'token',
          '#tokenExpiresAtMs': 'tokenExpiresAtMs',
          '#ttl': ExportTableAttribute.timeToLive,
          '#leaseUntilMs': 'leaseUntilMs',
        },
        ExpressionAttributeValues: {
          ':entityType': EntityType.upstreamToken,
          ':spotId': spotId,
          ':token': token.token,
          ':expiresAt': token.expiresAt,
          ':ttl': Math.ceil(token.expiresAt / MS_PER_SECOND),
        },
      }),
    );
  }

  async releaseRefreshLease(spotId: string): Promise<void> {
    try {
      await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: upstreamTokenKey(spotId),
          UpdateExpression: 'REMOVE #leaseUntilMs',
          // An update of a missing item would create a bare one.
          ConditionExpression: 'attribute_exists(#leaseUntilMs)',
          ExpressionAttributeNames: { '#leaseUntilMs': 'leaseUntilMs' },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
    }
  }

  async invalidate(spotId: string, token: string): Promise<void> {
    try {
      await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: upstreamTokenKey(spotId),
          UpdateExpression: 'REMOVE #token, #tokenExpiresAtMs',
          ConditionExpression: '#token = :token',
          ExpressionAttributeNames: { '#token': 'token', '#tokenExpiresAtMs': 'tokenExpiresAtMs' },
          ExpressionAttributeValues: { ':token': token },
        }),
      );
    } catch (error) {
      // Another container already replaced or removed it: its newer token stays.
      if (!isConditionalCheckFailed(error)) throw error;
    }
  }

  async acquireRefreshLease(spotId: string, leaseMs: number): Promise<boolean> {
    const nowMs = this.#now();
    const leaseUntilMs = nowMs + leaseMs;
    try {
      await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: upstreamTokenKey(spotId),
          UpdateExpression:
            'SET #entityType = :entityType, #spotId = :spotId, #leaseUntilMs = :leaseUntilMs, #ttl = if_not_exists(#ttl, :leaseTtl)',
          ConditionExpression: 'attribute_not_exists(#leaseUntilMs) OR #leaseUntilMs <= :nowMs',
          ExpressionAttributeNames: {
            '#entityType': ExportTableAttribute.entityType,
            '#spotId': 'spotId',
            '#leaseUntilMs': 'leaseUntilMs',
            '#ttl': ExportTableAttribute.timeToLive,
          },
          ExpressionAttributeValues: {
            ':entityType': EntityType.upstreamToken,
            ':spotId': spotId,
            ':leaseUntilMs': leaseUntilMs,
            ':nowMs': nowMs,
            ':leaseTtl': Math.ceil(leaseUntilMs / MS_PER_SECOND),
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
