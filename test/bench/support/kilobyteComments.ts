import { closeSync, openSync, writeSync } from 'node:fs';
import { Zip, ZipDeflate } from 'fflate';
import { formatCsv } from '../../../local/openweb-simulator/csv';
import { createSeededRandom } from '../../../local/openweb-simulator/seededRandom';
import { COMMENT_FIELDS, generateComments } from '../../../local/openweb-simulator/simulatedComments';

/** About what a real comment weighs with its fields, in CSV bytes. */
export const KILOBYTE_RECORD_CONTENT_CHARS = 900;
const ROWS_PER_BATCH = 10_000;
const WORDS = (
  'the a comment article author reply thanks agree disagree point because however really think ' +
  'numbers data source policy season match team price market city council school weather ' +
  'vote story photo video question answer update correction opinion readers editor headline ' +
  'très bien naïve café Zoë 李雷 👍 — “quoted” 1,234 50% $12.99 e.g. i.e. etc'
).split(' ');

/**
 * The simulator's comments (every quoting case: delimiters, quotes, line breaks, unicode, empty
 * text) with their text grown to about KILOBYTE_RECORD_CONTENT_CHARS of words drawn from a
 * seeded stream, so each record is about 1 KB of CSV and compresses like prose. Yields the CSV
 * in batches (the header first); the same arguments always give the same bytes.
 */
export function* kilobyteCommentsCsv(count: number, seed: number, delimiter = ','): Generator<Buffer> {
  const random = createSeededRandom(seed);
  yield Buffer.from(formatCsv([[...COMMENT_FIELDS]], delimiter), 'utf8');
  for (let start = 0; start < count; start += ROWS_PER_BATCH) {
    const comments = generateComments({
      seed: seed + start,
      count: Math.min(ROWS_PER_BATCH, count - start),
      spotId: 'sp_bench',
      fromMs: Date.UTC(2026, 0, 1),
      untilMs: Date.UTC(2026, 0, 2),
    });
    const rows = comments.map((comment) => {
      let content = comment.content;
      while (content.length < KILOBYTE_RECORD_CONTENT_CHARS) {
        content += ` ${WORDS[Math.floor(random() * WORDS.length)]}`;
      }
      return COMMENT_FIELDS.map((field) => (field === 'content' ? content : comment[field]));
    });
    yield Buffer.from(formatCsv(rows, delimiter), 'utf8');
  }
}

/** Writes `count` kilobyte comments as a zip holding one CSV; returns the CSV's size in bytes. */
export function writeKilobyteCommentsZip(path: string, csvName: string, count: number, seed: number): number {
  const descriptor = openSync(path, 'w');
  let failure: Error | null = null;
  const zip = new Zip((error, data) => {
    if (error !== null) failure = error;
    else writeSync(descriptor, data);
  });
  const file = new ZipDeflate(csvName, { level: 6 });
  zip.add(file);
  let csvBytes = 0;
  try {
    for (const chunk of kilobyteCommentsCsv(count, seed)) {
      csvBytes += chunk.length;
      file.push(chunk);
    }
    file.push(new Uint8Array(0), true);
    zip.end();
    if (failure !== null) throw failure;
  } finally {
    closeSync(descriptor);
  }
  return csvBytes;
}
