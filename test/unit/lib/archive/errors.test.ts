import { describe, expect, it } from 'vitest';
import {
  ArchiveClaimRefusedError,
  ArchivedObjectMissingError,
  ArchiveError,
  ArchiveReadError,
  ArchiveRejectedError,
  ArchiveRetryableError,
  CorruptArchiveError,
  TableRowCountMismatchError,
} from '../../../../lib/archive/errors';
import { WorkflowErrorNames } from '../../../../lib/exports/workflow/workflowContract';
import { exportRecordFixture } from '../../../support/exportRecordFixtures';

describe('archive errors', () => {
  it('a corrupt zip and a row count mismatch are rejections: trying again will not help', () => {
    // Act
    const corrupt = new CorruptArchiveError('no central directory');
    const mismatch = new TableRowCountMismatchError('3 rows in the CSV, 2 in Parquet');

    // Assess
    for (const error of [corrupt, mismatch]) {
      expect(error).toBeInstanceOf(ArchiveRejectedError);
      expect(error.retryable).toBe(false);
    }
    expect([corrupt.name, mismatch.name]).toEqual(['CorruptArchive', 'TableRowCountMismatch']);
  });

  it("a passing failure carries the name the workflow's Retry keys on, logged at WARN", () => {
    // Act
    const error = new ArchiveRetryableError('the link answered 503');

    // Assess
    expect(error).toBeInstanceOf(ArchiveError);
    expect(error.name).toBe(WorkflowErrorNames.ARCHIVE_RETRY);
    expect(error.logLevel).toBe('warn');
  });

  it('a refused claim keeps the record it read and says how the archive stands', () => {
    // Prepare
    const current = exportRecordFixture({ status: 'COMPLETED' });

    // Act
    const held = new ArchiveClaimRefusedError(current.spotId, current.exportId, current);
    const missing = new ArchiveClaimRefusedError('sp_abc', 'ex_gone', undefined);

    // Assess
    expect(held.current).toBe(current);
    expect(held.message).toContain('or the export is COMPLETED');
    expect(missing.current).toBeUndefined();
    expect(missing.message).toBe('Export ex_gone of spot sp_abc does not exist');
  });

  it('a missing object and a failed read name the key', () => {
    // Act
    const missing = new ArchivedObjectMissingError('raw/sp_abc/ex_1.csv.gz');
    const unreadable = new ArchiveReadError('raw/sp_abc/ex_1.csv.gz', 'AccessDenied');

    // Assess
    expect(missing.key).toBe('raw/sp_abc/ex_1.csv.gz');
    expect(unreadable.key).toBe('raw/sp_abc/ex_1.csv.gz');
    expect(unreadable.message).toBe('Reading raw/sp_abc/ex_1.csv.gz from the archive failed: AccessDenied');
    expect(missing.problem).toBeUndefined();
  });
});
