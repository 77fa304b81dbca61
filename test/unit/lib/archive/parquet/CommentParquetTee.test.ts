import { createHash } from 'node:crypto';
import { PassThrough, Readable, Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { CommentParquetTee } from '../../../../../lib/archive/parquet/CommentParquetTee';
import { formatCsv } from '../../../../../local/openweb-simulator/csv';
import { COMMENT_FILE_LINEAGE, COMMENTS_CSV_HEADER } from '../../../../support/commentFileFixtures';

const ROWS = Array.from({ length: 40 }, (_, index) => [
  `c${index}`,
  `u${index % 7}`,
  `user ${index % 7}`,
  'sp_demo',
  `p${index % 3}`,
  'approved',
  `comment "${index}", with a comma`,
  String(index),
  '2026-10-30T12:00:00Z',
]);
const CSV = Buffer.from(formatCsv([COMMENTS_CSV_HEADER, ...ROWS], ','), 'utf8');

/** The CSV in chunks of `chunkBytes`, as a download would deliver it. */
function chunked(bytes: Buffer, chunkBytes: number): Readable {
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += chunkBytes)
    chunks.push(bytes.subarray(start, start + chunkBytes));
  return Readable.from(chunks);
}

/** A sink that keeps what it is given; `highWaterMark` bytes fill it, each write waits `delayMs`. */
function collectingSink(options: { highWaterMark?: number; delayMs?: number } = {}) {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    highWaterMark: options.highWaterMark ?? 16 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      setTimeout(callback, options.delayMs ?? 0);
    },
  });
  return { sink, bytes: () => Buffer.concat(chunks) };
}

function arrayBufferOf(bytes: Buffer): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

describe('CommentParquetTee', () => {
  it('passes the CSV through unchanged while writing its rows as a Parquet file it counts and hashes', async () => {
    // Prepare
    const csvOut = collectingSink();
    const parquetOut = collectingSink();
    const tee = new CommentParquetTee({
      lineage: COMMENT_FILE_LINEAGE,
      delimiter: ',',
      parquet: parquetOut.sink,
    });

    // Act
    await pipeline(chunked(CSV, 97), tee, csvOut.sink);
    await finished(parquetOut.sink);

    // Assess
    expect(csvOut.bytes().equals(CSV)).toBe(true);
    const parquet = parquetOut.bytes();
    expect(tee.rows).toBe(ROWS.length);
    expect(tee.parquetBytes).toBe(parquet.length);
    expect(tee.parquetSha256()).toBe(createHash('sha256').update(parquet).digest('hex'));
    const rows = await parquetReadObjects({ file: arrayBufferOf(parquet), columns: ['id', 'content'] });
    expect(rows.map((row) => row.id)).toEqual(ROWS.map((row) => row[0]));
    expect(rows[3]?.content).toBe('comment "3", with a comma');
  });

  it('waits for a slow Parquet output instead of holding the whole file in memory, and loses nothing', async () => {
    // Prepare: a Parquet output that fills after a few bytes and takes its time; small row groups
    const parquetOut = collectingSink({ highWaterMark: 64, delayMs: 2 });
    const csvOut = collectingSink();
    const tee = new CommentParquetTee({
      lineage: COMMENT_FILE_LINEAGE,
      delimiter: ',',
      parquet: parquetOut.sink,
      rowGroupRows: 5,
    });
    let drains = 0;
    parquetOut.sink.on('drain', () => {
      drains += 1;
    });

    // Act
    await pipeline(chunked(CSV, 64), tee, csvOut.sink);
    await finished(parquetOut.sink);

    // Assess
    expect(drains).toBeGreaterThan(0);
    expect(tee.rowGroups).toBe(ROWS.length / 5);
    expect(tee.parquetBytes).toBe(parquetOut.bytes().length);
    const rows = await parquetReadObjects({ file: arrayBufferOf(parquetOut.bytes()), columns: ['id'] });
    expect(rows).toHaveLength(ROWS.length);
  });

  it('fails the CSV stream when the Parquet output breaks, rather than waiting for it forever', async () => {
    // Prepare: an output that is full at once and then fails
    const parquet = new PassThrough({ highWaterMark: 1 });
    // The upload listens for its own failure, as the archive's does.
    parquet.on('error', () => {});
    const tee = new CommentParquetTee({
      lineage: COMMENT_FILE_LINEAGE,
      delimiter: ',',
      parquet,
      rowGroupRows: 1,
    });
    const broken = new Error('upload failed');

    // Act
    const done = pipeline(chunked(CSV, 64), tee, collectingSink().sink);
    setTimeout(() => parquet.destroy(broken), 5);
    const error = await done.catch((caught: unknown) => caught);

    // Assess
    expect(error).toBe(broken);
  });

  it('ends the Parquet output with an error when the CSV stream fails', async () => {
    // Prepare
    const parquetOut = collectingSink();
    // The upload listens for its own failure, as the archive's does.
    parquetOut.sink.on('error', () => {});
    const tee = new CommentParquetTee({
      lineage: COMMENT_FILE_LINEAGE,
      delimiter: ',',
      parquet: parquetOut.sink,
    });
    const cut = new Error('download broke off');
    const source = new Readable({
      read() {
        this.push(CSV.subarray(0, 100));
        this.destroy(cut);
      },
    });

    // Act
    const error = await pipeline(source, tee, collectingSink().sink).catch((caught: unknown) => caught);

    // Assess
    expect(error).toBe(cut);
    expect(parquetOut.sink.destroyed).toBe(true);
    expect(parquetOut.sink.errored).toBe(cut);
  });
});
