import {
  type ArchivedFile,
  ArchiveStatus,
  archiveFilesInline,
  type ExportArchive,
} from '../exports/record/ExportArchive';
import type { ExportRecord } from '../exports/record/ExportRecord';
import { ExportStatus } from '../exports/record/ExportStatus';
import type { ExportStore } from '../exports/record/ExportStore';
import type { ArchivedFilesView, ArchiveFilesState, ArchiveView } from './archivedFilesSchema';
import { ArchivedObjectMissingError } from './errors';
import type { ArchiveReader, ArchiveSettings } from './ports';

/** What `/files` says of an archive whose files are gone. */
export const ARCHIVE_EXPIRED = 'EXPIRED';

/** Files per `/files` page: a page with its URLs stays far below a Lambda response's 6 MB. */
export const FILES_PAGE_SIZE = 1000;
/** A `/files` page token: the position of the page's first file. */
export const FILES_NEXT_TOKEN_PATTERN = /^[1-9]\d{0,8}$/;

/** A `nextToken` that is not one `/files` issued for this archive. */
export class InvalidFilesTokenError extends Error {
  override name = 'InvalidFilesTokenError';
}

/** What `/files` reads: the record and the bucket. */
export interface ArchivedFilesDependencies {
  store: Pick<ExportStore, 'getExport'>;
  /** Undefined where nothing is archived (the local runtime's LOCAL_ARCHIVE=off): every export then shows no files. */
  archiveReader: ArchiveReader | undefined;
  archiveSettings: Pick<ArchiveSettings, 'urlExpirySeconds' | 'expireAfterDays'>;
  now: () => number;
}

const MS_PER_SECOND = 1000;
const MS_PER_DAY = 24 * 60 * 60 * MS_PER_SECOND;

/**
 * The archived files of one export with a download URL each, FILES_PAGE_SIZE at a time from
 * `nextToken`. Only an ARCHIVED export lists files: a partial archive is never shown. The files
 * come from the record when it holds them all, from the manifest otherwise. An archive the
 * lifecycle rule may have deleted, or whose manifest is gone, is EXPIRED with no files: no URL
 * is minted for an object that is not there. Undefined for an unknown export (or another spot's).
 * @throws InvalidFilesTokenError
 */
export async function archivedFiles(
  deps: ArchivedFilesDependencies,
  spotId: string,
  exportId: string,
  nextToken?: string,
): Promise<ArchivedFilesView | undefined> {
  const record = await deps.store.getExport(spotId, exportId);
  if (record === undefined) return undefined;
  const archive = archiveView(record, deps.archiveReader !== undefined);
  const start = nextToken === undefined ? 0 : Number(nextToken);
  if (
    archive.status !== ArchiveStatus.ARCHIVED ||
    deps.archiveReader === undefined ||
    record.archive === undefined
  ) {
    if (nextToken !== undefined) throw new InvalidFilesTokenError('the archive has no files to page through');
    return { archive, items: [] };
  }
  const expired = expiredArchive(record.archive, deps.archiveSettings.expireAfterDays, deps.now());
  if (expired !== undefined) {
    if (nextToken !== undefined) throw new InvalidFilesTokenError('the archive has no files to page through');
    return { archive: expired, items: [] };
  }
  const storage = deps.archiveReader;
  let all: ArchivedFile[];
  try {
    all = await everyFile(storage, record.archive);
  } catch (error) {
    if (!(error instanceof ArchivedObjectMissingError)) throw error;
    if (nextToken !== undefined) throw new InvalidFilesTokenError('the archive has no files to page through');
    return { archive: filesGone(record.archive), items: [] };
  }
  if (nextToken !== undefined && (!FILES_NEXT_TOKEN_PATTERN.test(nextToken) || start >= all.length)) {
    throw new InvalidFilesTokenError('the token is not one of this listing');
  }
  const end = start + FILES_PAGE_SIZE;
  const urlExpiresAt = new Date(
    deps.now() + deps.archiveSettings.urlExpirySeconds * MS_PER_SECOND,
  ).toISOString();
  const items = await Promise.all(
    all.slice(start, end).map(async (file) => ({
      name: file.name,
      key: file.key,
      bytes: file.bytes,
      sha256: file.sha256,
      rows: file.rows,
      ...(file.rowsSuppressed !== undefined && { rowsSuppressed: file.rowsSuppressed }),
      url: await storage.downloadUrl(file.key, deps.archiveSettings.urlExpirySeconds),
      urlExpiresAt,
    })),
  );
  return { archive, items, ...(end < all.length && { nextToken: String(end) }) };
}

/**
 * EXPIRED once the lifecycle rule may have deleted the files. S3 expires an object at the first
 * midnight (UTC) after it is `expireAfterDays` old; the files were written during the archive run,
 * at most a day before `archivedAt`, so midnight of `archivedAt`'s day plus the days is the earliest.
 */
function expiredArchive(
  archive: ExportArchive,
  expireAfterDays: number | undefined,
  nowMs: number,
): ArchiveFilesState | undefined {
  if (expireAfterDays === undefined || archive.archivedAt === undefined) return undefined;
  const archivedAtMs = Date.parse(archive.archivedAt);
  const expiredAtMs = archivedAtMs - (archivedAtMs % MS_PER_DAY) + expireAfterDays * MS_PER_DAY;
  if (nowMs < expiredAtMs) return undefined;
  return {
    status: ARCHIVE_EXPIRED,
    archivedAt: archive.archivedAt,
    expiredAt: new Date(expiredAtMs).toISOString(),
    reason: `the bucket's lifecycle rule deletes archived files after ${expireAfterDays} days`,
  };
}

function filesGone(archive: ExportArchive): ArchiveFilesState {
  return {
    status: ARCHIVE_EXPIRED,
    ...(archive.archivedAt !== undefined && { archivedAt: archive.archivedAt }),
    reason: 'the archived files are no longer in the bucket',
  };
}

async function everyFile(storage: ArchiveReader, archive: ExportArchive): Promise<ArchivedFile[]> {
  if (archiveFilesInline(archive) || archive.manifestKey === undefined) return archive.files;
  const manifest = JSON.parse(Buffer.from(await storage.read(archive.manifestKey)).toString('utf8')) as {
    files: ArchivedFile[];
  };
  return manifest.files;
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
