import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { ArchiveManifest } from '../../../lib/archive/archiveManifest';
import { ErasureStatus } from '../../../lib/exports/erasure/ErasureRecord';
import { type ArchivedFile, ArchiveStatus } from '../../../lib/exports/record/ExportArchive';
import type { ExportRecord } from '../../../lib/exports/record/ExportRecord';
import { S3ArchiveObjects } from '../../../lib/s3/S3ArchiveObjects';
import { parseCsv } from '../../support/parseCsv';
import { erasuresOf } from './erasureSteps';
import type { FaultScenario } from './FaultScenario';

/** The upstream's delimiter when the request names none. */
const DEFAULT_CSV_DELIMITER = ',';
const USER_ID_COLUMN = 'user_id';

/** One archived file as read back from the bucket, independently of the system's own readers. */
interface StoredFile {
  bytes: number;
  sha256: string;
  header: string[];
  rows: string[][];
}

/**
 * With the archive on: every erasure asked for ended COMPLETED (none left RUNNING, none FAILED);
 * after each, no archived file of its spot holds a row of its user (exports archived later
 * included: the suppression list keeps them out); and no manifest disagrees with its files (each
 * file's bytes, SHA-256 and CSV records as stored) nor with the record's own list of them.
 */
export async function erasureInvariants(
  scenario: FaultScenario,
  records: readonly ExportRecord[],
): Promise<string[]> {
  const storage = scenario.archiveStorage;
  if (storage === undefined) return [];
  const objects = new S3ArchiveObjects({ client: storage.client, bucketName: storage.bucketName });
  const stored = new Map<string, StoredFile | undefined>();
  const read = async (key: string, delimiter: string): Promise<StoredFile | undefined> => {
    if (!stored.has(key)) stored.set(key, await readStoredFile(objects, key, delimiter));
    return stored.get(key);
  };
  const violations: string[] = [];
  const archived = records.filter((record) => record.archive?.status === ArchiveStatus.ARCHIVED);
  const filesOf = new Map<string, ArchivedFile[]>();
  for (const record of archived) {
    const manifest = await manifestOf(objects, record);
    const files = manifest?.files ?? record.archive?.files ?? [];
    filesOf.set(record.exportId, files);
    violations.push(...(await manifestAgreesWithFiles(record, manifest, files, read)));
  }
  for (const erasure of await erasuresOf(scenario)) {
    const name = `erasure ${erasure.erasureId} of ${erasure.spotId}`;
    if (erasure.status === ErasureStatus.RUNNING) {
      violations.push(`erasure: ${name} is still RUNNING after the drive`);
      continue;
    }
    if (erasure.status === ErasureStatus.FAILED) {
      violations.push(`erasure: ${name} FAILED: ${erasure.reason ?? 'no reason'}`);
      continue;
    }
    for (const record of archived.filter((candidate) => candidate.spotId === erasure.spotId)) {
      const delimiter = record.request.delimiter ?? DEFAULT_CSV_DELIMITER;
      for (const file of filesOf.get(record.exportId) ?? []) {
        const contents = await read(file.key, delimiter);
        const column = contents?.header.indexOf(USER_ID_COLUMN) ?? -1;
        const left =
          column < 0 ? 0 : (contents?.rows.filter((row) => row[column] === erasure.userId).length ?? 0);
        if (left > 0)
          violations.push(
            `erasure: ${name} COMPLETED but ${file.key} of ${record.exportId} holds ${left} row(s) of its user`,
          );
      }
    }
  }
  return violations;
}

async function manifestAgreesWithFiles(
  record: ExportRecord,
  manifest: ArchiveManifest | undefined,
  files: readonly ArchivedFile[],
  read: (key: string, delimiter: string) => Promise<StoredFile | undefined>,
): Promise<string[]> {
  const violations: string[] = [];
  const name = `${record.exportId} (${record.spotId})`;
  if (record.archive?.manifestKey !== undefined && manifest === undefined)
    return [`manifest: ${name} names ${record.archive.manifestKey}, which cannot be read`];
  // The record keeps the first files inline: each must be the manifest's file of the same key.
  for (const inline of record.archive?.files ?? []) {
    const listed = files.find((file) => file.key === inline.key);
    if (
      listed === undefined ||
      listed.sha256 !== inline.sha256 ||
      listed.rows !== inline.rows ||
      listed.bytes !== inline.bytes
    )
      violations.push(`manifest: ${name}'s record lists ${inline.key} other than its manifest does`);
  }
  const delimiter = record.request.delimiter ?? DEFAULT_CSV_DELIMITER;
  for (const file of files) {
    const contents = await read(file.key, delimiter);
    if (contents === undefined) {
      violations.push(`manifest: ${name} lists ${file.key}, which is not in the bucket`);
      continue;
    }
    const found = { bytes: contents.bytes, sha256: contents.sha256, rows: contents.rows.length };
    const said = { bytes: file.bytes, sha256: file.sha256, rows: file.rows };
    if (found.bytes !== said.bytes || found.sha256 !== said.sha256 || found.rows !== said.rows)
      violations.push(
        `manifest: ${name} says ${file.key} is ${JSON.stringify(said)}, the bucket holds ${JSON.stringify(found)}`,
      );
  }
  return violations;
}

async function manifestOf(
  objects: S3ArchiveObjects,
  record: ExportRecord,
): Promise<ArchiveManifest | undefined> {
  const key = record.archive?.manifestKey;
  if (key === undefined) return undefined;
  const bytes = await objects.read(key).catch(() => undefined);
  return bytes === undefined
    ? undefined
    : (JSON.parse(Buffer.from(bytes).toString('utf8')) as ArchiveManifest);
}

async function readStoredFile(
  objects: S3ArchiveObjects,
  key: string,
  delimiter: string,
): Promise<StoredFile | undefined> {
  const bytes = await objects.read(key).catch(() => undefined);
  if (bytes === undefined) return undefined;
  const [header = [], ...rows] = parseCsv(gunzipSync(bytes).toString('utf8'), delimiter);
  return {
    bytes: bytes.byteLength,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    header,
    // A file ends with a line break: the empty record after it is none.
    rows: rows.filter((row) => !(row.length === 1 && row[0] === '')),
  };
}
