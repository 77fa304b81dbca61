import { createHash } from 'node:crypto';
import { PassThrough, type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, createGzip, constants as zlibConstants } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import type { ArchivedFile } from '../exports/record/ExportArchive';
import { CsvRecordCounter } from './CsvRecordCounter';
import { CsvUserRowFilter, type CsvUserRowFilterOptions } from './CsvUserRowFilter';
import { CorruptArchiveError, TableRowCountMismatchError } from './errors';
import { CommentParquetTee } from './parquet/CommentParquetTee';
import type { CommentFileLineage } from './parquet/CommentParquetWriter';
import type { ArchiveWriter, StoredObjectInfo } from './ports';

/**
 * The CSV goes to gzip (and the Parquet writer) in pieces of this size: zlib compresses each piece
 * in one call on its own thread while this thread parses and encodes, instead of coming back for
 * every 16 KB. The gzip output does not depend on how its input is cut.
 */
const CSV_PIECE_BYTES = 1024 * 1024;
/** Gzip's output buffer: a compressed piece comes back in one call. */
const GZIP_OUTPUT_CHUNK_BYTES = 256 * 1024;

/** A gzip-compressed CSV, kept compressed: what is downloaded is what was hashed. */
export const ARCHIVED_FILE_CONTENT_TYPE = 'application/gzip';
/** The media type Apache Parquet registered. */
export const PARQUET_FILE_CONTENT_TYPE = 'application/vnd.apache.parquet';

/** What the caller names for each CSV found in a zip. */
export interface ZipEntryTarget {
  key: string;
  fileNumber: number;
  /** Where the CSV's rows go as a Parquet file of the `comment_rows` table, when `parquet` is set. */
  parquetKey?: string;
}

/** How each CSV is also written as Parquet. */
export interface ZipEntryParquetOptions {
  /** The CSV's delimiter (the export's). */
  delimiter: string;
  /** The lineage columns; the file's own name is added per CSV. */
  lineage: Omit<CommentFileLineage, 'sourceFile'>;
  /** Rows per row group (COMMENT_ROW_GROUP_ROWS by default). */
  rowGroupRows?: number;
}

export interface ArchiveZipFileOptions {
  zipPath: string;
  storage: ArchiveWriter;
  /** 1-based position of the link the zip came from. */
  sourceLink: number;
  /** The key for the next CSV found (called once per CSV, in the zip's order). */
  nextTarget: (entryName: string) => ZipEntryTarget;
  /** Also writes each CSV as Parquet, to its target's `parquetKey`; without it, only the CSV is stored. */
  parquet?: ZipEntryParquetOptions;
  /** Stores every CSV without these users' records (the spot's suppressed users), counting them per file. */
  without?: CsvUserRowFilterOptions;
}

/**
 * Stores every CSV of a downloaded zip gzip-compressed, each streamed entry by entry: the
 * zip is read from disk through its central directory (yauzl), each entry is inflated, its
 * CRC-32 and size checked, its records counted, compressed, hashed and uploaded in one pass,
 * and with `parquet` its rows are written as a Parquet file in the same pass, a row group at a
 * time. Memory stays flat whatever the file size. The output is deterministic (gzip with no name
 * and no timestamp, Parquet with fixed row groups and no time in it), so archiving the same zip
 * again stores the same bytes with the same SHA-256.
 * @throws CorruptArchiveError for a zip that is not well formed, TableRowCountMismatchError when
 *   a Parquet file's rows are not the CSV's
 */
export async function archiveZipFile(options: ArchiveZipFileOptions): Promise<ArchivedFile[]> {
  const zip = await openZip(options.zipPath);
  try {
    const files: ArchivedFile[] = [];
    for await (const entry of entriesOf(zip)) {
      if (entry.fileName.endsWith('/') || !/\.csv$/i.test(entry.fileName)) continue;
      const target = options.nextTarget(entry.fileName);
      const name = baseName(entry.fileName);
      const parquet =
        options.parquet !== undefined && target.parquetKey !== undefined
          ? {
              key: target.parquetKey,
              delimiter: options.parquet.delimiter,
              lineage: { ...options.parquet.lineage, sourceFile: name },
              ...(options.parquet.rowGroupRows !== undefined && {
                rowGroupRows: options.parquet.rowGroupRows,
              }),
            }
          : undefined;
      const { rowsLeftOut, ...stored } = await storeEntry(
        zip,
        entry,
        target.key,
        options.storage,
        parquet,
        options.without,
      );
      files.push({
        name,
        key: target.key,
        sourceLink: options.sourceLink,
        ...stored,
        ...(options.without !== undefined && { rowsSuppressed: rowsLeftOut }),
      });
    }
    return files;
  } finally {
    zip.close();
  }
}

interface EntryParquet extends ZipEntryParquetOptions {
  key: string;
  lineage: CommentFileLineage;
}

async function storeEntry(
  zip: ZipFile,
  entry: Entry,
  key: string,
  storage: ArchiveWriter,
  parquet: EntryParquet | undefined,
  suppressed: CsvUserRowFilterOptions | undefined,
): Promise<StoredCsv> {
  const source = await openEntry(zip, entry);
  return storeCsv({
    source,
    checks: [new EntryCheck(entry)],
    key,
    storage,
    ...(parquet !== undefined && { parquet }),
    ...(suppressed !== undefined && { without: suppressed }),
    label: entry.fileName,
    readError: (error) => asCorrupt(error, entry),
  });
}

/** A stored CSV: its gzip object, its Parquet file, and the records left out of both. */
export type StoredCsv = Pick<ArchivedFile, 'bytes' | 'sha256' | 'rows' | 'parquet'> & {
  /** Records of the users it was stored without; 0 when none was named. */
  rowsLeftOut: number;
};

export interface StoreCsvOptions {
  /** The CSV's bytes, uncompressed. */
  source: Readable;
  /** Transforms the bytes pass through first, as they are (the zip entry's CRC and size check). */
  checks?: Transform[];
  key: string;
  storage: ArchiveWriter;
  /** Also writes the rows as this Parquet file. */
  parquet?: ZipEntryParquetOptions & { key: string; lineage: CommentFileLineage };
  /** Stores the CSV (and its Parquet file) without these users' records. */
  without?: CsvUserRowFilterOptions;
  /** What errors name the file by. */
  label: string;
  /** What a failure to read or transform the bytes (not to store them) is thrown as. */
  readError?: (error: unknown) => unknown;
}

/**
 * Stores one CSV gzip-compressed under `key`, and with `parquet` its rows as a Parquet file, in one
 * streamed pass, optionally without some users' records: the archive stores each zip entry this
 * way, and an erasure rewrites an archived file this way.
 * @throws TableRowCountMismatchError when the Parquet file's rows are not the CSV's
 */
export async function storeCsv(options: StoreCsvOptions): Promise<StoredCsv> {
  const { parquet } = options;
  const filter = options.without === undefined ? undefined : new CsvUserRowFilter(options.without);
  const counter = new CsvRecordCounter();
  const digest = new DigestMeter();
  const body = new PassThrough();
  const parquetBody = parquet === undefined ? undefined : new PassThrough();
  const tee =
    parquet === undefined || parquetBody === undefined
      ? undefined
      : new CommentParquetTee({
          delimiter: parquet.delimiter,
          lineage: parquet.lineage,
          parquet: parquetBody,
          ...(parquet.rowGroupRows !== undefined && { rowGroupRows: parquet.rowGroupRows }),
        });
  const piping = pipeline([
    options.source,
    ...(options.checks ?? []),
    ...(filter === undefined ? [] : [filter]),
    counter,
    new PieceCollector(CSV_PIECE_BYTES),
    ...(tee === undefined ? [] : [tee]),
    // Level 6 (zlib's default), no file name and no timestamp in the header: same input, same bytes.
    createGzip({ level: zlibConstants.Z_DEFAULT_COMPRESSION, chunkSize: GZIP_OUTPUT_CHUNK_BYTES }),
    digest,
    body,
  ]);
  const uploads = [upload(options.storage, options.key, body, { contentType: ARCHIVED_FILE_CONTENT_TYPE })];
  if (parquet !== undefined && parquetBody !== undefined) {
    uploads.push(
      upload(options.storage, parquet.key, parquetBody, { contentType: PARQUET_FILE_CONTENT_TYPE }),
    );
  }
  const [piped, ...uploaded] = await Promise.allSettled([piping, ...uploads]);
  if (piped?.status === 'rejected')
    throw options.readError === undefined ? piped.reason : options.readError(piped.reason);
  for (const outcome of uploaded) if (outcome.status === 'rejected') throw outcome.reason;
  const stored = {
    bytes: digest.bytes,
    sha256: digest.sha256(),
    rows: counter.rows,
    rowsLeftOut: filter?.removed ?? 0,
  };
  if (tee === undefined || parquet === undefined) return stored;
  if (tee.rows !== counter.rows) {
    throw new TableRowCountMismatchError(
      `${options.label}: ${counter.rows} rows counted in the CSV, but ${tee.rows} written to its Parquet file`,
    );
  }
  return {
    ...stored,
    parquet: { key: parquet.key, bytes: tee.parquetBytes, sha256: tee.parquetSha256(), rows: tee.rows },
  };
}

/**
 * Uploads `body`; when the upload fails, `body` is destroyed, so the pipeline writing into it
 * fails too instead of waiting for a reader that is gone.
 */
async function upload(storage: ArchiveWriter, key: string, body: PassThrough, info: StoredObjectInfo) {
  try {
    await storage.put(key, body, info);
  } catch (error) {
    // The failure is reported by this promise; the body's own error event must not go unheard.
    body.on('error', () => {});
    body.destroy(error as Error);
    throw error;
  }
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

/** Passes bytes on in pieces of at least `pieceBytes` (the last one may be smaller). */
class PieceCollector extends Transform {
  #chunks: Buffer[] = [];
  #bytes = 0;

  constructor(private readonly pieceBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    if (this.#bytes >= this.pieceBytes) this.#pushPiece();
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.#bytes > 0) this.#pushPiece();
    callback();
  }

  #pushPiece(): void {
    this.push(this.#chunks.length === 1 ? this.#chunks[0] : Buffer.concat(this.#chunks, this.#bytes));
    this.#chunks = [];
    this.#bytes = 0;
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
