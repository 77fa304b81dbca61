import { ByteWriter } from 'hyparquet-writer';

/** Bytes the writer collects before it hands them on, so its buffer stays small. */
export const PARQUET_OUTPUT_HANDOFF_BYTES = 1024 * 1024;

/**
 * The Parquet writer's byte sink, handing what it wrote to `output` as it goes (every
 * PARQUET_OUTPUT_HANDOFF_BYTES, after each row group, and at the end) instead of keeping the
 * whole file. Parquet is written front to back (the footer last), so nothing is revisited.
 */
export class ParquetByteOutput extends ByteWriter {
  readonly #output: (bytes: Buffer) => void;

  constructor(output: (bytes: Buffer) => void) {
    super(PARQUET_OUTPUT_HANDOFF_BYTES);
    this.#output = output;
  }

  override ensure(size: number): void {
    if (this.index >= PARQUET_OUTPUT_HANDOFF_BYTES) this.flush();
    super.ensure(size);
  }

  flush(): void {
    if (this.index === 0) return;
    // A copy: the buffer is written over next.
    this.#output(Buffer.from(new Uint8Array(this.buffer, 0, this.index)));
    this.index = 0;
  }

  override finish(): void {
    this.flush();
  }
}
