import { isUtf8 } from 'node:buffer';
import { KNOWN_CSV_COLUMNS, type KnownCsvColumn } from './commentTableSchema';
import { parseInt64, parseUtcTimestampMs } from './commentValueParsers';

const BYTE_ORDER_MARK = '\uFEFF';
const NOT_IN_HEADER = -1;

/** One row as the table keeps it, before the lineage columns. */
export interface CommentRowValues {
  /**
   * The known string columns, in KNOWN_STRING_COLUMNS order; null when the column is missing.
   * `content` stays UTF-8 bytes (long and unique: decoding it only for the writer to encode it again
   * would cost time and memory); the short ones are strings, which the writer's dictionaries key
   * faster.
   */
  strings: (Uint8Array | string | null)[];
  rank: bigint | null;
  /** Milliseconds since the epoch. */
  writtenAtMs: number | null;
  /** JSON object of the unknown columns, or null. */
  extraColumns: string | null;
  /** JSON object of the typed values that did not parse, or null. */
  unparsedValues: string | null;
  /** Bytes of every value: what the row holds in memory, roughly. */
  size: number;
}

/** The known string columns: every known column but the typed ones. */
export const KNOWN_STRING_COLUMNS = KNOWN_CSV_COLUMNS.filter(
  (name) => name !== 'rank' && name !== 'written_at',
) as Exclude<KnownCsvColumn, 'rank' | 'written_at'>[];

/**
 * How a CSV's columns map onto the table, read from its header: the known columns by name
 * (the first one of a repeated name), every other column into `extra_columns` under its name
 * (a repeated or empty name gets `#<position>` appended, a field past the header's end is
 * `#<position>`, positions counting from 1), so no value is lost and nothing fails.
 */
export class CommentRowMapping {
  readonly #stringIndexes: number[];
  readonly #rankIndex: number;
  readonly #writtenAtIndex: number;
  /** The key in `extra_columns` of each field position; undefined for a known column. */
  readonly #extraKeys: (string | undefined)[];
  readonly #hasExtras: boolean;
  readonly #contentIndex: number;

  constructor(header: readonly Uint8Array[]) {
    const names = header.map((field, index) => {
      const name = text(field);
      return index === 0 && name.startsWith(BYTE_ORDER_MARK) ? name.slice(1) : name;
    });
    const known = new Map<string, number>();
    const extraKeys: (string | undefined)[] = [];
    const usedKeys = new Set<string>();
    names.forEach((name, index) => {
      if ((KNOWN_CSV_COLUMNS as readonly string[]).includes(name) && !known.has(name)) {
        known.set(name, index);
        extraKeys.push(undefined);
        return;
      }
      const key = name === '' || usedKeys.has(name) || known.has(name) ? `${name}#${index + 1}` : name;
      usedKeys.add(key);
      extraKeys.push(key);
    });
    this.#stringIndexes = KNOWN_STRING_COLUMNS.map((name) => known.get(name) ?? NOT_IN_HEADER);
    this.#rankIndex = known.get('rank') ?? NOT_IN_HEADER;
    this.#contentIndex = known.get('content') ?? NOT_IN_HEADER;
    this.#writtenAtIndex = known.get('written_at') ?? NOT_IN_HEADER;
    this.#extraKeys = extraKeys;
    this.#hasExtras = extraKeys.some((key) => key !== undefined);
  }

  /** The table's values of one CSV record. A field the record lacks is null (or left out of `extra_columns`). */
  values(fields: readonly Uint8Array[]): CommentRowValues {
    let size = 0;
    const strings = this.#stringIndexes.map((index) => {
      const value = index === NOT_IN_HEADER ? undefined : fields[index];
      if (value === undefined) return null;
      size += value.byteLength;
      return index === this.#contentIndex ? utf8(value) : text(value);
    });
    let unparsed: Record<string, string> | undefined;
    const rankText = this.#rankIndex === NOT_IN_HEADER ? undefined : textOf(fields[this.#rankIndex]);
    let rank: bigint | null = null;
    // An empty typed value is no value: null, not an unparsed one.
    if (rankText !== undefined && rankText !== '') {
      const parsed = parseInt64(rankText);
      if (parsed === undefined) {
        unparsed ??= {};
        unparsed.rank = rankText;
      } else {
        rank = parsed;
      }
      size += rankText.length;
    }
    const writtenAtText =
      this.#writtenAtIndex === NOT_IN_HEADER ? undefined : textOf(fields[this.#writtenAtIndex]);
    let writtenAtMs: number | null = null;
    if (writtenAtText !== undefined && writtenAtText !== '') {
      const parsed = parseUtcTimestampMs(writtenAtText);
      if (parsed === undefined) {
        unparsed ??= {};
        unparsed.written_at = writtenAtText;
      } else {
        writtenAtMs = parsed;
      }
      size += writtenAtText.length;
    }
    let extras: Record<string, string> | undefined;
    if (this.#hasExtras || fields.length > this.#extraKeys.length) {
      for (let index = 0; index < fields.length; index++) {
        const key = index < this.#extraKeys.length ? this.#extraKeys[index] : `#${index + 1}`;
        if (key === undefined) continue;
        const value = text(fields[index] as Uint8Array);
        // No prototype: a column named `__proto__` is a key like any other.
        extras ??= Object.create(null) as Record<string, string>;
        extras[key] = value;
        size += key.length + value.length;
      }
    }
    const extraColumns = extras === undefined ? null : JSON.stringify(extras);
    const unparsedValues = unparsed === undefined ? null : JSON.stringify(unparsed);
    return { strings, rank, writtenAtMs, extraColumns, unparsedValues, size };
  }
}

/**
 * The bytes of a string column: valid UTF-8 as they are; anything else decoded with U+FFFD for
 * each invalid sequence (a STRING column must hold UTF-8; the raw CSV keeps the bytes as sent).
 */
function utf8(field: Uint8Array): Uint8Array {
  return isUtf8(field) ? field : Buffer.from(text(field), 'utf8');
}

function text(field: Uint8Array): string {
  return Buffer.from(field.buffer, field.byteOffset, field.byteLength).toString('utf8');
}

function textOf(field: Uint8Array | undefined): string | undefined {
  return field === undefined ? undefined : text(field);
}
