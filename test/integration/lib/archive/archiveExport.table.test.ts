import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../../cli/ExitCode';
import { runCli } from '../../../../cli/runCli';
import { type ArchiveDependencies, archiveExport } from '../../../../lib/archive/archiveExport';
import type { ArchiveManifest } from '../../../../lib/archive/archiveManifest';
import type { ArchiveWriter, TablePartitions } from '../../../../lib/archive/ports';
import { loadConfig } from '../../../../lib/config';
import { pollExportForWorkflow } from '../../../../lib/exports/lifecycle/pollExportForWorkflow';
import { ArchiveStatus } from '../../../../lib/exports/record/ExportArchive';
import type { ExportRecord } from '../../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../../lib/exports/record/ExportStatus';
import { CatalogPartitionError } from '../../../../lib/glue/errors';
import { exportView } from '../../../../lib/http/exportView';
import { createLogger } from '../../../../lib/observability/createLogger';
import { S3ArchiveWriter } from '../../../../lib/s3/S3ArchiveWriter';
import { FileCredentialsProvider } from '../../../../lib/secrets/FileCredentialsProvider';
import { LOCAL_S3_DATA_FOLDER } from '../../../../lib/settings/localRuntimeLayout';
import { InMemoryExportMetrics } from '../../../../local/InMemoryExportMetrics';
import { LocalExportEvents } from '../../../../local/LocalExportEvents';
import { localDependencies } from '../../../../local/localDependencies';
import { type LocalS3, startLocalS3 } from '../../../../local/localS3';
import { LOCAL_PROJECT_ROOT } from '../../../../local/projectRoot';
import { ARCHIVED_DAY, archiveDependenciesOn, bytesOf } from '../../../support/archiveHarness';
import { type ExportHarness, startExportHarness } from '../../../support/exportHarness';
import { readCommentsArchive } from '../../../support/readCommentsArchive';
import { startAndCreate } from '../../../support/startAndCreate';
import { createTestIo } from '../../../unit/cli/support/testIo';

const SPOT = 'sp_demo';
const DAY = ARCHIVED_DAY;
const PARTITION_DATE = '2026-10-30';
const HOUR_MS = 60 * 60 * 1000;
/** The simulator holds this many comments an hour, none deleted: the day's export holds 24 times as many. */
const COMMENTS_PER_HOUR = 10;
const RECORDS = COMMENTS_PER_HOUR * 24;

/** `openweb-exports query <sql> --data-dir <dataDir> --format json`, as JSON rows. */
async function query(dataDir: string, sql: string): Promise<Record<string, unknown>[]> {
  const io = createTestIo();
  const code = await runCli(['query', sql, '--data-dir', dataDir, '--format', 'json'], io);
  expect(code, io.stderrText()).toBe(ExitCode.SUCCESS);
  return JSON.parse(io.stdoutText()) as Record<string, unknown>[];
}

/** The table's partitions, recording each registration in `log`. */
function recordingPartitions(log: string[]): TablePartitions {
  return {
    register: async (spotId, date) => {
      log.push(`register ${spotId} ${date}`);
    },
  };
}

/** `writer`, recording when each upload starts and ends in `log`. */
function recordingWriter(writer: ArchiveWriter, log: string[]): ArchiveWriter {
  return {
    put: async (key, body, info) => {
      log.push(`start ${key}`);
      await writer.put(key, body, info);
      log.push(`end ${key}`);
    },
  };
}

describe("an archived export in the comment_rows table, the S3 stand-in's files and the CLI's DuckDB", () => {
  let h: ExportHarness;
  let s3: LocalS3;
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'archive-table-'));
    h = await startExportHarness({ simulator: { commentsPerHour: COMMENTS_PER_HOUR, deleteShare: 0 } });
    // The local runtime's layout: the stand-in's objects under <data dir>/s3, where `query` reads them.
    s3 = await startLocalS3({ directory: join(dataDir, LOCAL_S3_DATA_FOLDER) });
  });

  afterEach(async () => {
    await s3.close();
    await h.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A COMPLETED export of the simulator: the day's RECORDS records in files of 100. */
  async function completedExport(): Promise<ExportRecord> {
    const { record } = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    h.clock.advance(2 * HOUR_MS);
    const output = await pollExportForWorkflow(h.deps, {
      action: 'poll',
      spotId: SPOT,
      exportId: record.exportId,
      deadline: '2099-01-01T00:00:00Z',
    });
    expect(output.status).toBe(ExportStatus.COMPLETED);
    return (await h.store.getExport(SPOT, record.exportId)) as ExportRecord;
  }

  /** The archive's dependencies as `npm start` wires them (localDependencies), on this test's table and stand-in. */
  function localArchiveDependencies(env: Record<string, string> = {}): ArchiveDependencies {
    const config = loadConfig({
      TABLE_NAME: h.table.tableName,
      OPENWEB_AUTH_BASE_URL: h.simulator.authBaseUrl,
      OPENWEB_EXPORT_BASE_URL: h.simulator.exportBaseUrl,
      LOCAL_SECRETS_FILE: join(LOCAL_PROJECT_ROOT, 'local/demo-spots.json'),
      ...env,
    });
    const { archiving } = localDependencies({
      config,
      timeScale: 1,
      documentClient: h.table.documentClient,
      credentials: new FileCredentialsProvider(join(LOCAL_PROJECT_ROOT, 'local/demo-spots.json')),
      workflows: h.workflows,
      // No erasure is asked for here.
      erasureWorkflows: { start: async () => {} },
      events: new LocalExportEvents(),
      metrics: new InMemoryExportMetrics(),
      logger: createLogger({ logLevel: 'SILENT' }),
      archiveStorage: s3,
    });
    if (archiving === undefined) throw new Error('the local runtime archives when given the S3 stand-in');
    return archiving.archive;
  }

  /** The archive's dependencies on this test's table and stand-in, with the given partitions and writer. */
  function archiveDeps(overrides: Partial<ArchiveDependencies>): ArchiveDependencies {
    return archiveDependenciesOn(h, s3, { partitions: recordingPartitions([]), ...overrides });
  }

  async function storedKeys(): Promise<string[]> {
    const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucketName }));
    return (listed.Contents ?? []).map(({ Key }) => Key as string);
  }

  async function storedJson<T>(key: string): Promise<T> {
    const object = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucketName, Key: key }));
    return JSON.parse((await bytesOf(object.Body as Readable)).toString('utf8')) as T;
  }

  it("answers `select count(*) from comments` with the CSVs' row count once npm start's archive has run", async () => {
    // Prepare: the rows the upstream's CSVs hold, read from the links themselves.
    const record = await completedExport();
    const served = await Promise.all(
      record.links.map(async (link) =>
        readCommentsArchive(new Uint8Array(await (await fetch(link)).arrayBuffer())),
      ),
    );
    const csvRows = served.flatMap((file) => file.rows);
    const header = served[0]?.header ?? [];
    const column = (name: string) => header.indexOf(name);

    // Act
    const result = await archiveExport(localArchiveDependencies(), {
      spotId: SPOT,
      exportId: record.exportId,
    });
    const comments = await query(dataDir, 'select count(*) as n from comments');
    const rows = await query(
      dataDir,
      `select count(*) as n from comment_rows where spot = '${SPOT}' and "date" = '${PARTITION_DATE}' and export_id = '${record.exportId}' and unparsed_values is null`,
    );
    const typed = await query(dataDir, 'select id, rank, written_at from comment_rows order by id');

    // Assess
    expect(result.outcome).toBe('archived');
    expect(csvRows).toHaveLength(RECORDS);
    expect(comments).toEqual([{ n: csvRows.length }]);
    expect(rows).toEqual([{ n: csvRows.length }]);
    const expected = csvRows
      .map((row) => ({
        id: row[column('id')],
        rank: Number(row[column('rank')]),
        writtenAtMs: Date.parse(row[column('written_at')] as string),
      }))
      .sort((a, b) => ((a.id as string) < (b.id as string) ? -1 : 1));
    expect(
      typed.map((row) => ({
        id: row.id,
        rank: row.rank,
        writtenAtMs: Date.parse(`${(row.written_at as string).replace(' ', 'T')}Z`),
      })),
    ).toEqual(expected);
  });

  it("registers the export's partition once its Parquet files are stored, before the manifest is written", async () => {
    // Prepare
    const record = await completedExport();
    const log: string[] = [];
    const deps = archiveDeps({
      archiveWriter: recordingWriter(
        new S3ArchiveWriter({ client: s3.client, bucketName: s3.bucketName }),
        log,
      ),
      partitions: recordingPartitions(log),
    });

    // Act
    const result = await archiveExport(deps, { spotId: SPOT, exportId: record.exportId });

    // Assess
    const manifestKey = result.record?.archive?.manifestKey as string;
    const registered = log.indexOf(`register ${SPOT} ${PARTITION_DATE}`);
    const parquetEnds = log.filter((entry) => entry.startsWith('end ') && entry.endsWith('.parquet'));
    expect(result.outcome).toBe('archived');
    expect(log.filter((entry) => entry.startsWith('register'))).toEqual([
      `register ${SPOT} ${PARTITION_DATE}`,
    ]);
    expect(parquetEnds).toHaveLength(3);
    for (const end of parquetEnds) expect(log.indexOf(end)).toBeLessThan(registered);
    expect(log.indexOf(`start ${manifestKey}`)).toBeGreaterThan(registered);
  });

  it('archives with the catalog failing: the files ARCHIVED, the catalog PENDING and visible, the rows read from the keys; the next archive catches it up', async () => {
    // Prepare: Glue times out (OperationTimeoutException: a client fault the SDK does not retry).
    const first = await completedExport();
    const timingOut: TablePartitions = {
      register: async (spotId, date) => {
        throw new CatalogPartitionError(
          { databaseName: 'openwebexports', tableName: 'comment_rows', values: [spotId, date] },
          { cause: Object.assign(new Error('Operation timed out'), { name: 'OperationTimeoutException' }) },
        );
      },
    };
    const log: string[] = [];
    const { archives } = archiveDeps({});

    // Act
    const refused = await archiveExport(archiveDeps({ partitions: timingOut }), {
      spotId: SPOT,
      exportId: first.exportId,
    });
    const waiting = await archives.findCatalogPending(10);
    const rows = await query(dataDir, 'select count(*) as n from comment_rows');
    const second = await completedExport();
    const next = await archiveExport(archiveDeps({ partitions: recordingPartitions(log) }), {
      spotId: SPOT,
      exportId: second.exportId,
    });
    const caughtUp = await h.store.getExport(SPOT, first.exportId);

    // Assess: ARCHIVED with its manifest, never retried or FAILED, the catalog's state on the record and in the view.
    expect(refused.outcome).toBe('archived');
    expect(refused.record?.archive).toMatchObject({
      status: ArchiveStatus.ARCHIVED,
      catalog: 'PENDING',
      catalogReason: expect.stringContaining('OperationTimeoutException'),
    });
    expect(await storedJson<ArchiveManifest>(refused.record?.archive?.manifestKey as string)).toMatchObject({
      files: expect.any(Array),
    });
    expect(exportView(refused.record as ExportRecord).archive).toMatchObject({
      status: 'ARCHIVED',
      files: 3,
      rows: RECORDS,
      catalog: 'PENDING',
    });
    expect(waiting.map((record) => record.exportId)).toEqual([first.exportId]);
    // Nothing registered, and the files are in the table all the same: the engine reads the keys.
    expect(rows).toEqual([{ n: RECORDS }]);
    // The catalog took the next export's partition, then the one it refused.
    expect(next.record?.archive?.catalog).toBe('REGISTERED');
    expect(log).toEqual([`register ${SPOT} ${PARTITION_DATE}`, `register ${SPOT} ${PARTITION_DATE}`]);
    expect(caughtUp?.archive?.catalog).toBe('REGISTERED');
    expect(caughtUp?.archive?.catalogReason).toBeUndefined();
    expect(await archives.findCatalogPending(10)).toEqual([]);
  });

  it('with ARCHIVE_WRITE_TABLE=false stores only the .csv.gz files and the manifest, and registers no partition', async () => {
    // Prepare: npm start's wiring, read from the variable, with the catalog recording registrations.
    const record = await completedExport();
    const log: string[] = [];
    const deps: ArchiveDependencies = {
      ...localArchiveDependencies({ ARCHIVE_WRITE_TABLE: 'false' }),
      partitions: recordingPartitions(log),
    };

    // Act
    const result = await archiveExport(deps, { spotId: SPOT, exportId: record.exportId });
    const keys = await storedKeys();
    const comments = await query(dataDir, 'select count(*) as n from comments');

    // Assess
    const manifestKey = result.record?.archive?.manifestKey as string;
    const prefix = `exports/spot=${SPOT}/date=${PARTITION_DATE}/${record.exportId}/`;
    expect(result.outcome).toBe('archived');
    expect(result.record?.archive).toMatchObject({ fileCount: 3, rows: RECORDS });
    expect(keys.sort()).toEqual(
      [`${prefix}1.csv.gz`, `${prefix}2.csv.gz`, `${prefix}3.csv.gz`, manifestKey].sort(),
    );
    expect(manifestKey).toBe(`${prefix}_manifest.json`);
    expect(log).toEqual([]);
    const manifest = await storedJson<ArchiveManifest>(manifestKey);
    expect(Object.keys(manifest)).toEqual(['files']);
    expect(manifest.files.map((file) => [file.key, file.rows, file.parquet])).toEqual([
      [`${prefix}1.csv.gz`, 100, undefined],
      [`${prefix}2.csv.gz`, 100, undefined],
      [`${prefix}3.csv.gz`, RECORDS - 200, undefined],
    ]);
    expect(comments).toEqual([{ n: 0 }]);
  });
});
