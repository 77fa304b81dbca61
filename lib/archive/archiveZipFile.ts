import { createHash } from 'node:crypto';
import { PassThrough, type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, createGzip, constants as zlibConstants } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import type { ArchivedFile } from '../exports/ExportArchive';
import { CsvRecordCounter } from './CsvRecordCounter';
import { CorruptArchiveError } from './errors';
import type { ArchiveWriter } from './ports';

/** A gzip-compressed CSV, kept compressed: what is downloaded is what was hashed. */
export const ARCHIVED_FILE_CONTENT_TYPE = 'application/gzip';

/** What the caller names for each CSV found in a zip. */
export interface ZipEntryTarget {
  key: string;
  fileNumber: number;
}

export interface ArchiveZipFileOptions {
  zipPath: string;
  storage: ArchiveWriter;
  /** 1-based position of the link the zip came from. */
  sourceLink: number;
  /** The key for the next CSV found (called once per CSV, in the zip's order). */
  nextTarget: (entryName: string) => ZipEntryTarget;
}

/**
 * Stores every CSV of a downloaded zip gzip-compressed, each streamed entry by entry: the
 * zip is read from disk through its central directory (yauzl), each entry is inflated, its
 * CRC-32 and size checked, its records counted, compressed, hashed and uploaded in one pass.
 * Memory stays flat whatever the file size. The gzip output is deterministic (no name, no
 * timestamp), so archiving the same zip again stores the same bytes with the same SHA-256.
 * @throws CorruptArchiveError for a zip that is not well formed
 */
export async function archiveZipFile(options: ArchiveZipFileOptions): Promise<ArchivedFile[]> {
  const zip = await openZip(options.zipPath);
  try {
    const files: ArchivedFile[] = [];
    for await (const entry of entriesOf(zip)) {
      if (entry.fileName.endsWith('/') || !/\.csv$/i.test(entry.fileName)) continue;
      const target = options.nextTarget(entry.fileName);
      const stored = await storeEntry(zip, entry, target.key, options.storage);
      files.push({
        name: baseName(entry.fileName),
        key: target.key,
        sourceLink: options.sourceLink,
        ...stored,
      });
    }
    return files;
  } finally {
    zip.close();
  }
}

async function storeEntry(
  zip: ZipFile,
  entry: Entry,
  key: string,
  storage: ArchiveWriter,
): Promise<Pick<ArchivedFile, 'bytes' | 'sha256' | 'rows'>> {
  const source = await openEntry(zip, entry);
  const check = new EntryCheck(entry);
  const counter = new CsvRecordCounter();
  const digest = new DigestMeter();
  const body = new PassThrough();
  const piping = pipeline(
    source,
    check,
    counter,
    // Level 6 (zlib's default), no file name and no timestamp in the header: same input, same bytes.
    createGzip({ level: zlibConstants.Z_DEFAULT_COMPRESSION }),
    digest,
    body,
  );
  const uploading = storage.put(key, body, { contentType: ARCHIVED_FILE_CONTENT_TYPE });
  const [piped, uploaded] = await Promise.allSettled([piping, uploading]);
  if (piped.status === 'rejected') throw asCorrupt(piped.reason, entry);
  if (uploaded.status === 'rejected') throw uploaded.reason;
  return { bytes: digest.bytes, sha256: digest.sha256(), rows: counter.rows };
}

/** Checks an inflated entry against its central-directory record: CRC-32 and size. */
class EntryCheck extends Transform {
  #crc = 0;
  #bytes = 0;

  constructor(private readonly entry: Entry) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#crc = crc32(chunk, this.#crc);
    this.#bytes += chunk.length;
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.#bytes !== this.entry.uncompressedSize) {
      callback(
        new CorruptArchiveError(
          `${this.entry.fileName}: ${this.#bytes} bytes inflated, the zip says ${this.entry.uncompressedSize}`,
        ),
      );
    } else if (this.#crc >>> 0 !== this.entry.crc32 >>> 0) {
      callback(new CorruptArchiveError(`${this.entry.fileName}: CRC-32 mismatch`));
    } else {
      callback();
    }
  }
}

/** Counts and hashes the bytes that will be stored. */
class DigestMeter extends Transform {
  readonly #hash = createHash('sha256');
  bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#hash.update(chunk);
    this.bytes += chunk.length;
    callback(null, chunk);
  }

  sha256(): string {
    return this.#hash.digest('hex');
  }
}

function openZip(path: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: false }, (error, zip) => {
      if (error) reject(new CorruptArchiveError(`not a readable zip: ${error.message}`, { cause: error }));
      else resolve(zip);
    });
  });
}

async function* entriesOf(zip: ZipFile): AsyncGenerator<Entry> {
  for (;;) {
    const entry = await new Promise<Entry | undefined>((resolve, reject) => {
      const onEntry = (found: Entry) => {
        cleanup();
        resolve(found);
      };
      const onEnd = () => {
        cleanup();
        resolve(undefined);
      };
      const onError = (error: Error) => {
        cleanup();
        reject(new CorruptArchiveError(`the zip's directory is broken: ${error.message}`, { cause: error }));
      };
      const cleanup = () => {
        zip.off('entry', onEntry);
        zip.off('end', onEnd);
        zip.off('error', onError);
      };
      zip.on('entry', onEntry);
      zip.on('end', onEnd);
      zip.on('error', onError);
      zip.readEntry();
    });
    if (entry === undefined) return;
    yield entry;
  }
}

function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) reject(new CorruptArchiveError(`${entry.fileName}: ${error.message}`, { cause: error }));
      else resolve(stream);
    });
  });
}

/** Inflate and size errors from yauzl and zlib mean a corrupt zip; the storage's own errors pass as they are. */
function asCorrupt(error: unknown, entry: Entry): unknown {
  if (error instanceof CorruptArchiveError) return error;
  const code = (error as { code?: unknown }).code;
  const zlibFailure = typeof code === 'string' && code.startsWith('Z_');
  const yauzlFailure =
    error instanceof Error && /too many bytes|not enough bytes|invalid|unexpected/i.test(error.message);
  if (zlibFailure || yauzlFailure) {
    return new CorruptArchiveError(`${entry.fileName}: ${(error as Error).message}`, { cause: error });
  }
  return error;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
