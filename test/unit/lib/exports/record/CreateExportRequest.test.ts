import { describe, expect, it } from 'vitest';
import { toUpstreamRequest } from '../../../../../lib/exports/record/CreateExportRequest';

describe('toUpstreamRequest', () => {
  it("asks the upstream for a date range's bounds and file options, without our request's kind", () => {
    // Act / Assess
    expect(
      toUpstreamRequest({
        kind: 'dateRange',
        from: '2026-10-01T00:00:00Z',
        until: '2026-10-02T00:00:00Z',
        delimiter: ';',
        maxRecordsInFile: 500,
      }),
    ).toEqual({
      from: '2026-10-01T00:00:00Z',
      until: '2026-10-02T00:00:00Z',
      delimiter: ';',
      maxRecordsInFile: 500,
    });
  });

  it('asks for a conversation by its id, and leaves out options not given', () => {
    // Act / Assess
    expect(toUpstreamRequest({ kind: 'conversation', conversationId: 'sp_a_post1' })).toEqual({
      conversationId: 'sp_a_post1',
    });
  });
});
