import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { epochSeconds, getLive, ifLive, liveExpiry } from '../../../../lib/store/expiringItem';

const NOW_MS = Date.parse('2026-11-01T12:00:00.999Z');
const NOW_SECONDS = Math.floor(NOW_MS / 1000);

describe('epochSeconds', () => {
  it('rounds down to the whole second', () => {
    // Act / Assess
    expect(epochSeconds(NOW_MS)).toBe(NOW_SECONDS);
  });
});

describe('liveExpiry and ifLive', () => {
  it('read an item as absent from the second it expires, though the table has not deleted it yet', () => {
    // Prepare
    const item = (expiresAtEpochSeconds: number | undefined) => ({ pk: 'LOCK#sp_a', expiresAtEpochSeconds });

    // Act / Assess
    expect(liveExpiry(item(NOW_SECONDS + 1), NOW_MS)).toBe(NOW_SECONDS + 1);
    expect(liveExpiry(item(NOW_SECONDS), NOW_MS)).toBeUndefined();
    expect(liveExpiry(item(undefined), NOW_MS)).toBeUndefined();
    expect(ifLive(item(NOW_SECONDS + 60), NOW_MS, (stored, expiry) => `${stored.pk} until ${expiry}`)).toBe(
      `LOCK#sp_a until ${NOW_SECONDS + 60}`,
    );
    expect(ifLive(item(NOW_SECONDS - 60), NOW_MS, () => 'live')).toBeUndefined();
  });
});

describe('getLive', () => {
  it('reads the item consistently and answers it only while it lives', async () => {
    // Prepare
    const dynamo = mockClient(DynamoDBDocumentClient);
    const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
    dynamo
      .on(GetCommand)
      .resolvesOnce({ Item: { pk: 'a', expiresAtEpochSeconds: NOW_SECONDS + 5 } })
      .resolvesOnce({ Item: { pk: 'a', expiresAtEpochSeconds: NOW_SECONDS - 5 } })
      .resolvesOnce({});
    const key = { pk: 'a', sk: 'b' };
    const read = () =>
      getLive(
        client,
        'exports',
        key,
        () => NOW_MS,
        (item) => item.pk,
      );

    // Act
    const answers = [await read(), await read(), await read()];

    // Assess
    expect(answers).toEqual(['a', undefined, undefined]);
    expect(dynamo).toHaveReceivedCommandWith(GetCommand, {
      TableName: 'exports',
      Key: key,
      ConsistentRead: true,
    });
    dynamo.restore();
  });
});
