import { createHash } from 'node:crypto';
import { Transform, type TransformCallback, type Writable } from 'node:stream';
import { CommentParquetWriter, type CommentParquetWriterOptions } from './CommentParquetWriter';
import { CsvRecordParser } from './CsvRecordParser';

export interface CommentParquetTeeOptions extends Omit<CommentParquetWriterOptions, 'output'> {
  /** The CSV's delimiter. */
  delimiter: string;
  /** Receives the Parquet file; ended when the CSV has ended. */
  parquet: Writable;
}

/**
 * Passes CSV bytes through unchanged while writing them as a Parquet file (CommentParquetWriter)
 * into `parquet`, counting and hashing the Parquet bytes on the way. It waits whenever `parquet`
 * is full, so a slow upload of the Parquet file slows the CSV down instead of filling memory.
 */
export class CommentParquetTee extends Transform {
  readonly #parquet: Writable;
  readonly #writer: CommentParquetWriter;
  readonly #parser: CsvRecordParser;
  readonly #hash = createHash('sha256');
  #bytes = 0;
  #full = false;

  constructor(options: CommentParquetTeeOptions) {
    super();
    this.#parquet = options.parquet;
    const { delimiter: _delimiter, parquet: _parquet, ...writerOptions } = options;
    this.#writer = new CommentParquetWriter({
      ...writerOptions,
      output: (bytes) => {
        this.#hash.update(bytes);
        this.#bytes += bytes.length;
        if (!this.#parquet.write(bytes)) this.#full = true;
      },
    });
    this.#parser = new CsvRecordParser(options.delimiter, (fields) => this.#writer.writeRecord(fields));
  }

  /** Rows in the Parquet file (final once the stream has ended). */
  get rows(): number {
    return this.#writer.rows;
  }

  get rowGroups(): number {
    return this.#writer.rowGroups;
  }

  /** Size of the Parquet file (final once the stream has ended). */
  get parquetBytes(): number {
    return this.#bytes;
  }

  /** Hex SHA-256 of the Parquet file; call once, after the stream has ended. */
  parquetSha256(): string {
    return this.#hash.digest('hex');
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.#parser.push(chunk);
    } catch (error) {
      callback(error as Error);
      return;
    }
    this.#afterDrain(() => callback(null, chunk), callback);
  }

  override _flush(callback: TransformCallback): void {
    try {
      this.#parser.end();
      this.#writer.finish();
    } catch (error) {
      callback(error as Error);
      return;
    }
    this.#afterDrain(() => {
      this.#parquet.end();
      callback();
    }, callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // The Parquet upload must not wait for bytes that will never come.
    if (error !== null && !this.#parquet.destroyed) this.#parquet.destroy(error);
    callback(error);
  }

  #afterDrain(next: () => void, fail: (error: Error) => void): void {
    if (!this.#full) {
      next();
      return;
    }
    drained(this.#parquet).then(
      () => {
        this.#full = false;
        next();
      },
      (error: unknown) => fail(error as Error),
    );
  }
}

/** Resolves when `stream` drains; rejects when it closes first (destroyed, by an error or not). */
function drained(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.destroyed) {
      reject(stream.errored ?? new Error('the Parquet output closed before the file was written'));
      return;
    }
    const onDrain = () => {
      cleanup();
      resolve();
    };
    const onClose = () => {
      cleanup();
      reject(stream.errored ?? new Error('the Parquet output closed before the file was written'));
    };
    const cleanup = () => {
      stream.off('drain', onDrain);
      stream.off('close', onClose);
    };
    stream.on('drain', onDrain);
    stream.on('close', onClose);
  });
}
