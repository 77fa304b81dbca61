import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { InvalidPaginationTokenError } from '../../../../lib/exports/record/errors';
import { nextTableKeyToken } from '../../../../lib/store/paginationToken';
import { spotItemsPage } from '../../../../lib/store/spotItemsPage';

const TABLE_NAME = 'exports-unit';
const documentClient = mockClient(DynamoDBDocumentClient);
const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));

describe('spotItemsPage', () => {
  beforeEach(() => {
    documentClient.reset();
  });

  it("asks one kind of item of one spot's partition, newest first when asked, and answers the next page's token", async () => {
    // Prepare
    const last = { pk: 'SPOT#sp_a', sk: 'ERASURE#er_2' };
    documentClient
      .on(QueryCommand)
      .resolves({ Items: [{ ...last, status: 'RUNNING' }], LastEvaluatedKey: last });

    // Act
    const page = await spotItemsPage(client, TABLE_NAME, {
      spotId: 'sp_a',
      sortKeyPrefix: 'ERASURE#',
      limit: 1,
      newestFirst: true,
    });

    // Assess
    expect(page).toEqual({ items: [{ ...last, status: 'RUNNING' }], ...nextTableKeyToken(last) });
    expect(documentClient).toHaveReceivedCommandWith(QueryCommand, {
      TableName: TABLE_NAME,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeValues: { ':pk': 'SPOT#sp_a', ':prefix': 'ERASURE#' },
      ScanIndexForward: false,
      Limit: 1,
    });
  });

  it('starts after the key its own token names, oldest first by default, and answers no token on the last page', async () => {
    // Prepare
    const { nextToken } = nextTableKeyToken({ pk: 'SPOT#sp_a', sk: 'ERASURE#er_2' });
    documentClient.on(QueryCommand).resolves({ Items: [] });

    // Act
    const page = await spotItemsPage(client, TABLE_NAME, {
      spotId: 'sp_a',
      sortKeyPrefix: 'ERASURE#',
      limit: 10,
      ...(nextToken !== undefined && { nextToken }),
    });

    // Assess
    expect(page).toEqual({ items: [] });
    expect(documentClient).toHaveReceivedCommandWith(QueryCommand, {
      ScanIndexForward: true,
      ExclusiveStartKey: { pk: 'SPOT#sp_a', sk: 'ERASURE#er_2' },
    });
  });

  it('refuses a token of another spot or of another kind of item, without asking the table', async () => {
    const otherSpot = nextTableKeyToken({ pk: 'SPOT#sp_b', sk: 'ERASURE#er_2' }).nextToken ?? '';
    const otherKind = nextTableKeyToken({ pk: 'SPOT#sp_a', sk: 'BACKFILL#bf_2' }).nextToken ?? '';

    for (const nextToken of [otherSpot, otherKind]) {
      await expect(
        spotItemsPage(client, TABLE_NAME, {
          spotId: 'sp_a',
          sortKeyPrefix: 'ERASURE#',
          limit: 10,
          nextToken,
        }),
      ).rejects.toBeInstanceOf(InvalidPaginationTokenError);
    }
    expect(documentClient.commandCalls(QueryCommand)).toHaveLength(0);
  });
});
