import { describe, expect, it } from 'vitest';
import {
  parseRfc3339Utc,
  validateCreateExportRequest,
} from '../../../../local/openweb-simulator/requestValidation';

describe('requestValidation', () => {
  it.each([
    ['2024-04-01T00:00:00Z', Date.UTC(2024, 3, 1)],
    ['2024-02-29T23:59:59Z', Date.UTC(2024, 1, 29, 23, 59, 59)],
    ['1999-12-31T23:59:59Z', Date.UTC(1999, 11, 31, 23, 59, 59)],
  ])('reads %s as a UTC instant', (value, expected) => {
    // Act
    const parsed = parseRfc3339Utc(value);

    // Assess
    expect(parsed).toBe(expected);
  });

  it.each([
    '2023-02-29T00:00:00Z',
    '2024-04-31T00:00:00Z',
    '2024-04-01T00:60:00Z',
    '2024-04-01T00:00:60Z',
    '2024-13-01T00:00:00Z',
    '2024-04-01T00:00:00',
    '2024-04-01T00:00Z',
    ' 2024-04-01T00:00:00Z',
    '2024-04-01T00:00:00Z\n',
  ])('rejects %j', (value) => {
    // Act
    const parsed = parseRfc3339Utc(value);

    // Assess
    expect(parsed).toBeUndefined();
  });

  it('defaults the delimiter and the file size', () => {
    // Act
    const validation = validateCreateExportRequest({ conversation_id: 'sp_a_post' }, 'sp_a');

    // Assess
    expect(validation).toEqual({
      ok: true,
      request: {
        variant: 'conversation',
        conversationId: 'sp_a_post',
        postId: 'post',
        delimiter: ',',
        maxRecordsInFile: 100_000,
      },
    });
  });

  it('explains what is wrong', () => {
    // Act
    const validation = validateCreateExportRequest({ from: '2024-04-01T00:00:00Z' }, 'sp_a');

    // Assess
    expect(validation).toEqual({ ok: false, message: expect.stringContaining('until') });
  });
});
