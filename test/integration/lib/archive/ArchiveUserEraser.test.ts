import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArchiveUserEraser } from '../../../../lib/archive/ArchiveUserEraser';
import type { ArchiveManifest } from '../../../../lib/archive/archiveManifest';
import { storeCsv } from '../../../../lib/archive/archiveZipFile';
import type { ArchiveRevisions } from '../../../../lib/archive/ports';
import type { ErasedFile } from '../../../../lib/exports/erasure/ErasureRecord';
import {
  type ArchivedFile,
  ArchiveStatus,
  type ExportArchive,
} from '../../../../lib/exports/record/ExportArchive';
import type { ExportRecord } from '../../../../lib/exports/record/ExportRecord';
import { S3ArchiveObjects } from '../../../../lib/s3/S3ArchiveObjects';
import { S3ArchiveWriter } from '../../../../lib/s3/S3ArchiveWriter';
import { type LocalS3, startLocalS3 } from '../../../../local/localS3';
import { captureError } from '../../../support/captureError';

const PREFIX = 'exports/spot=sp_demo/date=2026-10-30/exp_1/';
const MANIFEST_KEY = `${PREFIX}_manifest.json`;
const FILES = {
  '1.csv': 'id,user_id,content\r\n1,u_1,"a\r\nb"\r\n2,u_2,c\r\n3,u_1,d\r\n',
  '2.csv': 'id,user_id,content\r\n4,u_1,only the user\r\n',
  '3.csv': 'id,user_id,content\r\n5,u_3,never the user\r\n',
};

describe("ArchiveUserEraser on the S3 stand-in's versioned bucket", () => {
  let s3: LocalS3;
  let objects: S3ArchiveObjects;
  let writer: S3ArchiveWriter;
  let revised: ExportArchive[];
  const revisions: ArchiveRevisions = {
    revise: async (_spotId, _exportId, archive) => {
      revised.push(archive);
      return {} as ExportRecord;
    },
  };

  beforeEach(async () => {
    s3 = await startLocalS3();
    objects = new S3ArchiveObjects({ client: s3.client, bucketName: s3.bucketName });
    writer = new S3ArchiveWriter({ client: s3.client, bucketName: s3.bucketName });
    revised = [];
  });

  afterEach(async () => {
    await s3.close();
  });

  /** An ARCHIVED export of FILES as the archive stores it, with Parquet when `writeTable`. */
  async function archivedExport(writeTable: boolean): Promise<ExportRecord> {
    const files: ArchivedFile[] = [];
    for (const [index, [name, text]] of Object.entries(FILES).entries()) {
      const key = `${PREFIX}${index + 1}.csv.gz`;
      const { rowsLeftOut: _rowsLeftOut, ...stored } = await storeCsv({
        source: Readable.from([Buffer.from(text)]),
        key,
        storage: writer,
        ...(writeTable && {
          parquet: {
            delimiter: ',',
            key: `tables/comments/spot=sp_demo/date=2026-10-30/exp_1-${index + 1}.parquet`,
            lineage: { exportId: 'exp_1', sourceFile: name },
          },
        }),
        label: name,
      });
      files.push({ name, key, sourceLink: 1, ...stored });
    }
    const manifest: ArchiveManifest = { files };
    await writer.put(MANIFEST_KEY, Readable.from([Buffer.from(JSON.stringify(manifest))]), {
      contentType: 'application/json',
    });
    return {
      spotId: 'sp_demo',
      exportId: 'exp_1',
      request: { kind: 'dateRange', from: '2026-10-30T00:00:00Z', until: '2026-10-31T00:00:00Z' },
      archive: { status: ArchiveStatus.ARCHIVED, files, manifestKey: MANIFEST_KEY, fileCount: files.length },
    } as unknown as ExportRecord;
  }

  async function manifest(): Promise<ArchiveManifest> {
    return JSON.parse(Buffer.from(await objects.read(MANIFEST_KEY)).toString()) as ArchiveManifest;
  }

  it('rewrites only the files holding the user, a file of only theirs to its header, and switches the manifest', async () => {
    // Prepare
    const record = await archivedExport(true);
    const eraser = new ArchiveUserEraser({ objects, writer, revisions });

    // Act
    const result = await eraser.eraseFromExport(record, 'u_1', [], async () => {});

    // Assess
    expect(result.filesRead).toBe(3);
    expect(
      result.rewritten.map(({ previousKey, key, rowsRemoved, rows }) => ({
        previousKey,
        key,
        rowsRemoved,
        rows,
      })),
    ).toEqual([
      { previousKey: `${PREFIX}1.csv.gz`, key: `${PREFIX}1.r1.csv.gz`, rowsRemoved: 2, rows: 1 },
      { previousKey: `${PREFIX}2.csv.gz`, key: `${PREFIX}2.r1.csv.gz`, rowsRemoved: 1, rows: 0 },
    ]);
    const files = (await manifest()).files;
    expect(files.map((file) => file.key)).toEqual([
      `${PREFIX}1.r1.csv.gz`,
      `${PREFIX}2.r1.csv.gz`,
      `${PREFIX}3.csv.gz`,
    ]);
    for (const file of files) {
      const stored = Buffer.from(await objects.read(file.key));
      expect(createHash('sha256').update(stored).digest('hex')).toBe(file.sha256);
      expect(file.parquet?.rows).toBe(file.rows);
    }
    expect(gunzipSync(Buffer.from(await objects.read(`${PREFIX}1.r1.csv.gz`))).toString()).toBe(
      'id,user_id,content\r\n2,u_2,c\r\n',
    );
    expect(gunzipSync(Buffer.from(await objects.read(`${PREFIX}2.r1.csv.gz`))).toString()).toBe(
      'id,user_id,content\r\n',
    );
    expect(revised).toMatchObject([{ status: ArchiveStatus.ARCHIVED, rows: 2, fileCount: 3 }]);
    for (const file of result.rewritten) {
      expect(await objects.versionsOf(file.previousKey)).toEqual([]);
      expect(await objects.versionsOf(file.previousParquetKey as string)).toEqual([]);
    }
    expect((await objects.versionsOf(MANIFEST_KEY)).map((version) => version.isLatest)).toEqual([true]);
    expect(
      await eraser.checkExport(
        record,
        'u_1',
        result.rewritten.map((file) => file.previousKey),
      ),
    ).toEqual({
      filesChecked: 3,
      rowsFound: 0,
      versionsLeft: 0,
    });
  });

  it('keeps the old files while the manifest names them when a run dies, and a second run finishes and cleans', async () => {
    // Prepare: the run dies once the new files are written, before the manifest names them.
    const record = await archivedExport(false);
    const eraser = new ArchiveUserEraser({ objects, writer, revisions });
    let recorded: ErasedFile[] = [];
    const crash = await captureError(
      eraser.eraseFromExport(record, 'u_1', [], async (files) => {
        recorded = files;
        throw new Error('killed');
      }),
    );
    const halfway = await manifest();
    const oldVersionsHalfway = await objects.versionsOf(`${PREFIX}1.csv.gz`);

    // Act
    const resumed = await eraser.eraseFromExport(record, 'u_1', recorded, async () => {});

    // Assess: the reader saw the old files with the old manifest, then the new with the new.
    expect(crash.message).toBe('killed');
    expect(halfway.files.map((file) => file.key)).toEqual([
      `${PREFIX}1.csv.gz`,
      `${PREFIX}2.csv.gz`,
      `${PREFIX}3.csv.gz`,
    ]);
    expect(oldVersionsHalfway).toHaveLength(1);
    expect(resumed.rewritten.map((file) => file.key)).toEqual(recorded.map((file) => file.key));
    expect((await manifest()).files.map((file) => file.key)).toEqual([
      `${PREFIX}1.r1.csv.gz`,
      `${PREFIX}2.r1.csv.gz`,
      `${PREFIX}3.csv.gz`,
    ]);
    expect(await objects.versionsOf(`${PREFIX}1.csv.gz`)).toEqual([]);
    expect((await objects.versionsOf(`${PREFIX}1.r1.csv.gz`)).map((version) => version.isLatest)).toEqual([
      true,
    ]);
    const again = await eraser.eraseFromExport(record, 'u_1', resumed.rewritten, async () => {});
    expect(again.rewritten).toEqual([]);
  });

  it('names the new files in the record when a run died between the manifest and the record, before the old go', async () => {
    // Prepare: the run dies once the manifest names the new files, before the record does.
    const record = await archivedExport(false);
    let recorded: ErasedFile[] = [];
    const dying = new ArchiveUserEraser({
      objects,
      writer,
      revisions: {
        revise: async () => {
          throw new Error('killed');
        },
      },
    });
    const crash = await captureError(
      dying.eraseFromExport(record, 'u_1', [], async (files) => {
        recorded = files;
      }),
    );

    // Act: the next run reads the record as it was, and the new manifest.
    const resumed = await new ArchiveUserEraser({ objects, writer, revisions }).eraseFromExport(
      record,
      'u_1',
      recorded,
      async () => {},
    );

    // Assess: nothing left to rewrite, the record revised to the manifest's files, then the old gone.
    expect(crash.message).toBe('killed');
    expect(resumed.rewritten).toEqual([]);
    expect(revised).toHaveLength(1);
    expect(revised[0]?.files.map((file) => file.key)).toEqual([
      `${PREFIX}1.r1.csv.gz`,
      `${PREFIX}2.r1.csv.gz`,
      `${PREFIX}3.csv.gz`,
    ]);
    expect(revised[0]).toMatchObject({ status: ArchiveStatus.ARCHIVED, rows: 2, fileCount: 3 });
    expect(await objects.versionsOf(`${PREFIX}1.csv.gz`)).toEqual([]);
  });
});
