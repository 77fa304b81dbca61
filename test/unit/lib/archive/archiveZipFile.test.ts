import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ARCHIVED_FILE_CONTENT_TYPE, archiveZipFile } from '../../../../lib/archive/archiveZipFile';
import { CorruptArchiveError } from '../../../../lib/archive/errors';
import type { ArchiveWriter, StoredObjectInfo } from '../../../../lib/archive/ports';

/** The archive's storage port in memory: what was stored under which key. */
class MemoryStorage implements ArchiveWriter {
  readonly objects = new Map<string, { body: Buffer; info: StoredObjectInfo }>();

  async put(key: string, body: Readable, info: StoredObjectInfo): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    this.objects.set(key, { body: Buffer.concat(chunks), info });
  }
}

const CSV_ONE = 'id,text\r\n1,"a\r\nb"\r\n2,c\r\n';
const CSV_TWO = 'id,text\r\n3,d\r\n';

describe('archiveZipFile', () => {
  let directory = '';
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'archive-zip-test-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  function zipFile(name: string, bytes: Uint8Array): string {
    const path = join(directory, name);
    writeFileSync(path, bytes);
    return path;
  }

  function archive(zipPath: string, storage: ArchiveWriter) {
    let n = 0;
    return archiveZipFile({
      zipPath,
      storage,
      sourceLink: 2,
      nextTarget: () => {
        n += 1;
        return { fileNumber: n, key: `exports/x/${n}.csv.gz` };
      },
    });
  }

  it('stores each CSV of the zip gzip-compressed, with its stored size, SHA-256 and rows', async () => {
    // Prepare
    const storage = new MemoryStorage();
    const path = zipFile(
      'two.zip',
      zipSync({
        'one.csv': Buffer.from(CSV_ONE),
        'readme.txt': Buffer.from('skip me'),
        'dir/two.csv': Buffer.from(CSV_TWO),
      }),
    );

    // Act
    const files = await archive(path, storage);

    // Assess
    expect(files.map(({ name, key, rows, sourceLink }) => ({ name, key, rows, sourceLink }))).toEqual([
      { name: 'one.csv', key: 'exports/x/1.csv.gz', rows: 2, sourceLink: 2 },
      { name: 'two.csv', key: 'exports/x/2.csv.gz', rows: 1, sourceLink: 2 },
    ]);
    for (const file of files) {
      const stored = storage.objects.get(file.key);
      expect(stored?.info.contentType).toBe(ARCHIVED_FILE_CONTENT_TYPE);
      expect(file.bytes).toBe(stored?.body.length);
      expect(file.sha256).toBe(
        createHash('sha256')
          .update(stored?.body as Buffer)
          .digest('hex'),
      );
    }
    expect(gunzipSync(storage.objects.get('exports/x/1.csv.gz')?.body as Buffer).toString()).toBe(CSV_ONE);
    expect(gunzipSync(storage.objects.get('exports/x/2.csv.gz')?.body as Buffer).toString()).toBe(CSV_TWO);
  });

  it('stores the same bytes with the same SHA-256 when the same zip is archived again', async () => {
    const path = zipFile('again.zip', zipSync({ 'one.csv': Buffer.from(CSV_ONE.repeat(500)) }));
    const first = await archive(path, new MemoryStorage());
    const second = await archive(path, new MemoryStorage());
    expect(second).toEqual(first);
  });

  it('refuses a file that is not a zip', async () => {
    const storage = new MemoryStorage();
    const path = zipFile('html.zip', Buffer.from('<html>Access denied</html>'));
    await expect(archive(path, storage)).rejects.toBeInstanceOf(CorruptArchiveError);
    expect(storage.objects.size).toBe(0);
  });

  it('refuses an entry whose data does not match its CRC-32', async () => {
    // Prepare: a stored (uncompressed) entry with one byte of its data flipped.
    const bytes = zipSync({ 'one.csv': Buffer.from(CSV_ONE) }, { level: 0 });
    const at = Buffer.from(bytes).indexOf(Buffer.from('2,c'));
    bytes[at] = '7'.charCodeAt(0);
    const path = zipFile('crc.zip', bytes);

    // Act + Assess
    await expect(archive(path, new MemoryStorage())).rejects.toThrow(/CRC-32 mismatch/);
  });

  it('refuses a truncated zip (no central directory)', async () => {
    const bytes = zipSync({ 'one.csv': Buffer.from(CSV_ONE.repeat(100)) });
    const path = zipFile('short.zip', bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(archive(path, new MemoryStorage())).rejects.toBeInstanceOf(CorruptArchiveError);
  });
});
