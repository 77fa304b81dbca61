import { strToU8, zipSync } from 'fflate';
import { formatCsv } from './csv';
import { COMMENT_FIELDS, type SimulatedComment } from './simulatedComments';

/** Zip timestamps cannot predate 1980. */
const ZIP_EPOCH_MS = Date.UTC(1980, 0, 1);

/** Files of at most `maxPerFile` records; an empty export still has one (header-only) file. */
export function countFiles(itemCount: number, maxPerFile: number): number {
  return Math.max(1, Math.ceil(itemCount / maxPerFile));
}

/** One `.csv.zip` download: a zip holding a single UTF-8 CSV with a header row. */
export function buildCommentsArchive(
  csvFileName: string,
  comments: readonly SimulatedComment[],
  delimiter: string,
  modifiedAt: number,
): Uint8Array {
  const rows = [
    [...COMMENT_FIELDS],
    ...comments.map((comment) => COMMENT_FIELDS.map((field) => comment[field])),
  ];
  const csv = formatCsv(rows, delimiter);
  return zipSync({ [csvFileName]: strToU8(csv) }, { mtime: new Date(Math.max(modifiedAt, ZIP_EPOCH_MS)) });
}
