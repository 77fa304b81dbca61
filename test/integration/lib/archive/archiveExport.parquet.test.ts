import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { zipSync } from 'fflate';
import { parquetReadObjects } from 'hyparquet';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ArchiveDependencies, archiveExport } from '../../../../lib/archive/archiveExport';
import type { ArchiveManifest } from '../../../../lib/archive/archiveManifest';
import { CommentParquetWriter } from '../../../../lib/archive/parquet/CommentParquetWriter';
import { COMMENT_TABLE_COLUMNS } from '../../../../lib/archive/parquet/commentTableSchema';
import type { ArchiveWriter } from '../../../../lib/archive/ports';
import { pollExportForWorkflow } from '../../../../lib/exports/lifecycle/pollExportForWorkflow';
import { ArchiveStatus } from '../../../../lib/exports/record/ExportArchive';
import type { ExportRecord, ExportRequest } from '../../../../lib/exports/record/ExportRecord';
import { ExportStatus } from '../../../../lib/exports/record/ExportStatus';
import { S3ArchiveWriter } from '../../../../lib/s3/S3ArchiveWriter';
import { type LocalS3, startLocalS3 } from '../../../../local/localS3';
import { formatCsv } from '../../../../local/openweb-simulator/csv';
import {
  ARCHIVED_DAY,
  archiveDependenciesOn,
  bucketObjects,
  completedExportOn,
  testArchiveSettings,
} from '../../../support/archiveHarness';
import { COMMENTS_CSV_HEADER } from '../../../support/commentFileFixtures';
import { localParquetFiles } from '../../../support/duckDbParquet';
import { type ExportHarness, startExportHarness } from '../../../support/exportHarness';
import { readCommentsArchive } from '../../../support/readCommentsArchive';
import { startAndCreate } from '../../../support/startAndCreate';

const SPOT = 'sp_demo';
const DAY = ARCHIVED_DAY;
const HOUR_MS = 60 * 60 * 1000;
/** The simulator holds this many comments an hour, none deleted: the day's export holds 24 times as many. */
const COMMENTS_PER_HOUR = 10;
const RECORDS = COMMENTS_PER_HOUR * 24;
const KNOWN_STRING_COLUMNS = [
  'id',
  'user_id',
  'user_name',
  'spot_id',
  'post_id',
  'message_status',
  'content',
];

/** A download host serving one zip at /1.zip. */
async function startZipHost(zip: Uint8Array) {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/zip' });
    response.end(Buffer.from(zip));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('the archive’s Parquet files, in the S3 stand-in, read back with DuckDB and hyparquet', () => {
  let h: ExportHarness;
  let s3: LocalS3;

  beforeEach(async () => {
    h = await startExportHarness({ simulator: { commentsPerHour: COMMENTS_PER_HOUR, deleteShare: 0 } });
    s3 = await startLocalS3();
  });

  afterEach(async () => {
    await s3.close();
    await h.close();
  });

  function archiveDeps(
    exportBaseUrl: string,
    overrides: Partial<ArchiveDependencies> = {},
  ): ArchiveDependencies {
    return archiveDependenciesOn(h, s3, {
      archiveSettings: testArchiveSettings(exportBaseUrl),
      ...overrides,
    });
  }

  /** A COMPLETED export of the simulator: the day's RECORDS records in files of 100. */
  async function simulatorExport(): Promise<ExportRecord> {
    const { record } = await startAndCreate(h.deps, { spotId: SPOT, request: DAY, source: 'api' });
    h.clock.advance(2 * HOUR_MS);
    await pollExportForWorkflow(h.deps, {
      action: 'poll',
      spotId: SPOT,
      exportId: record.exportId,
      deadline: '2099-01-01T00:00:00Z',
    });
    return (await h.store.getExport(SPOT, record.exportId)) as ExportRecord;
  }

  /** A COMPLETED export whose one link is `host`/1.zip. */
  function exportWithLink(host: string, request: ExportRequest): Promise<ExportRecord> {
    const links = [`${host}/1.zip`];
    return completedExportOn(h, { spotId: SPOT, request, links, completedAt: '2026-11-01T01:02:03.000Z' });
  }

  it('writes each CSV as a Parquet file beside it, whose rows are the CSV’s rows and archive.rows', async () => {
    // Prepare
    const record = await simulatorExport();
    const served = await Promise.all(
      record.links.map(async (link) =>
        readCommentsArchive(new Uint8Array(await (await fetch(link)).arrayBuffer())),
      ),
    );

    // Act
    const result = await archiveExport(archiveDeps(h.simulator.exportBaseUrl), {
      spotId: SPOT,
      exportId: record.exportId,
    });

    // Assess: the layout, and the counts recorded, stored and read agree.
    const archive = result.record?.archive;
    expect(archive).toMatchObject({ status: ArchiveStatus.ARCHIVED, rows: RECORDS });
    const files = archive?.files ?? [];
    expect(files.map((file) => file.parquet?.key)).toEqual(
      [1, 2, 3].map((n) => `tables/comments/spot=${SPOT}/date=2026-10-30/${record.exportId}-${n}.parquet`),
    );
    expect(files.map((file) => [file.rows, file.parquet?.rows])).toEqual([
      [100, 100],
      [100, 100],
      [RECORDS - 200, RECORDS - 200],
    ]);
    const objects = await bucketObjects(s3);
    const local = await localParquetFiles(objects);
    try {
      const table = `read_parquet('${local.root}/tables/comments/*/*/*.parquet', hive_partitioning = true, hive_types_autocast = false)`;
      const [total] = await local.query(`SELECT count(*) AS n FROM ${table}`);
      expect(total?.n).toBe(BigInt(archive?.rows ?? -1));
      const perFile = await local.query(
        `SELECT source_file, count(*) AS n, min(spot) AS spot, min(date) AS date, min(export_id) AS export_id FROM ${table} GROUP BY ALL ORDER BY source_file`,
      );
      expect(perFile).toEqual(
        files.map((file) => ({
          source_file: file.name,
          n: BigInt(file.rows),
          spot: SPOT,
          date: '2026-10-30',
          export_id: record.exportId,
        })),
      );
      // Every value as the CSV has it: strings verbatim, rank and written_at typed.
      for (const [index, file] of files.entries()) {
        const rows = await local.query(
          `SELECT ${KNOWN_STRING_COLUMNS.join(', ')}, rank, epoch_ms(written_at) AS written_at_ms, extra_columns, unparsed_values
           FROM read_parquet('${local.root}/${file.parquet?.key}', file_row_number = true) ORDER BY file_row_number`,
        );
        const csv = served[index];
        const expected = (csv?.rows ?? []).map((fields) => {
          const value = (name: string) => fields[csv?.header.indexOf(name) ?? -1] as string;
          return {
            ...Object.fromEntries(KNOWN_STRING_COLUMNS.map((name) => [name, value(name)])),
            rank: BigInt(value('rank')),
            written_at_ms: BigInt(Date.parse(value('written_at'))),
            extra_columns: null,
            unparsed_values: null,
          };
        });
        expect(rows).toEqual(expected);
        // The writer's own reader agrees on the count.
        const body = objects.get(file.parquet?.key as string) as Buffer;
        const read = await parquetReadObjects({
          file: body.buffer.slice(body.byteOffset, body.byteOffset + body.length) as ArrayBuffer,
        });
        expect(read).toHaveLength(file.rows);
      }
    } finally {
      await local.close();
    }
  });

  it('archives an unknown column and odd values without error, and they read back verbatim', async () => {
    // Prepare: a semicolon export with a column the table does not know, and values of every kind.
    const header = [...COMMENTS_CSV_HEADER, 'sentiment'];
    const rows = [
      [
        'm1',
        'u1',
        'Zoë 李雷',
        SPOT,
        'p1',
        'approved',
        'two\r\nlines; and "quotes"\nthree 👍',
        '7',
        '2026-10-30T10:00:00Z',
        'happy',
      ],
      ['m2', '', '', SPOT, 'p1', '', '', '', '', ''],
      ['m3', 'u3', '  spaced  ', SPOT, 'p2', 'pending', 'Ünïcödé — très', '12.5', 'Oct 30 2026', 'sad; very'],
      ['m4', 'u4', "O'Brien", SPOT, 'p2', 'deleted', '"', '-3', '2026-10-30T23:59:59.999+00:00', '\n'],
    ];
    const host = await startZipHost(
      zipSync({ 'comments_2026-10-30.csv': Buffer.from(formatCsv([header, ...rows], ';')) }),
    );
    try {
      const record = await exportWithLink(host.url, { ...DAY, delimiter: ';' });

      // Act
      const result = await archiveExport(archiveDeps(host.url), { spotId: SPOT, exportId: record.exportId });

      // Assess
      expect(result.outcome).toBe('archived');
      const [file] = result.record?.archive?.files ?? [];
      expect([file?.rows, file?.parquet?.rows, result.record?.archive?.rows]).toEqual([4, 4, 4]);
      const objects = await bucketObjects(s3);
      const local = await localParquetFiles(objects);
      try {
        const read = await local.query(
          `SELECT ${KNOWN_STRING_COLUMNS.join(', ')}, rank, epoch_ms(written_at) AS written_at_ms, extra_columns, unparsed_values,
                  export_id, epoch_ms(window_from) AS window_from_ms, epoch_ms(window_until) AS window_until_ms,
                  epoch_ms(exported_at) AS exported_at_ms, source_file
           FROM read_parquet('${local.root}/${file?.parquet?.key}') ORDER BY id`,
        );
        const strings = (fields: string[]) =>
          Object.fromEntries(KNOWN_STRING_COLUMNS.map((name) => [name, fields[header.indexOf(name)]]));
        const lineage = {
          export_id: record.exportId,
          window_from_ms: BigInt(Date.parse(DAY.kind === 'dateRange' ? DAY.from : '')),
          window_until_ms: BigInt(Date.parse(DAY.kind === 'dateRange' ? DAY.until : '')),
          exported_at_ms: BigInt(Date.parse('2026-11-01T01:02:03.000Z')),
          source_file: 'comments_2026-10-30.csv',
        };
        expect(read).toEqual([
          {
            ...strings(rows[0] as string[]),
            rank: 7n,
            written_at_ms: BigInt(Date.parse('2026-10-30T10:00:00Z')),
            extra_columns: '{"sentiment":"happy"}',
            unparsed_values: null,
            ...lineage,
          },
          {
            ...strings(rows[1] as string[]),
            rank: null,
            written_at_ms: null,
            extra_columns: '{"sentiment":""}',
            unparsed_values: null,
            ...lineage,
          },
          {
            ...strings(rows[2] as string[]),
            rank: null,
            written_at_ms: null,
            extra_columns: '{"sentiment":"sad; very"}',
            unparsed_values: '{"rank":"12.5","written_at":"Oct 30 2026"}',
            ...lineage,
          },
          {
            ...strings(rows[3] as string[]),
            rank: -3n,
            written_at_ms: BigInt(Date.parse('2026-10-30T23:59:59.999Z')),
            extra_columns: '{"sentiment":"\\n"}',
            unparsed_values: null,
            ...lineage,
          },
        ]);
        // The JSON columns are JSON DuckDB can take apart.
        const [sentiment] = await local.query(
          `SELECT json_extract_string(extra_columns, '$.sentiment') AS sentiment FROM read_parquet('${local.root}/${file?.parquet?.key}') WHERE id = 'm3'`,
        );
        expect(sentiment).toEqual({ sentiment: 'sad; very' });
        // And the writer's own reader reads the same values.
        const body = objects.get(file?.parquet?.key as string) as Buffer;
        const viaHyparquet = await parquetReadObjects({
          file: body.buffer.slice(body.byteOffset, body.byteOffset + body.length) as ArrayBuffer,
          columns: [...KNOWN_STRING_COLUMNS, 'extra_columns'],
        });
        expect(viaHyparquet).toEqual(
          rows.map((fields) => ({
            ...strings(fields),
            extra_columns: JSON.stringify({ sentiment: fields[9] }),
          })),
        );
      } finally {
        await local.close();
      }
    } finally {
      await host.close();
    }
  });

  it('fails the archive with the reason when a Parquet file’s rows are not its CSV’s, and writes no manifest', async () => {
    // Prepare: a writer that loses a row of the second file.
    const record = await simulatorExport();
    const writeRecord = CommentParquetWriter.prototype.writeRecord;
    let records = 0;
    vi.spyOn(CommentParquetWriter.prototype, 'writeRecord').mockImplementation(function (
      this: CommentParquetWriter,
      fields,
    ) {
      records += 1;
      if (records !== 150) writeRecord.call(this, fields);
    });

    // Act
    const result = await archiveExport(archiveDeps(h.simulator.exportBaseUrl), {
      spotId: SPOT,
      exportId: record.exportId,
    });

    // Assess
    expect(result.outcome).toBe('failed');
    const stored = await h.store.getExport(SPOT, record.exportId);
    expect(stored?.status).toBe(ExportStatus.COMPLETED);
    expect(stored?.archive?.status).toBe(ArchiveStatus.FAILED);
    expect(stored?.archive?.reason).toMatch(
      /\.csv: 100 rows counted in the CSV, but 99 written to its Parquet file$/,
    );
    expect([...(await bucketObjects(s3)).keys()].filter((key) => key.endsWith('_manifest.json'))).toEqual([]);
  });

  it('writes the manifest last, listing every CSV with its Parquet file and the Parquet schema', async () => {
    // Prepare: the writer notes when each object's upload starts and ends.
    const record = await simulatorExport();
    const s3Writer = new S3ArchiveWriter({ client: s3.client, bucketName: s3.bucketName });
    const events: string[] = [];
    const archiveWriter: ArchiveWriter = {
      put: async (key, body, info) => {
        events.push(`start ${key}`);
        await s3Writer.put(key, body, info);
        events.push(`end ${key}`);
      },
    };

    // Act
    const result = await archiveExport(archiveDeps(h.simulator.exportBaseUrl, { archiveWriter }), {
      spotId: SPOT,
      exportId: record.exportId,
    });

    // Assess
    const manifestKey = result.record?.archive?.manifestKey as string;
    expect(events.filter((event) => event.endsWith('.parquet'))).toHaveLength(6);
    expect(events.slice(-2)).toEqual([`start ${manifestKey}`, `end ${manifestKey}`]);
    const manifest = JSON.parse(
      ((await bucketObjects(s3)).get(manifestKey) as Buffer).toString('utf8'),
    ) as ArchiveManifest;
    expect(manifest.files).toEqual(result.record?.archive?.files);
    expect(manifest.files.map((file) => Object.keys(file.parquet ?? {}).sort())).toEqual(
      Array(3).fill(['bytes', 'key', 'rows', 'sha256']),
    );
    expect(manifest.parquetSchema).toEqual({
      table: 'comment_rows',
      columns: COMMENT_TABLE_COLUMNS.map(({ name, type }) => ({ name, type })),
      partitionColumns: ['spot', 'date'],
    });
  });

  it('writes the same Parquet bytes when the export is archived again', async () => {
    // Prepare
    const record = await simulatorExport();
    const deps = archiveDeps(h.simulator.exportBaseUrl);
    const first = await archiveExport(deps, { spotId: SPOT, exportId: record.exportId });

    // Act
    const again = await archiveExport(deps, {
      spotId: SPOT,
      exportId: record.exportId,
      runId: 'operator',
      force: true,
    });

    // Assess
    const parquetOf = (result: typeof first) => result.record?.archive?.files.map((file) => file.parquet);
    expect(parquetOf(again)).toEqual(parquetOf(first));
    expect(parquetOf(first)?.every((file) => file !== undefined && /^[0-9a-f]{64}$/.test(file.sha256))).toBe(
      true,
    );
  });
});
