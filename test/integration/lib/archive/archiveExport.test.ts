import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  archivedFiles,
  FILES_PAGE_SIZE,
  InvalidFilesTokenError,
} from '../../../../lib/archive/archivedFiles';
import {
  type ArchiveDependencies,
  archiveExport,
  failArchive,
  workflowRunId,
} from '../../../../lib/archive/archiveExport';
import { ArchiveRetryableError } from '../../../../lib/archive/errors';
import type { ArchiveRecords, ArchiveWriter } from '../../../../lib/archive/ports';
import { pollExportForWorkflow } from '../../../../lib/exports/lifecycle/pollExportForWorkflow';
import { type ArchivedFile, ArchiveStatus } from '../../../../lib/exports/record/ExportArchive';
import type { ExportRecord } from '../../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../../lib/exports/record/ExportStatus';
import { exportView } from '../../../../lib/http/exportView';
import { S3ArchiveWriter } from '../../../../lib/s3/S3ArchiveWriter';
import { DynamoDbArchiveRecords } from '../../../../lib/store/DynamoDbArchiveRecords';
import { exportKey } from '../../../../lib/store/tableKeys';
import { type LocalS3, startLocalS3 } from '../../../../local/localS3';
import {
  ARCHIVED_DAY,
  archiveDependenciesOn,
  bucketObjects,
  bytesOf,
  completedExportOn,
  testArchiveSettings,
} from '../../../support/archiveHarness';
import { captureError } from '../../../support/captureError';
import { dynamoDbItemBytes } from '../../../support/dynamoDbItemBytes';
import { type ExportHarness, startExportHarness } from '../../../support/exportHarness';
import { parseCsv } from '../../../support/parseCsv';
import { readCommentsArchive } from '../../../support/readCommentsArchive';
import { startAndCreate } from '../../../support/startAndCreate';

const SPOT = 'sp_demo';
const OTHER_SPOT = 'sp_other';
const DAY = ARCHIVED_DAY;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** The simulator holds this many comments an hour, none deleted: the day's export holds 24 times as many. */
const COMMENTS_PER_HOUR = 10;
const RECORDS = COMMENTS_PER_HOUR * 24;

/** A download host under the test's control: answers each request with what `answer` says. */
async function startLinkHost(answer: (path: string) => { status: number; body?: Uint8Array }) {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const { status, body } = answer(request.url ?? '');
    response.writeHead(status, { 'content-type': 'application/zip' });
    response.end(body === undefined ? undefined : Buffer.from(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('archiving an export to S3 (the in-process stand-in), dynalite and the simulator', () => {
  let h: ExportHarness;
  let s3: LocalS3;
  let archived: ExportRecord[];

  beforeEach(async () => {
    h = await startExportHarness({ simulator: { commentsPerHour: COMMENTS_PER_HOUR, deleteShare: 0 } });
    s3 = await startLocalS3();
    archived = [];
  });

  afterEach(async () => {
    await s3.close();
    await h.close();
  });

  function archiveDeps(
    overrides: Partial<ArchiveDependencies> = {},
    exportBaseUrl = h.simulator.exportBaseUrl,
  ): ArchiveDependencies {
    return archiveDependenciesOn(h, s3, {
      archiveEvents: { publishArchived: async (record) => void archived.push(record) },
      archiveSettings: testArchiveSettings(exportBaseUrl),
      ...overrides,
    });
  }

  /** A COMPLETED export of the simulator, the day's RECORDS records in files of 100. */
  async function completedExport(spotId = SPOT): Promise<ExportRecord> {
    const { record } = await startAndCreate(h.deps, { spotId, request: DAY, source: 'api' });
    h.clock.advance(2 * HOUR_MS);
    const output = await pollExportForWorkflow(h.deps, {
      action: 'poll',
      spotId,
      exportId: record.exportId,
      deadline: '2099-01-01T00:00:00Z',
    });
    expect(output.status).toBe(ExportStatus.COMPLETED);
    return (await h.store.getExport(spotId, record.exportId)) as ExportRecord;
  }

  /** A COMPLETED export whose links point at `host` (paths /1.zip …). */
  function completedExportWithLinks(host: string, count: number): Promise<ExportRecord> {
    const links = Array.from({ length: count }, (_, index) => `${host}/${index + 1}.zip`);
    return completedExportOn(h, { spotId: SPOT, request: DAY, links });
  }

  /**
   * The objects are the files and their Parquet copies, as recorded, and the manifest listing exactly
   * them (with the Parquet schema) beside them.
   */
  function expectObjectsMatch(files: readonly ArchivedFile[], objects: Map<string, Buffer>): void {
    const manifestKeys = [...objects.keys()].filter((key) => key.endsWith('/_manifest.json'));
    expect(manifestKeys).toHaveLength(1);
    const manifestKey = manifestKeys[0] as string;
    expect(JSON.parse((objects.get(manifestKey) as Buffer).toString('utf8'))).toEqual({
      files,
      parquetSchema: expect.objectContaining({ table: 'comment_rows' }),
    });
    const stored = files.flatMap((file) => [file, ...(file.parquet === undefined ? [] : [file.parquet])]);
    expect([...objects.keys()].filter((key) => key !== manifestKey).sort()).toEqual(
      stored.map((file) => file.key).sort(),
    );
    for (const file of stored) {
      const body = objects.get(file.key) as Buffer;
      expect(body.length, file.key).toBe(file.bytes);
      expect(createHash('sha256').update(body).digest('hex'), file.key).toBe(file.sha256);
    }
  }

  it('stores every file of every link gzip-compressed under the spot/date layout, with checksums and rows', async () => {
    // Prepare
    const record = await completedExport();
    const served = await Promise.all(
      record.links.map(async (link) =>
        readCommentsArchive(new Uint8Array(await (await fetch(link)).arrayBuffer())),
      ),
    );

    // Act
    const result = await archiveExport(archiveDeps(), { spotId: SPOT, exportId: record.exportId });

    // Assess
    expect(result.outcome).toBe('archived');
    const stored = await h.store.getExport(SPOT, record.exportId);
    expect(stored?.status).toBe(ExportStatus.COMPLETED);
    expect(stored?.archive).toMatchObject({ status: ArchiveStatus.ARCHIVED, archivedAt: expect.any(String) });
    expect(stored?.archive).not.toHaveProperty('runId');
    const files = stored?.archive?.files ?? [];
    expect(files).toHaveLength(3);
    expect(files.map((file) => file.key)).toEqual(
      [1, 2, 3].map((n) => `exports/spot=${SPOT}/date=2026-10-30/${record.exportId}/${n}.csv.gz`),
    );
    expect(files.map((file) => file.rows)).toEqual([100, 100, RECORDS - 200]);
    expect(files.map((file) => file.sourceLink)).toEqual([1, 2, 3]);
    const objects = await bucketObjects(s3);
    expectObjectsMatch(files, objects);
    files.forEach((file, index) => {
      const csv = gunzipSync(objects.get(file.key) as Buffer).toString('utf8');
      const [header, ...rows] = parseCsv(csv, ',');
      expect(file.name).toBe(served[index]?.fileName);
      expect(header).toEqual(served[index]?.header);
      expect(rows).toEqual(served[index]?.rows);
    });
    expect(archived.map((event) => event.exportId)).toEqual([record.exportId]);
  });

  it('records FAILED with the reason when the links have expired, and the export stays COMPLETED', async () => {
    // Prepare: the upstream's links last a week.
    const record = await completedExport();
    h.clock.advance(8 * DAY_MS);

    // Act
    const result = await archiveExport(archiveDeps(), { spotId: SPOT, exportId: record.exportId });

    // Assess
    expect(result.outcome).toBe('failed');
    const stored = await h.store.getExport(SPOT, record.exportId);
    expect(stored?.status).toBe(ExportStatus.COMPLETED);
    expect(stored?.archive).toMatchObject({ status: ArchiveStatus.FAILED, files: [] });
    expect(stored?.archive?.reason).toMatch(/link 1: the download was answered 403 \(the link has expired/);
    expect(stored?.archive?.reason).not.toContain('signature=');
    expect(archived).toEqual([]);
  });

  it.each([410, 404])(
    'records FAILED for a link answered %i, after fetching nothing more',
    async (status) => {
      // Prepare
      const host = await startLinkHost(() => ({ status }));
      try {
        const record = await completedExportWithLinks(host.url, 2);

        // Act
        await archiveExport(archiveDeps({}, host.url), { spotId: SPOT, exportId: record.exportId });

        // Assess
        const stored = await h.store.getExport(SPOT, record.exportId);
        expect(stored?.archive?.status).toBe(ArchiveStatus.FAILED);
        expect(stored?.archive?.reason).toContain(`answered ${status}`);
        expect(host.requests).toEqual(['/1.zip']);
      } finally {
        await host.close();
      }
    },
  );

  it('records FAILED for a corrupt zip, and stores nothing of it', async () => {
    // Prepare
    const host = await startLinkHost(() => ({ status: 200, body: Buffer.from('<html>not a zip</html>') }));
    try {
      const record = await completedExportWithLinks(host.url, 1);

      // Act
      await archiveExport(archiveDeps({}, host.url), { spotId: SPOT, exportId: record.exportId });

      // Assess
      const stored = await h.store.getExport(SPOT, record.exportId);
      expect(stored?.archive).toMatchObject({ status: ArchiveStatus.FAILED, files: [] });
      expect(stored?.archive?.reason).toMatch(/not a readable zip/);
      expect((await bucketObjects(s3)).size).toBe(0);
    } finally {
      await host.close();
    }
  });

  it('fetches nothing from a host the download policy refuses', async () => {
    // Prepare
    const host = await startLinkHost(() => ({
      status: 200,
      body: zipSync({ 'a.csv': Buffer.from('id\r\n1\r\n') }),
    }));
    try {
      const record = await completedExportWithLinks(host.url, 1);

      // Act: the policy is the simulator's, which does not list this host.
      await archiveExport(archiveDeps(), { spotId: SPOT, exportId: record.exportId });

      // Assess
      const stored = await h.store.getExport(SPOT, record.exportId);
      expect(stored?.archive?.status).toBe(ArchiveStatus.FAILED);
      expect(stored?.archive?.reason).toMatch(/refused by the download policy \(host\)/);
      expect(host.requests).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it('puts off a link answering 503 for the workflow to retry, then archives once it answers', async () => {
    // Prepare
    let healthy = false;
    const zip = zipSync({ 'a.csv': Buffer.from('id,text\r\n1,x\r\n2,y\r\n') });
    const host = await startLinkHost(() => (healthy ? { status: 200, body: zip } : { status: 503 }));
    try {
      const record = await completedExportWithLinks(host.url, 1);
      const deps = archiveDeps({}, host.url);

      // Act
      const putOff = await captureError(archiveExport(deps, { spotId: SPOT, exportId: record.exportId }));
      const meanwhile = await h.store.getExport(SPOT, record.exportId);
      healthy = true;
      const retried = await archiveExport(deps, { spotId: SPOT, exportId: record.exportId });

      // Assess
      expect(putOff).toBeInstanceOf(ArchiveRetryableError);
      expect(putOff.name).toBe('ExportArchiveRetry');
      expect(meanwhile?.archive?.status).toBe(ArchiveStatus.PENDING);
      expect(retried.outcome).toBe('archived');
      expect(retried.record?.archive?.files.map((file) => file.rows)).toEqual([2]);
    } finally {
      await host.close();
    }
  });

  it('converges on the same keys and checksums when a run dies between the upload and the record', async () => {
    // Prepare: the first run's finishing write is lost, as if its container died after the uploads.
    const record = await completedExport();
    const real = new DynamoDbArchiveRecords({ client: h.table.documentClient, tableName: h.table.tableName });
    const crashing: ArchiveRecords = {
      claim: (...args) => real.claim(...args),
      finish: async () => {
        throw new Error('the container died');
      },
      lapseClaim: (...args) => real.lapseClaim(...args),
      findCatalogPending: (...args) => real.findCatalogPending(...args),
      recordCatalogRegistered: (...args) => real.recordCatalogRegistered(...args),
    };
    const crashed = await captureError(
      archiveExport(archiveDeps({ archives: crashing }), { spotId: SPOT, exportId: record.exportId }),
    );
    const afterCrash = await bucketObjects(s3);

    // Act: the workflow's retry, a new invocation of the same run.
    const rerun = await archiveExport(archiveDeps(), { spotId: SPOT, exportId: record.exportId });

    // Assess
    expect(crashed.message).toBe('the container died');
    expect((await h.store.getExport(SPOT, record.exportId))?.archive?.status).toBe(ArchiveStatus.ARCHIVED);
    const files = rerun.record?.archive?.files ?? [];
    const objects = await bucketObjects(s3);
    expectObjectsMatch(files, objects);
    expect([...afterCrash.keys()].sort()).toEqual([...objects.keys()].sort());
    for (const [key, body] of afterCrash) expect(objects.get(key)?.equals(body), key).toBe(true);
  });

  it('lets one of two concurrent runs archive, and the record always matches the stored objects', async () => {
    // Prepare
    const record = await completedExport();
    const deps = archiveDeps();

    // Act
    const outcomes = await Promise.allSettled([
      archiveExport(deps, { spotId: SPOT, exportId: record.exportId, runId: 'operator-a' }),
      archiveExport(deps, { spotId: SPOT, exportId: record.exportId, runId: 'operator-b' }),
    ]);

    // Assess
    const archivedRuns = outcomes.filter((o) => o.status === 'fulfilled' && o.value.outcome === 'archived');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(archivedRuns).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(ArchiveRetryableError);
    const stored = await h.store.getExport(SPOT, record.exportId);
    expect(stored?.archive?.status).toBe(ArchiveStatus.ARCHIVED);
    expectObjectsMatch(stored?.archive?.files ?? [], await bucketObjects(s3));
    expect(archived).toHaveLength(1);
  });

  it('leaves the result of a run that took over a lapsed claim, instead of failing', async () => {
    // Prepare: while this run uploads, its claim lapses and another run archives and records first.
    const record = await completedExport();
    const real = new DynamoDbArchiveRecords({ client: h.table.documentClient, tableName: h.table.tableName });
    const overtaken: ArchiveRecords = {
      claim: (...args) => real.claim(...args),
      finish: async (spotId, exportId, runId, archive) => {
        h.clock.advance(21 * 60 * 1000); // past the 20-minute claim
        await archiveExport(archiveDeps(), { spotId, exportId, runId: 'operator' });
        return real.finish(spotId, exportId, runId, archive);
      },
      lapseClaim: (...args) => real.lapseClaim(...args),
      findCatalogPending: (...args) => real.findCatalogPending(...args),
      recordCatalogRegistered: (...args) => real.recordCatalogRegistered(...args),
    };

    // Act
    const result = await archiveExport(archiveDeps({ archives: overtaken }), {
      spotId: SPOT,
      exportId: record.exportId,
    });

    // Assess
    expect(result.outcome).toBe('skipped');
    expect(result.record?.archive?.status).toBe(ArchiveStatus.ARCHIVED);
    expectObjectsMatch(result.record?.archive?.files ?? [], await bucketObjects(s3));
  });

  it('re-archives on request with the same keys, bytes and checksums', async () => {
    // Prepare
    const record = await completedExport();
    const first = await archiveExport(archiveDeps(), { spotId: SPOT, exportId: record.exportId });

    // Act
    const skipped = await archiveExport(archiveDeps(), { spotId: SPOT, exportId: record.exportId });
    const forced = await archiveExport(archiveDeps(), {
      spotId: SPOT,
      exportId: record.exportId,
      runId: 'operator',
      force: true,
    });

    // Assess
    expect(skipped.outcome).toBe('skipped');
    expect(forced.outcome).toBe('archived');
    const strip = (files: ArchivedFile[] = []) =>
      files.map(({ key, bytes, sha256, rows }) => ({ key, bytes, sha256, rows }));
    expect(strip(forced.record?.archive?.files)).toEqual(strip(first.record?.archive?.files));
  });

  it('records a FAILED archive when the workflow gives up, but never over a finished one', async () => {
    // Prepare
    const pending = await completedExport();
    await new DynamoDbArchiveRecords({ client: h.table.documentClient, tableName: h.table.tableName }).claim(
      SPOT,
      pending.exportId,
      {
        runId: workflowRunId(pending),
        now: new Date(h.clock.now()).toISOString(),
        claimedUntil: '2099-01-01T00:00:00Z',
      },
    );

    // Act
    const failed = await failArchive(archiveDeps(), {
      spotId: SPOT,
      exportId: pending.exportId,
      reason: 'the archive gave up after retries: ExportArchiveRetry',
    });
    const again = await failArchive(archiveDeps(), {
      spotId: SPOT,
      exportId: pending.exportId,
      reason: 'other',
    });

    // Assess
    expect(failed?.archive).toMatchObject({
      status: ArchiveStatus.FAILED,
      reason: expect.stringContaining('gave up'),
    });
    expect(again?.archive?.reason).toContain('gave up');
  });

  it('lists archived files with download URLs that need no header, to the export’s own spot only', async () => {
    // Prepare
    const record = await completedExport();
    await archiveExport(archiveDeps(), { spotId: SPOT, exportId: record.exportId });
    const filesDeps = {
      store: h.store,
      archiveReader: s3.archiveReader(),
      archiveSettings: { urlExpirySeconds: 900 },
      now: h.clock.now,
    };

    // Act
    const view = await archivedFiles(filesDeps, SPOT, record.exportId);
    const otherSpot = await archivedFiles(filesDeps, OTHER_SPOT, record.exportId);

    // Assess
    expect(view?.archive).toMatchObject({ status: ArchiveStatus.ARCHIVED });
    expect(view?.items).toHaveLength(3);
    for (const item of view?.items ?? []) {
      const body = Buffer.from(await (await fetch(item.url)).arrayBuffer());
      expect(createHash('sha256').update(body).digest('hex')).toBe(item.sha256);
      expect(Date.parse(item.urlExpiresAt) - h.clock.now()).toBe(900_000);
    }
    expect(otherSpot).toBeUndefined();
  });
  it('keeps an archive of thousands of files out of the record: a manifest lists them, /files pages through it', async () => {
    // Prepare: one link whose zip holds 2,500 one-row CSVs, about 650 KB of file list. The manifest
    // goes to the S3 stand-in; the tiny data and Parquet files stay in memory, as the stand-in takes
    // ~10 ms an object.
    const count = 2500;
    const names = Array.from(
      { length: count },
      (_, i) => `comments_2026-10-30_${String(i + 1).padStart(5, '0')}.csv`,
    );
    const zip = zipSync(Object.fromEntries(names.map((name, i) => [name, Buffer.from(`id\r\n${i}\r\n`)])));
    const host = await startLinkHost(() => ({ status: 200, body: zip }));
    const bucket = { client: s3.client, bucketName: s3.bucketName };
    const s3Writer = new S3ArchiveWriter(bucket);
    const dataFiles = new Map<string, Buffer>();
    const storage: ArchiveWriter = {
      put: async (key, body, info) =>
        key.endsWith('.csv.gz') || key.endsWith('.parquet')
          ? void dataFiles.set(key, await bytesOf(body))
          : s3Writer.put(key, body, info),
    };
    const filesDeps = {
      store: h.store,
      archiveReader: s3.archiveReader(),
      archiveSettings: { urlExpirySeconds: 900 },
      now: h.clock.now,
    };
    try {
      const record = await completedExportWithLinks(host.url, 1);

      // Act
      const result = await archiveExport(archiveDeps({ archiveWriter: storage }, host.url), {
        spotId: SPOT,
        exportId: record.exportId,
      });
      const pages = [await archivedFiles(filesDeps, SPOT, record.exportId)];
      for (let token = pages[0]?.nextToken; token !== undefined; token = pages.at(-1)?.nextToken) {
        pages.push(await archivedFiles(filesDeps, SPOT, record.exportId, token));
      }
      const pastTheEnd = await captureError(archivedFiles(filesDeps, SPOT, record.exportId, String(count)));

      // Assess: the item stays far below DynamoDB's 400 KB, with the totals and only the first files.
      expect(result.outcome).toBe('archived');
      const { Item } = await h.table.documentClient.send(
        new GetCommand({ TableName: h.table.tableName, Key: exportKey(SPOT, record.exportId) }),
      );
      expect(dynamoDbItemBytes(Item ?? {})).toBeLessThan(100 * 1024);
      const archive = result.record?.archive;
      expect(archive).toMatchObject({ status: ArchiveStatus.ARCHIVED, fileCount: count, rows: count });
      expect(archive?.files.length).toBeLessThan(count);
      expect(exportView(result.record as ExportRecord).archive).toMatchObject({ files: count, rows: count });
      const objects = await bucketObjects(s3);
      expect([...objects.keys()]).toEqual([archive?.manifestKey]);
      const manifest = JSON.parse(
        (objects.get(archive?.manifestKey as string) as Buffer).toString('utf8'),
      ) as { files: ArchivedFile[] };
      expectObjectsMatch(manifest.files, new Map([...dataFiles, ...objects]));
      expect(manifest.files.map((file) => file.name)).toEqual(names);
      expect(archive?.files).toEqual(manifest.files.slice(0, archive?.files.length));
      expect(archive?.bytes).toBe(manifest.files.reduce((sum, file) => sum + file.bytes, 0));
      // Every file, in order, a page of FILES_PAGE_SIZE at a time.
      expect(pages.map((page) => page?.items.length)).toEqual([FILES_PAGE_SIZE, FILES_PAGE_SIZE, 500]);
      const items = pages.flatMap((page) => page?.items ?? []);
      expect(items.map(({ key, sha256 }) => ({ key, sha256 }))).toEqual(
        manifest.files.map(({ key, sha256 }) => ({ key, sha256 })),
      );
      expect(pastTheEnd).toBeInstanceOf(InvalidFilesTokenError);
    } finally {
      await host.close();
    }
  });
});
