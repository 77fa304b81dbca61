import { describe, expect, it } from 'vitest';
import { CatalogPartitionError } from '../../../../lib/glue/errors';

const PARTITION = { databaseName: 'exports', tableName: 'comment_rows', values: ['sp_abc', '2026-11-28'] };

function named(name: string): Error {
  return Object.assign(new Error(name), { name });
}

describe('CatalogPartitionError', () => {
  it('names the partition, the table and the cause, and keeps the partition', () => {
    // Act
    const error = new CatalogPartitionError(PARTITION, { cause: named('AccessDeniedException') });

    // Assess
    expect(error.partition).toEqual(PARTITION);
    expect(error.message).toBe(
      'Glue did not register partition (sp_abc, 2026-11-28) of exports.comment_rows: AccessDeniedException',
    );
  });

  it('is passing trouble when Glue throttles or the cause is transient, lasting when the deployment needs a fix', () => {
    // Act
    const throttled = new CatalogPartitionError(PARTITION, { cause: named('ThrottlingException') });
    const denied = new CatalogPartitionError(PARTITION, { cause: named('AccessDeniedException') });
    const missing = new CatalogPartitionError(PARTITION, { cause: named('EntityNotFoundException') });
    const unknown = new CatalogPartitionError(PARTITION, { cause: 'not an error' });

    // Assess
    expect(throttled.retryable).toBe(true);
    expect(denied.retryable).toBe(false);
    expect(missing.retryable).toBe(false);
    expect(unknown.retryable).toBe(false);
    expect(unknown.message).toContain('unknown error');
  });
});
