import { describe, expect, it } from 'vitest';
import { ExportStatus } from '../../../../lib/exports/record/ExportStatus';
import { clampLimit, exportListing, MAX_LIST_EXPORTS_LIMIT } from '../../../../lib/store/exportListing';
import { ExportTableIndex } from '../../../../lib/store/tableDefinition';

describe('exportListing', () => {
  it("queries a spot's exports on the table, and only its own", () => {
    // Act
    const { query, tokenShape } = exportListing('sp_a', undefined);

    // Assess
    expect(query.IndexName).toBeUndefined();
    expect(query.ExpressionAttributeValues).toEqual({ ':pk': 'SPOT#sp_a', ':exportPrefix': 'EXPORT#' });
    expect(Object.values(tokenShape.fixedValues)).toEqual(['SPOT#sp_a']);
  });

  it('queries one status of a spot on the status index, its page tokens pinned to that partition', () => {
    // Act
    const { query, tokenShape } = exportListing('sp_a', ExportStatus.FAILED);

    // Assess
    expect(query.IndexName).toBe(ExportTableIndex.byStatus);
    expect(query.ExpressionAttributeValues).toEqual({ ':statusIndexPk': 'SPOT#sp_a#STATUS#FAILED' });
    expect(Object.values(tokenShape.fixedValues)).toEqual(['SPOT#sp_a', 'SPOT#sp_a#STATUS#FAILED']);
    expect(tokenShape.attributeNames).toHaveLength(4);
  });
});

describe('clampLimit', () => {
  it('keeps a page between 1 and the maximum, in whole items', () => {
    // Act / Assess
    expect([0, -5, 1, 2.9, 50, 1000, Number.NaN].map((limit) => clampLimit(limit))).toEqual([
      1,
      1,
      1,
      2,
      50,
      MAX_LIST_EXPORTS_LIMIT,
      1,
    ]);
    expect(clampLimit(30, 25)).toBe(25);
  });
});
