import { describe, expect, it } from 'vitest';
import {
  PARQUET_OUTPUT_HANDOFF_BYTES,
  ParquetByteOutput,
} from '../../../../../lib/archive/parquet/ParquetByteOutput';

describe('ParquetByteOutput', () => {
  it('hands the bytes on at the end, in order, and nothing when nothing was written', () => {
    // Prepare
    const chunks: Buffer[] = [];
    const output = new ParquetByteOutput((bytes) => chunks.push(bytes));

    // Act
    output.flush();
    output.appendBytes(new Uint8Array([1, 2, 3]));
    output.appendUint8(4);
    output.finish();

    // Assess
    expect(chunks).toEqual([Buffer.from([1, 2, 3, 4])]);
  });

  it('hands on what it holds once it reaches the handoff size, so its buffer stays small', () => {
    // Prepare
    const chunks: Buffer[] = [];
    const output = new ParquetByteOutput((bytes) => chunks.push(bytes));
    const block = new Uint8Array(PARQUET_OUTPUT_HANDOFF_BYTES).fill(7);

    // Act
    output.appendBytes(block);
    output.appendBytes(new Uint8Array([9]));
    output.finish();

    // Assess
    expect(chunks.map((chunk) => chunk.length)).toEqual([PARQUET_OUTPUT_HANDOFF_BYTES, 1]);
    expect(chunks[1]).toEqual(Buffer.from([9]));
    expect(output.buffer.byteLength).toBeLessThanOrEqual(2 * PARQUET_OUTPUT_HANDOFF_BYTES);
  });

  it('hands on copies, not views of the buffer it writes over', () => {
    // Prepare
    const chunks: Buffer[] = [];
    const output = new ParquetByteOutput((bytes) => chunks.push(bytes));

    // Act
    output.appendBytes(new Uint8Array([1, 1]));
    output.flush();
    output.appendBytes(new Uint8Array([2, 2]));
    output.finish();

    // Assess
    expect(chunks).toEqual([Buffer.from([1, 1]), Buffer.from([2, 2])]);
  });
});
