import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoDbTokenStore } from '../../../../lib/store/DynamoDbTokenStore';

const TABLE_NAME = 'exports-unit';
const NOW_MS = Date.UTC(2025, 0, 1);
const SPOT_ID = 'sp_unit';
const tokenKey = { pk: `SPOT#${SPOT_ID}`, sk: 'UPSTREAM_TOKEN' };

const documentClient = mockClient(DynamoDBDocumentClient);

function newTokenStore(): DynamoDbTokenStore {
  return new DynamoDbTokenStore({
    client: DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'local' })),
    tableName: TABLE_NAME,
    now: () => NOW_MS,
  });
}

function conditionalCheckFailed(): ConditionalCheckFailedException {
  return new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
}

beforeEach(() => {
  documentClient.reset();
});

describe('DynamoDbTokenStore', () => {
  it('reads the token strongly consistently', async () => {
    // Prepare
    documentClient
      .on(GetCommand)
      .resolves({ Item: { ...tokenKey, token: 'jwt', tokenExpiresAtMs: NOW_MS + 1 } });

    // Act
    const token = await newTokenStore().get(SPOT_ID);

    // Assess
    expect(token).toEqual({ token: 'jwt', expiresAt: NOW_MS + 1 });
    expect(documentClient).toHaveReceivedCommandWith(GetCommand, {
      TableName: TABLE_NAME,
      Key: tokenKey,
      ConsistentRead: true,
    });
  });

  it('reads an item holding only a lease as no token', async () => {
    // Prepare
    documentClient.on(GetCommand).resolves({ Item: { ...tokenKey, leaseUntilMs: NOW_MS + 5000 } });

    // Act
    const token = await newTokenStore().get(SPOT_ID);

    // Assess
    expect(token).toBeUndefined();
  });

  it('stores the token with a TTL in epoch seconds and releases the refresh lease', async () => {
    // Prepare
    documentClient.on(UpdateCommand).resolves({});

    // Act
    await newTokenStore().put(SPOT_ID, { token: 'jwt', expiresAt: NOW_MS + 1500 });

    // Assess
    expect(documentClient).toHaveReceivedCommandWith(UpdateCommand, {
      Key: tokenKey,
      UpdateExpression:
        'SET #entityType = :entityType, #spotId = :spotId, #token = :token, #tokenExpiresAtMs = :expiresAt, #ttl = :ttl REMOVE #leaseUntilMs',
      ExpressionAttributeValues: expect.objectContaining({ ':ttl': NOW_MS / 1000 + 2 }),
    });
  });

  it('invalidates only while the named token is the stored one, quietly otherwise', async () => {
    // Prepare
    documentClient.on(UpdateCommand).rejects(conditionalCheckFailed());

    // Act
    await newTokenStore().invalidate(SPOT_ID, 'jwt-old');

    // Assess
    expect(documentClient).toHaveReceivedCommandWith(UpdateCommand, {
      UpdateExpression: 'REMOVE #token, #tokenExpiresAtMs',
      ConditionExpression: '#token = :token',
      ExpressionAttributeValues: { ':token': 'jwt-old' },
    });
  });

  it('grants the lease when none is held or it lapsed', async () => {
    // Prepare
    documentClient.on(UpdateCommand).resolves({});

    // Act
    const granted = await newTokenStore().acquireRefreshLease(SPOT_ID, 5000);

    // Assess
    expect(granted).toBe(true);
    expect(documentClient).toHaveReceivedCommandWith(UpdateCommand, {
      ConditionExpression: 'attribute_not_exists(#leaseUntilMs) OR #leaseUntilMs <= :nowMs',
      ExpressionAttributeValues: expect.objectContaining({
        ':nowMs': NOW_MS,
        ':leaseUntilMs': NOW_MS + 5000,
      }),
    });
  });

  it('refuses the lease while another caller holds it', async () => {
    // Prepare
    documentClient.on(UpdateCommand).rejects(conditionalCheckFailed());

    // Act
    const granted = await newTokenStore().acquireRefreshLease(SPOT_ID, 5000);

    // Assess
    expect(granted).toBe(false);
  });

  it('passes other errors through', async () => {
    // Prepare
    documentClient.on(UpdateCommand).rejects(new Error('network down'));

    // Act / Assess
    await expect(newTokenStore().acquireRefreshLease(SPOT_ID, 5000)).rejects.toThrow('network down');
  });
});
