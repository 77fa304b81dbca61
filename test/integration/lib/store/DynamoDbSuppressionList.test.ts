import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbSuppressionList } from '../../../../lib/store/DynamoDbSuppressionList';
import { type DynaliteTable, startDynaliteTable } from '../../../support/dynalite';

let table: DynaliteTable;
let list: DynamoDbSuppressionList;

beforeAll(async () => {
  table = await startDynaliteTable();
  list = new DynamoDbSuppressionList({ client: table.documentClient, tableName: table.tableName });
});

afterAll(async () => {
  await table?.close();
});

describe('DynamoDbSuppressionList', () => {
  it("holds each suppressed user of a spot once, and no other spot's", async () => {
    // Act
    await list.suppress('sp_sup_1', 'u_1', 'er_1', '2026-11-01T00:00:00.000Z');
    await list.suppress('sp_sup_1', 'u_1', 'er_1', '2026-11-02T00:00:00.000Z');
    await list.suppress('sp_sup_1', 'u_2', 'er_2', '2026-11-01T00:00:00.000Z');
    await list.suppress('sp_sup_2', 'u_3', 'er_3', '2026-11-01T00:00:00.000Z');

    // Assess
    expect((await list.suppressedUsers('sp_sup_1')).sort()).toEqual(['u_1', 'u_2']);
    expect(await list.suppressedUsers('sp_sup_2')).toEqual(['u_3']);
    expect(await list.suppressedUsers('sp_none')).toEqual([]);
  });
});
