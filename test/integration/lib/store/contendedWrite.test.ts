import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredItem } from '../../../../lib/store/conditionalCheckFailure';
import { deleteIfItNames, writeUnlessHeld } from '../../../../lib/store/contendedWrite';
import type { TableKey } from '../../../../lib/store/tableKeys';
import { type DynaliteTable, startDynaliteTable } from '../../../support/dynalite';

let table: DynaliteTable;
let keyCounter = 0;

beforeAll(async () => {
  table = await startDynaliteTable();
});

afterAll(async () => {
  await table?.close();
});

function freshKey(): TableKey {
  keyCounter += 1;
  return { pk: `TEST#contended-${keyCounter}`, sk: 'HOLDER' };
}

class HeldError extends Error {
  constructor(readonly holder: string) {
    super(`held by ${holder}`);
  }
}

/** Takes `key` for `exportId` unless a holder whose lease has not run out (at `nowMs`) has it. */
function take(key: TableKey, exportId: string, nowMs: number, options: { maxAttempts?: number } = {}) {
  const attempts: number[] = [];
  const result = writeUnlessHeld<string, string>({
    write: async () => {
      attempts.push(attempts.length + 1);
      await table.documentClient.send(
        new PutCommand({
          TableName: table.tableName,
          Item: { ...key, exportId, leaseUntil: nowMs + 60_000 },
          ConditionExpression: 'attribute_not_exists(pk) OR leaseUntil < :now OR exportId = :exportId',
          ExpressionAttributeValues: { ':now': nowMs, ':exportId': exportId },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return exportId;
    },
    holderOf: (item: StoredItem) => (Number(item.leaseUntil) < nowMs ? undefined : String(item.exportId)),
    readHolder: async () => {
      const { Item } = await table.documentClient.send(
        new GetCommand({ TableName: table.tableName, Key: key }),
      );
      return Item === undefined ? undefined : String(Item.exportId);
    },
    refusal: (holder) => new HeldError(holder),
    exhausted: (lastHolder) => new Error(`gave up, last seen ${lastHolder ?? 'nobody'}`),
    maxAttempts: options.maxAttempts ?? 3,
  });
  return { result, attempts };
}

async function holderOf(key: TableKey): Promise<unknown> {
  const { Item } = await table.documentClient.send(new GetCommand({ TableName: table.tableName, Key: key }));
  return Item?.exportId;
}

describe('writeUnlessHeld', () => {
  it('writes when nobody holds the item, and again for the same holder', async () => {
    // Prepare
    const key = freshKey();

    // Act
    const first = take(key, 'ex_a', 1_000);
    await first.result;
    const again = take(key, 'ex_a', 2_000);

    // Assess
    await expect(again.result).resolves.toBe('ex_a');
    expect(await holderOf(key)).toBe('ex_a');
  });

  it("ends in the holder's refusal when a live holder has the item, naming it", async () => {
    // Prepare
    const key = freshKey();
    await take(key, 'ex_holder', 1_000).result;

    // Act
    const contender = take(key, 'ex_other', 2_000);

    // Assess
    await expect(contender.result).rejects.toEqual(new HeldError('ex_holder'));
    expect(contender.attempts).toEqual([1]);
    expect(await holderOf(key)).toBe('ex_holder');
  });

  it('sends the write again while the refusing holder no longer counts, and gives up after the attempts', async () => {
    // Prepare
    const key = freshKey();
    await take(key, 'ex_holder', 1_000).result;
    let writes = 0;

    // Act
    const result = writeUnlessHeld<void, string>({
      write: async () => {
        writes += 1;
        await table.documentClient.send(
          new PutCommand({
            TableName: table.tableName,
            Item: { ...key, exportId: 'ex_other' },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      },
      // The holder it meets is always gone by the time it is looked at.
      holderOf: () => undefined,
      readHolder: async () => undefined,
      refusal: (holder) => new HeldError(holder),
      exhausted: (lastHolder) => new Error(`gave up, last seen ${lastHolder ?? 'nobody'}`),
      maxAttempts: 3,
    });

    // Assess
    await expect(result).rejects.toThrow('gave up, last seen nobody');
    expect(writes).toBe(3);
    expect(await holderOf(key)).toBe('ex_holder');
  });

  it('passes on a failure that is no refusal, without retrying', async () => {
    // Prepare
    let writes = 0;

    // Act
    const result = writeUnlessHeld({
      write: async () => {
        writes += 1;
        throw new Error('table unavailable');
      },
      holderOf: () => 'x',
      readHolder: async () => 'x',
      refusal: () => new Error('refused'),
      exhausted: () => new Error('exhausted'),
      maxAttempts: 3,
    });

    // Assess
    await expect(result).rejects.toThrow('table unavailable');
    expect(writes).toBe(1);
  });
});

describe('deleteIfItNames', () => {
  it('deletes the item only while it names the export, saying whether it did', async () => {
    // Prepare
    const key = freshKey();
    await take(key, 'ex_holder', 1_000).result;

    // Act
    const byOther = await deleteIfItNames(table.documentClient, table.tableName, key, 'ex_other');
    const stillThere = await holderOf(key);
    const byHolder = await deleteIfItNames(table.documentClient, table.tableName, key, 'ex_holder');
    const twice = await deleteIfItNames(table.documentClient, table.tableName, key, 'ex_holder');

    // Assess
    expect(byOther).toBe(false);
    expect(stillThere).toBe('ex_holder');
    expect(byHolder).toBe(true);
    expect(twice).toBe(false);
    expect(await holderOf(key)).toBeUndefined();
  });
});
