import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { zipSync } from 'fflate';
import { parquetReadObjects } from 'hyparquet';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { archiveZipFile, PARQUET_FILE_CONTENT_TYPE } from '../../../../lib/archive/archiveZipFile';
import { TableRowCountMismatchError } from '../../../../lib/archive/errors';
import { CommentParquetWriter } from '../../../../lib/archive/parquet/CommentParquetWriter';
import type { ArchiveWriter, StoredObjectInfo } from '../../../../lib/archive/ports';
import { captureError } from '../../../support/captureError';

/** The archive's storage port in memory: what was stored under which key. */
class MemoryStorage implements ArchiveWriter {
  readonly objects = new Map<string, { body: Buffer; info: StoredObjectInfo }>();

  async put(key: string, body: Readable, info: StoredObjectInfo): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    this.objects.set(key, { body: Buffer.concat(chunks), info });
  }
}

const CSV = 'id,content,rank\r\n1,"a\r\nb",5\r\n2,c,x\r\n3,,\r\n';
const LINEAGE = { exportId: 'ex_1', exportedAt: '2026-10-31T00:00:00Z' };

describe('archiveZipFile with Parquet', () => {
  let directory = '';
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'archive-zip-parquet-test-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  function zipFile(files: Record<string, string>): string {
    const path = join(directory, 'export.zip');
    writeFileSync(
      path,
      zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, Buffer.from(text)]))),
    );
    return path;
  }

  function archive(zipPath: string, storage: ArchiveWriter, parquet = true) {
    let n = 0;
    return archiveZipFile({
      zipPath,
      storage,
      sourceLink: 1,
      nextTarget: () => {
        n += 1;
        return {
          fileNumber: n,
          key: `exports/x/${n}.csv.gz`,
          parquetKey: `tables/comments/x/ex_1-${n}.parquet`,
        };
      },
      ...(parquet && { parquet: { delimiter: ',', lineage: LINEAGE, rowGroupRows: 2 } }),
    });
  }

  it('stores each CSV also as Parquet, recorded with its key, size, SHA-256 and rows (the CSV’s)', async () => {
    // Prepare
    const storage = new MemoryStorage();
    const path = zipFile({ 'dir/one.csv': CSV, 'two.csv': 'id\r\n9\r\n' });

    // Act
    const files = await archive(path, storage);

    // Assess
    expect(files.map((file) => [file.rows, file.parquet?.rows])).toEqual([
      [3, 3],
      [1, 1],
    ]);
    for (const file of files) {
      const stored = storage.objects.get(file.parquet?.key as string);
      expect(stored?.info.contentType).toBe(PARQUET_FILE_CONTENT_TYPE);
      expect(stored?.body.length).toBe(file.parquet?.bytes);
      expect(
        createHash('sha256')
          .update(stored?.body as Buffer)
          .digest('hex'),
      ).toBe(file.parquet?.sha256);
    }
    const body = storage.objects.get('tables/comments/x/ex_1-1.parquet')?.body as Buffer;
    const rows = await parquetReadObjects({
      file: body.buffer.slice(body.byteOffset, body.byteOffset + body.length) as ArrayBuffer,
    });
    expect(rows.map((row) => [row.id, row.content, row.rank, row.unparsed_values, row.source_file])).toEqual([
      ['1', 'a\r\nb', 5n, null, 'one.csv'],
      ['2', 'c', null, '{"rank":"x"}', 'one.csv'],
      ['3', '', null, null, 'one.csv'],
    ]);
  });

  it('stores no Parquet without the option, and the raw file is the same either way', async () => {
    // Prepare
    const path = zipFile({ 'one.csv': CSV });
    const withParquet = new MemoryStorage();
    const without = new MemoryStorage();

    // Act
    const [withFile] = await archive(path, withParquet);
    const [withoutFile] = await archive(path, without, false);

    // Assess
    expect([...without.objects.keys()]).toEqual(['exports/x/1.csv.gz']);
    expect(withoutFile).not.toHaveProperty('parquet');
    expect(withoutFile?.sha256).toBe(withFile?.sha256);
    expect(
      without.objects
        .get('exports/x/1.csv.gz')
        ?.body.equals(withParquet.objects.get('exports/x/1.csv.gz')?.body as Buffer),
    ).toBe(true);
  });

  it('fails with the counts when the Parquet file holds another number of rows than the CSV', async () => {
    // Prepare: a writer that loses the second row.
    const writeRecord = CommentParquetWriter.prototype.writeRecord;
    let records = 0;
    vi.spyOn(CommentParquetWriter.prototype, 'writeRecord').mockImplementation(function (
      this: CommentParquetWriter,
      fields,
    ) {
      records += 1;
      if (records !== 3) writeRecord.call(this, fields);
    });
    const path = zipFile({ 'one.csv': CSV });

    // Act
    const error = await captureError(archive(path, new MemoryStorage()));

    // Assess
    expect(error).toBeInstanceOf(TableRowCountMismatchError);
    expect(error.message).toBe('one.csv: 3 rows counted in the CSV, but 2 written to its Parquet file');
  });

  it('fails, without waiting forever, when the Parquet upload fails', async () => {
    // Prepare: the Parquet upload gives up after its first bytes, as a dropped connection would.
    const storage: ArchiveWriter = {
      put: async (key, body) => {
        if (key.endsWith('.parquet')) {
          body.once('data', () => {});
          throw Object.assign(new Error('connection reset'), { name: 'NetworkingError' });
        }
        for await (const _chunk of body);
      },
    };
    const many = `id,content\r\n${Array.from({ length: 20_000 }, (_, index) => `${index},${'x'.repeat(50)}\r\n`).join('')}`;
    const path = zipFile({ 'big.csv': many });

    // Act
    const error = await captureError(archive(path, storage));

    // Assess
    expect(error.message).toBe('connection reset');
  });
});
