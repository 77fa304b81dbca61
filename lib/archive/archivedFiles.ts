import { ArchiveStatus } from '../exports/ExportArchive';
import type { ExportRecord } from '../exports/ExportRecord';
import { ExportStatus } from '../exports/ExportStatus';
import type { ArchiveStorage } from './ports';

/** An export's archive as the API shows it. */
export interface ArchiveView {
  /** PENDING, ARCHIVED or FAILED; NONE for an export that did not complete (nothing to archive). */
  status: ArchiveStatus | 'NONE';
  archivedAt?: string;
  reason?: string;
}

export interface ArchivedFileView {
  name: string;
  key: string;
  bytes: number;
  sha256: string;
  rows: number;
  /** Fetches the stored `.csv.gz` with no header until `urlExpiresAt`. */
  url: string;
  urlExpiresAt: string;
}

export interface ArchivedFilesView {
  archive: ArchiveView;
  items: ArchivedFileView[];
}

export interface ArchivedFilesDependencies {
  getExport(spotId: string, exportId: string): Promise<ExportRecord | undefined>;
  /** Undefined where nothing is archived: every export then shows no files. */
  storage: ArchiveStorage | undefined;
  urlExpirySeconds: number;
  now: () => number;
}

const MS_PER_SECOND = 1000;

/**
 * The archived files of one export with a download URL each. Only an ARCHIVED export lists
 * files: a partial archive is never shown. Undefined for an unknown export (or another spot's).
 */
export async function archivedFiles(
  deps: ArchivedFilesDependencies,
  spotId: string,
  exportId: string,
): Promise<ArchivedFilesView | undefined> {
  const record = await deps.getExport(spotId, exportId);
  if (record === undefined) return undefined;
  const archive = archiveView(record, deps.storage !== undefined);
  if (archive.status !== ArchiveStatus.ARCHIVED || deps.storage === undefined) return { archive, items: [] };
  const { storage } = deps;
  const urlExpiresAt = new Date(deps.now() + deps.urlExpirySeconds * MS_PER_SECOND).toISOString();
  const items = await Promise.all(
    (record.archive?.files ?? []).map(async (file) => ({
      name: file.name,
      key: file.key,
      bytes: file.bytes,
      sha256: file.sha256,
      rows: file.rows,
      url: await storage.downloadUrl(file.key, deps.urlExpirySeconds),
      urlExpiresAt,
    })),
  );
  return { archive, items };
}

/** What the export view and `/files` say about the archive. */
export function archiveView(record: ExportRecord, archiving = true): ArchiveView {
  const { archive } = record;
  if (archive !== undefined) {
    return {
      status: archive.status,
      ...(archive.archivedAt !== undefined && { archivedAt: archive.archivedAt }),
      ...(archive.reason !== undefined && { reason: archive.reason }),
    };
  }
  if (record.status === ExportStatus.COMPLETED) {
    return archiving
      ? { status: ArchiveStatus.PENDING }
      : { status: 'NONE', reason: 'archiving is not configured' };
  }
  if (record.status === ExportStatus.FAILED || record.status === ExportStatus.ABORTED) {
    return { status: 'NONE', reason: `the export ended ${record.status}: there are no files to archive` };
  }
  return { status: ArchiveStatus.PENDING };
}
