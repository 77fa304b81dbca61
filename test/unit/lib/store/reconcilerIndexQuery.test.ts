import { describe, expect, it } from 'vitest';
import { reconcilerIndexQuery } from '../../../../lib/store/reconcilerIndexQuery';
import { ExportTableAttribute, ExportTableIndex } from '../../../../lib/store/tableDefinition';
import { ReconcilerIndexPartition } from '../../../../lib/store/tableKeys';

describe('reconcilerIndexQuery', () => {
  it('asks one partition of the reconciler index for the items due before an instant, oldest first', () => {
    const { input } = reconcilerIndexQuery('exports', {
      partition: ReconcilerIndexPartition.WINDOW_DUE,
      beforeIso: '2026-11-28T10:00:00.000Z',
      limit: 25,
    });
    expect(input).toEqual({
      TableName: 'exports',
      IndexName: ExportTableIndex.activeByLastPolled,
      KeyConditionExpression: '#indexPk = :partition AND #indexSk < :before',
      ExpressionAttributeNames: {
        '#indexPk': ExportTableAttribute.activeIndexPartitionKey,
        '#indexSk': ExportTableAttribute.activeIndexSortKey,
      },
      ExpressionAttributeValues: {
        ':partition': ReconcilerIndexPartition.WINDOW_DUE,
        ':before': '2026-11-28T10:00:00.000Z',
      },
      ScanIndexForward: true,
      Limit: 25,
    });
  });

  it('asks the whole partition when no instant is given, naming no sort key', () => {
    const { input } = reconcilerIndexQuery('exports', {
      partition: ReconcilerIndexPartition.SPOTS,
      limit: 10,
    });
    expect(input.KeyConditionExpression).toBe('#indexPk = :partition');
    expect(input.ExpressionAttributeNames).toEqual({
      '#indexPk': ExportTableAttribute.activeIndexPartitionKey,
    });
    expect(input.ExpressionAttributeValues).toEqual({ ':partition': ReconcilerIndexPartition.SPOTS });
  });

  it('asks for at least one item', () => {
    expect(
      reconcilerIndexQuery('exports', { partition: ReconcilerIndexPartition.ACTIVE, limit: 0 }).input.Limit,
    ).toBe(1);
    expect(
      reconcilerIndexQuery('exports', { partition: ReconcilerIndexPartition.ACTIVE, limit: 2.7 }).input.Limit,
    ).toBe(2);
  });
});
