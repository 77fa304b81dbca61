import { strFromU8, unzipSync } from 'fflate';
import { parseCsv } from './parseCsv';

export interface CommentsArchiveContents {
  fileName: string;
  header: string[];
  rows: string[][];
}

/** Reads back a downloaded archive: its single CSV, split into header and rows. */
export function readCommentsArchive(archive: Uint8Array, delimiter = ','): CommentsArchiveContents {
  const entries = Object.entries(unzipSync(archive));
  const [entry, ...others] = entries;
  if (!entry || others.length > 0) {
    throw new Error(`Expected one CSV in the archive, found ${entries.length} entries`);
  }
  const [fileName, content] = entry;
  const [header = [], ...rows] = parseCsv(strFromU8(content), delimiter);
  return { fileName, header, rows };
}
