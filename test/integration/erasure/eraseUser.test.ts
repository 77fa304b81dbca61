import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../cli/ExitCode';
import { runCli } from '../../../cli/runCli';
import { ArchiveUserEraser } from '../../../lib/archive/ArchiveUserEraser';
import { archivedFiles } from '../../../lib/archive/archivedFiles';
import { archiveExport } from '../../../lib/archive/archiveExport';
import type { ArchiveManifest } from '../../../lib/archive/archiveManifest';
import { ErasureStatus, rowsRemovedBy } from '../../../lib/exports/erasure/ErasureRecord';
import { requestErasure } from '../../../lib/exports/erasure/requestErasure';
import { type ErasureDependencies, runErasure } from '../../../lib/exports/erasure/runErasure';
import { pollExportForWorkflow } from '../../../lib/exports/lifecycle/pollExportForWorkflow';
import type { ExportRecord, ExportRequest } from '../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../lib/exports/record/ExportStatus';
import { commentRowsPartitionPrefix } from '../../../lib/lake/commentRowsTable';
import { S3ArchiveObjects } from '../../../lib/s3/S3ArchiveObjects';
import { S3ArchiveWriter } from '../../../lib/s3/S3ArchiveWriter';
import { LOCAL_S3_DATA_FOLDER } from '../../../lib/settings/localRuntimeLayout';
import { DynamoDbArchiveRecords } from '../../../lib/store/DynamoDbArchiveRecords';
import { DynamoDbErasureStore } from '../../../lib/store/DynamoDbErasureStore';
import { DynamoDbSuppressionList } from '../../../lib/store/DynamoDbSuppressionList';
import { DuckDbUserRowsQuery } from '../../../local/DuckDbUserRowsQuery';
import { type LocalS3, startLocalS3 } from '../../../local/localS3';
import { archiveDependenciesOn } from '../../support/archiveHarness';
import { type ExportHarness, startExportHarness } from '../../support/exportHarness';
import { archiveWriterParquet, exportRows } from '../../support/lakeFixtures';
import { startAndCreate } from '../../support/startAndCreate';
import { createTestIo } from '../../unit/cli/support/testIo';
import { RecordingErasureWorkflows } from '../../unit/lib/exports/erasure/fakeErasures';

const SPOT = 'sp_demo';
const DAY: ExportRequest = {
  kind: 'dateRange',
  from: '2026-10-30T00:00:00Z',
  until: '2026-10-31T00:00:00Z',
  maxRecordsInFile: 40,
};
const NEXT_DAY: ExportRequest = { ...DAY, from: '2026-10-31T00:00:00Z', until: '2026-11-01T00:00:00Z' };
const HOUR_MS = 60 * 60 * 1000;
const COMMENTS_PER_HOUR = 5;
/** The simulator's comments of one day's window, none deleted. */
const RECORDS = 24 * COMMENTS_PER_HOUR;

/** `openweb-exports query <sql> --data-dir <dataDir> --format json`, as JSON rows. */
async function query(dataDir: string, sql: string): Promise<Record<string, unknown>[]> {
  const io = createTestIo();
  const code = await runCli(['query', sql, '--data-dir', dataDir, '--format', 'json'], io);
  expect(code, io.stderrText()).toBe(ExitCode.SUCCESS);
  return JSON.parse(io.stdoutText()) as Record<string, unknown>[];
}

describe('erasing a user from every archived file and version of a spot', () => {
  let h: ExportHarness;
  let s3: LocalS3;
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'erasure-'));
    h = await startExportHarness({ simulator: { commentsPerHour: COMMENTS_PER_HOUR, deleteShare: 0 } });
    s3 = await startLocalS3({ directory: join(dataDir, LOCAL_S3_DATA_FOLDER) });
  });

  afterEach(async () => {
    await s3.close();
    await h.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const suppressions = () =>
    new DynamoDbSuppressionList({ client: h.table.documentClient, tableName: h.table.tableName });
  const objects = () => new S3ArchiveObjects({ client: s3.client, bucketName: s3.bucketName });

  function erasureDeps(): ErasureDependencies & {
    suppressions: DynamoDbSuppressionList;
    erasureWorkflows: RecordingErasureWorkflows;
    published: string[];
  } {
    const published: string[] = [];
    return {
      erasures: new DynamoDbErasureStore({ client: h.table.documentClient, tableName: h.table.tableName }),
      suppressions: suppressions(),
      // This test runs each erasure itself, as the workflow's task would.
      erasureWorkflows: new RecordingErasureWorkflows(),
      store: h.store,
      eraser: new ArchiveUserEraser({
        objects: objects(),
        writer: new S3ArchiveWriter({ client: s3.client, bucketName: s3.bucketName }),
        revisions: new DynamoDbArchiveRecords({
          client: h.table.documentClient,
          tableName: h.table.tableName,
        }),
      }),
      userRows: new DuckDbUserRowsQuery({ bucketDirectory: s3.bucketDirectory }),
      erasureEvents: { publishErasureCompleted: async (record) => void published.push(record.erasureId) },
      now: h.clock.now,
      published,
    };
  }

  /** An export of `request`, completed upstream and archived. */
  async function archivedExport(request: ExportRequest): Promise<ExportRecord> {
    const { record } = await startAndCreate(h.deps, { spotId: SPOT, request, source: 'api' });
    h.clock.advance(2 * HOUR_MS);
    const output = await pollExportForWorkflow(h.deps, {
      action: 'poll',
      spotId: SPOT,
      exportId: record.exportId,
      deadline: '2099-01-01T00:00:00Z',
    });
    expect(output.status).toBe(ExportStatus.COMPLETED);
    const archived = await archiveExport(archiveDependenciesOn(h, s3, { suppressions: suppressions() }), {
      spotId: SPOT,
      exportId: record.exportId,
    });
    expect(archived.outcome).toBe('archived');
    return archived.record as ExportRecord;
  }

  async function manifestOf(record: ExportRecord): Promise<ArchiveManifest> {
    const bytes = await objects().read(record.archive?.manifestKey as string);
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as ArchiveManifest;
  }

  it("leaves none of the user's rows in any file, version or table row, keeps every other row, and keeps them out later", async () => {
    // Prepare: three exports, two of them versions of one window.
    const first = await archivedExport(DAY);
    const second = await archivedExport(DAY);
    const third = await archivedExport(NEXT_DAY);
    const [top] = await query(
      dataDir,
      `select user_id, count(*) as n from comment_rows where export_id = '${first.exportId}' group by 1 order by 2 desc, 1 limit 1`,
    );
    const userId = top?.user_id as string;
    const [before] = await query(dataDir, 'select count(*) as n from comment_rows');
    const [ofUser] = await query(
      dataDir,
      `select count(*) as n from comment_rows where user_id = '${userId}'`,
    );
    const manifestsBefore = await Promise.all([first, second, third].map(manifestOf));
    const deps = erasureDeps();

    // Act
    const requested = await requestErasure(deps, { spotId: SPOT, userId });
    const again = await requestErasure(deps, { spotId: SPOT, userId });
    const run = await runErasure(deps, {
      spotId: SPOT,
      erasureId: requested.record.erasureId,
      runId: 'test',
      leaseSeconds: 600,
    });

    // Assess: one erasure, COMPLETED, its check in the record, announced once.
    const erasure = run.record;
    expect(again).toMatchObject({ created: false, record: { erasureId: requested.record.erasureId } });
    expect(erasure).toMatchObject({ status: ErasureStatus.COMPLETED, userId });
    expect(erasure?.verification).toMatchObject({ rowsFound: 0, tableRowsFound: 0, versionsLeft: 0 });
    expect(erasure?.verification?.checks.join('\n')).toContain(`user_id = '${userId}'`);
    // The table's question, as it was asked, and its answer.
    expect(erasure?.verification?.checks).toContain(
      `DuckDB: SELECT count(*) AS user_rows FROM comment_rows WHERE spot = ? AND user_id = ? with spot = '${SPOT}', user_id = '${userId}': 0`,
    );
    expect(deps.published).toEqual([requested.record.erasureId]);
    expect(JSON.stringify(erasure)).not.toMatch(/user_name|content/);
    // No row of the user on DuckDB; every other row still there.
    const removed = rowsRemovedBy(erasure as NonNullable<typeof erasure>);
    expect(removed).toBe(Number(ofUser?.n));
    expect(removed).toBeGreaterThan(0);
    expect(
      await query(dataDir, `select count(*) as n from comment_rows where user_id = '${userId}'`),
    ).toEqual([{ n: 0 }]);
    expect(await query(dataDir, 'select count(*) as n from comment_rows')).toEqual([
      { n: Number(before?.n) - removed },
    ]);
    // Every rewritten file: its manifest says its new checksum and rows, and /files downloads those bytes.
    const rewrittenExports = new Set(erasure?.files.map((file) => file.exportId));
    expect(rewrittenExports.size).toBeGreaterThanOrEqual(2);
    for (const [index, record] of [first, second, third].entries()) {
      const manifest = await manifestOf(record);
      const rowsBefore = (manifestsBefore[index] as ArchiveManifest).files.reduce(
        (sum, file) => sum + file.rows,
        0,
      );
      const rowsNow = manifest.files.reduce((sum, file) => sum + file.rows, 0);
      const removedHere = erasure?.files
        .filter((file) => file.exportId === record.exportId)
        .reduce((sum, file) => sum + file.rowsRemoved, 0);
      expect(rowsNow).toBe(rowsBefore - (removedHere ?? 0));
      const listed = await archivedFiles(
        {
          store: h.store,
          archiveReader: s3.archiveReader(),
          archiveSettings: { urlExpirySeconds: 60 },
          now: h.clock.now,
        },
        SPOT,
        record.exportId,
      );
      for (const file of manifest.files) {
        const item = listed?.items.find((candidate) => candidate.key === file.key);
        expect(item?.sha256).toBe(file.sha256);
        const downloaded = Buffer.from(await (await fetch(item?.url as string)).arrayBuffer());
        expect(createHash('sha256').update(downloaded).digest('hex')).toBe(file.sha256);
      }
      const stored = await h.store.getExport(SPOT, record.exportId);
      expect(stored?.archive?.rows).toBe(rowsNow);
    }
    // The old objects, every version, are gone; the new ones have no older version.
    for (const file of erasure?.files ?? []) {
      expect(await objects().versionsOf(file.previousKey)).toEqual([]);
      expect(await objects().versionsOf(file.previousParquetKey as string)).toEqual([]);
      expect((await objects().versionsOf(file.key)).map((version) => version.isLatest)).toEqual([true]);
    }

    // Act: a later export that holds the user is archived without their rows.
    const later = await archivedExport(DAY);

    // Assess
    expect(later.archive?.rowsSuppressed).toBeGreaterThan(0);
    const laterManifest = await manifestOf(later);
    expect(laterManifest.files.every((file) => file.rowsSuppressed !== undefined)).toBe(true);
    expect(laterManifest.files.reduce((sum, file) => sum + (file.rowsSuppressed ?? 0), 0)).toBe(
      later.archive?.rowsSuppressed,
    );
    expect(later.archive?.rows).toBe(RECORDS - (later.archive?.rowsSuppressed ?? 0));
    expect(
      await query(dataDir, `select count(*) as n from comment_rows where user_id = '${userId}'`),
    ).toEqual([{ n: 0 }]);
  }, 180_000);

  it('completes an erasure of an unknown user with nothing rewritten', async () => {
    // Prepare
    await archivedExport(DAY);
    const deps = erasureDeps();
    const { record } = await requestErasure(deps, { spotId: SPOT, userId: 'u_nobody' });

    // Act
    const run = await runErasure(deps, {
      spotId: SPOT,
      erasureId: record.erasureId,
      runId: 'test',
      leaseSeconds: 600,
    });

    // Assess
    expect(run.record).toMatchObject({
      status: ErasureStatus.COMPLETED,
      files: [],
      exportsDone: [expect.any(String)],
      verification: { rowsFound: 0, versionsLeft: 0, tableRowsFound: 0 },
    });
    expect(run.record?.filesRead).toBeGreaterThan(0);
  });

  it('fails, saying why, when the table still holds the user: a Parquet file no manifest names', async () => {
    // Prepare: an archived export, and a stray Parquet object of the table with one row of its top user.
    const archived = await archivedExport(DAY);
    const [top] = await query(
      dataDir,
      `select user_id, count(*) as n from comment_rows where export_id = '${archived.exportId}' group by 1 order by 2 desc, 1 limit 1`,
    );
    const userId = top?.user_id as string;
    const stray = exportRows(
      [{ id: 'stray-1', userId, status: 'approved', writtenAt: '2026-10-30T10:00:00.000Z' }],
      {
        spotId: SPOT,
        exportId: 'stray-export',
        windowFrom: DAY.kind === 'dateRange' ? DAY.from : null,
        windowUntil: DAY.kind === 'dateRange' ? DAY.until : null,
        exportedAt: '2026-10-31T01:00:00.000Z',
      },
    );
    await new S3ArchiveWriter({ client: s3.client, bucketName: s3.bucketName }).put(
      `${commentRowsPartitionPrefix(SPOT, '2026-10-30')}stray-export-1.parquet`,
      Readable.from([archiveWriterParquet(stray)]),
      { contentType: 'application/vnd.apache.parquet' },
    );
    const deps = erasureDeps();
    const { record } = await requestErasure(deps, { spotId: SPOT, userId });

    // Act
    const run = await runErasure(deps, {
      spotId: SPOT,
      erasureId: record.erasureId,
      runId: 'test',
      leaseSeconds: 600,
    });

    // Assess: the archived files are clean, the table is not: FAILED, the reason and the check say so.
    expect(run.record).toMatchObject({
      status: ErasureStatus.FAILED,
      verification: { rowsFound: 0, versionsLeft: 0, tableRowsFound: 1 },
    });
    expect(run.record?.reason).toBe(
      'the check at the end found 0 rows in the files, 1 in the table and 0 old versions',
    );
    expect(run.record?.verification?.checks).toContain(
      `DuckDB: SELECT count(*) AS user_rows FROM comment_rows WHERE spot = ? AND user_id = ? with spot = '${SPOT}', user_id = '${userId}': 1`,
    );
    expect(run.record?.completedAt).toBeUndefined();
    expect(deps.published).toEqual([]);
  }, 120_000);
});
