import { describe, expect, it } from 'vitest';
import {
  ArchiveStatus,
  archiveFileCount,
  archiveFilesInline,
  type ExportArchive,
} from '../../../../../lib/exports/record/ExportArchive';

const file = (n: number) => ({
  name: `comments-${n}.csv`,
  key: `exports/spot=sp_a/date=2026-10-01/ex_1/${n}.csv.gz`,
  bytes: 10,
  sha256: 'ab',
  rows: 1,
  sourceLink: 1,
});

describe('archiveFileCount and archiveFilesInline', () => {
  it('count the files the manifest lists when the record holds only the first ones', () => {
    // Prepare
    const partial: ExportArchive = {
      status: ArchiveStatus.ARCHIVED,
      files: [file(1), file(2)],
      fileCount: 500,
      manifestKey: 'm',
    };
    const whole: ExportArchive = { status: ArchiveStatus.ARCHIVED, files: [file(1), file(2)], fileCount: 2 };
    const older: ExportArchive = { status: ArchiveStatus.ARCHIVED, files: [file(1), file(2), file(3)] };

    // Act / Assess
    expect([partial, whole, older].map(archiveFileCount)).toEqual([500, 2, 3]);
    expect([partial, whole, older].map(archiveFilesInline)).toEqual([false, true, true]);
    expect(archiveFileCount(undefined)).toBe(0);
  });
});
