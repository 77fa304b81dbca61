import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { type ErasedFile, ErasedFileState } from '../exports/erasure/ErasureRecord';
import type { ArchivedUserEraser, ExportCheck, ExportErasure } from '../exports/erasure/ports';
import {
  type ArchivedFile,
  ArchiveStatus,
  type ExportArchive,
  INLINE_FILES_MAX_BYTES,
} from '../exports/record/ExportArchive';
import { type ExportRecord, itemsWithin } from '../exports/record/ExportRecord';
import { parquetOptions } from './archiveExport';
import { revisedObjectKey } from './archiveKeys';
import type { ArchiveManifest } from './archiveManifest';
import { storeCsv } from './archiveZipFile';
import { CsvUserRowFilter } from './CsvUserRowFilter';
import type { ArchiveObjects, ArchiveRevisions, ArchiveWriter } from './ports';

/** The upstream's delimiter when the request names none. */
const DEFAULT_CSV_DELIMITER = ',';

export interface ArchiveUserEraserOptions {
  objects: ArchiveObjects;
  writer: ArchiveWriter;
  revisions: ArchiveRevisions;
}

/**
 * Erases a user from an archived export's files in the bucket: every CSV is read (gunzipped and
 * scanned; nothing is written for a file without the user); one holding the user's rows is
 * written again without them under its next revision's key, its Parquet file too; then the
 * manifest names the new files (one write: a reader sees the old files or the new ones, each
 * with its own checksum), then the record; only then is every version of the old objects deleted,
 * and the noncurrent versions of the manifest. A file of only the user's rows becomes its header
 * alone, rows 0.
 */
export class ArchiveUserEraser implements ArchivedUserEraser {
  readonly #objects: ArchiveObjects;
  readonly #writer: ArchiveWriter;
  readonly #revisions: ArchiveRevisions;

  constructor(options: ArchiveUserEraserOptions) {
    this.#objects = options.objects;
    this.#writer = options.writer;
    this.#revisions = options.revisions;
  }

  async eraseFromExport(
    record: ExportRecord,
    userId: string,
    known: readonly ErasedFile[],
    onRewritten: (files: ErasedFile[]) => Promise<void>,
  ): Promise<ExportErasure> {
    const manifest = await this.#manifestOf(record);
    const delimiter = record.request.delimiter ?? DEFAULT_CSV_DELIMITER;
    const userIds = new Set([userId]);
    const files: ArchivedFile[] = [];
    const rewritten: ErasedFile[] = [];
    for (const file of manifest.files) {
      if ((await this.#countRows(file.key, delimiter, userIds)) === 0) {
        files.push(file);
        continue;
      }
      const key = revisedObjectKey(file.key);
      const parquetKey = file.parquet === undefined ? undefined : revisedObjectKey(file.parquet.key);
      const stored = await storeCsv({
        source: await this.#objects.open(file.key),
        checks: [createGunzip()],
        key,
        storage: this.#writer,
        ...(parquetKey !== undefined && {
          parquet: {
            ...parquetOptions(record),
            key: parquetKey,
            lineage: { ...parquetOptions(record).lineage, sourceFile: file.name },
          },
        }),
        without: { delimiter, userIds },
        label: file.key,
      });
      const { rowsLeftOut, ...written } = stored;
      files.push({ ...file, key, ...written });
      rewritten.push({
        exportId: record.exportId,
        name: file.name,
        previousKey: file.key,
        ...(file.parquet !== undefined && { previousParquetKey: file.parquet.key }),
        key,
        ...(parquetKey !== undefined && { parquetKey }),
        rowsRemoved: rowsLeftOut,
        rows: written.rows,
        sha256: written.sha256,
        state: ErasedFileState.REWRITTEN,
      });
    }
    if (rewritten.length > 0) {
      // Recorded first: a crash after the switch still knows which old objects to delete.
      await onRewritten(rewritten);
      await this.#switchTo(record, manifest, files);
    } else if (recordLagsFiles(record, files)) {
      // A run died between the manifest and the record: the record names the new files before the old go.
      await this.#revise(record, files);
    }
    const current = new Set(files.flatMap((file) => [file.key, file.parquet?.key]));
    for (const erased of [...known, ...rewritten]) {
      for (const old of [erased.previousKey, erased.previousParquetKey]) {
        // An old key the manifest still names was never switched from: it is not deleted.
        if (old !== undefined && !current.has(old)) await this.#deleteVersions(old, 'all');
      }
      for (const kept of [erased.key, erased.parquetKey]) {
        if (kept !== undefined && current.has(kept)) await this.#deleteVersions(kept, 'noncurrent');
      }
    }
    if (rewritten.length > 0 && record.archive?.manifestKey !== undefined) {
      await this.#deleteVersions(record.archive.manifestKey, 'noncurrent');
    }
    return { filesRead: manifest.files.length, rewritten };
  }

  async checkExport(
    record: ExportRecord,
    userId: string,
    erasedKeys: readonly string[],
  ): Promise<ExportCheck> {
    const manifest = await this.#manifestOf(record);
    const delimiter = record.request.delimiter ?? DEFAULT_CSV_DELIMITER;
    let rowsFound = 0;
    for (const file of manifest.files)
      rowsFound += await this.#countRows(file.key, delimiter, new Set([userId]));
    const current = new Set(manifest.files.flatMap((file) => [file.key, file.parquet?.key]));
    let versionsLeft = 0;
    for (const key of erasedKeys) {
      const versions = await this.#objects.versionsOf(key);
      versionsLeft += current.has(key)
        ? versions.filter((version) => !version.isLatest).length
        : versions.length;
    }
    return { filesChecked: manifest.files.length, rowsFound, versionsLeft };
  }

  /** Every file of the export: the manifest's, or the record's for an archive from before manifests. */
  async #manifestOf(record: ExportRecord): Promise<ArchiveManifest> {
    const archive = record.archive;
    if (archive?.manifestKey === undefined) return { files: archive?.files ?? [] };
    const bytes = await this.#objects.read(archive.manifestKey);
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as ArchiveManifest;
  }

  /** The user's rows in an archived CSV, read to the end without keeping anything. */
  async #countRows(key: string, delimiter: string, userIds: ReadonlySet<string>): Promise<number> {
    const filter = new CsvUserRowFilter({ delimiter, userIds });
    await pipeline(
      await this.#objects.open(key),
      createGunzip(),
      filter,
      new Writable({ write: (_chunk, _encoding, callback) => callback() }),
    );
    return filter.removed;
  }

  async #switchTo(record: ExportRecord, manifest: ArchiveManifest, files: ArchivedFile[]): Promise<void> {
    const archive = record.archive as ExportArchive;
    if (archive.manifestKey !== undefined) {
      const body = Buffer.from(JSON.stringify({ ...manifest, files }), 'utf8');
      await this.#writer.put(archive.manifestKey, Readable.from([body]), { contentType: 'application/json' });
    }
    await this.#revise(record, files);
  }

  /** The record's archive state for `files`. */
  async #revise(record: ExportRecord, files: ArchivedFile[]): Promise<void> {
    const archive = record.archive as ExportArchive;
    await this.#revisions.revise(record.spotId, record.exportId, {
      ...archive,
      status: ArchiveStatus.ARCHIVED,
      files: archive.manifestKey === undefined ? files : itemsWithin(files, INLINE_FILES_MAX_BYTES),
      fileCount: files.length,
      rows: files.reduce((sum, file) => sum + file.rows, 0),
      bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    });
  }

  async #deleteVersions(key: string, which: 'all' | 'noncurrent'): Promise<void> {
    for (const version of await this.#objects.versionsOf(key)) {
      if (which === 'all' || !version.isLatest) await this.#objects.deleteVersion(key, version.versionId);
    }
  }
}

/** Whether the record still names a file the manifest no longer does. */
function recordLagsFiles(record: ExportRecord, files: readonly ArchivedFile[]): boolean {
  const current = new Set(files.map((file) => file.key));
  return (record.archive?.files ?? []).some((file) => !current.has(file.key));
}
