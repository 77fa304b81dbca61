import { describe, expect, it } from 'vitest';
import { toCreateExportBody } from '../../../../lib/openweb/createExportBody';

describe('toCreateExportBody', () => {
  it('writes a date range in the snake_case the upstream reads, with only the options given', () => {
    // Act
    const plain = toCreateExportBody({ from: '2026-10-01T00:00:00Z', until: '2026-10-02T00:00:00Z' });
    const withOptions = toCreateExportBody({
      from: '2026-10-01T00:00:00Z',
      until: '2026-10-02T00:00:00Z',
      delimiter: ';',
      maxRecordsInFile: 5000,
    });

    // Assess
    expect(plain).toEqual({ from: '2026-10-01T00:00:00Z', until: '2026-10-02T00:00:00Z' });
    expect(withOptions).toEqual({
      from: '2026-10-01T00:00:00Z',
      until: '2026-10-02T00:00:00Z',
      delimiter: ';',
      max_records_in_file: 5000,
    });
  });

  it('writes a conversation export with its conversation id and no range', () => {
    // Act / Assess
    expect(toCreateExportBody({ conversationId: 'conv_1', delimiter: '|' })).toEqual({
      conversation_id: 'conv_1',
      delimiter: '|',
    });
  });
});
