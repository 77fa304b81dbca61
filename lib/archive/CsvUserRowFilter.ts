import { Transform, type TransformCallback } from 'node:stream';
import { CsvRecordParser } from './parquet/CsvRecordParser';

const QUOTE = 0x22;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const BYTE_ORDER_MARK = '\uFEFF';
/** The CSV column that names a comment's author. */
export const USER_ID_COLUMN = 'user_id';

export interface CsvUserRowFilterOptions {
  /** The CSV's delimiter (one ASCII character). */
  delimiter: string;
  /** The users whose rows are dropped; none: every byte passes. */
  userIds: ReadonlySet<string>;
}

/**
 * Passes CSV bytes through, leaving out every record whose `user_id` is one of `userIds`; every
 * other byte, the header and blank lines included, passes unchanged, so a file without those
 * users comes out identical. Records are found the way `CsvRecordCounter` counts them (a quote
 * toggles quoting, a line feed outside quotes ends a record). A record is parsed only when its
 * bytes hold one of the ids, so a file without them costs one scan. A file whose header has no
 * `user_id` column passes whole.
 */
export class CsvUserRowFilter extends Transform {
  readonly #delimiter: string;
  readonly #userIds: ReadonlySet<string>;
  readonly #needles: Buffer[];
  #inQuotes = false;
  #recordOpen = false;
  /** The bytes of the current record seen in earlier chunks. */
  #pending: Buffer[] = [];
  /** Index of the `user_id` field: undefined before the header, -1 when the header has none. */
  #userColumn: number | undefined;
  #removed = 0;
  #kept = 0;

  constructor(options: CsvUserRowFilterOptions) {
    super();
    this.#delimiter = options.delimiter;
    this.#userIds = options.userIds;
    this.#needles = [...options.userIds].filter((id) => id !== '').map((id) => Buffer.from(id, 'utf8'));
  }

  /** Records left out (final once the stream has ended). */
  get removed(): number {
    return this.#removed;
  }

  /** Data records passed on, the header excluded (final once the stream has ended). */
  get kept(): number {
    return this.#kept;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let keepFrom = 0;
    let recordStart = 0;
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index] as number;
      if (byte === QUOTE) {
        this.#inQuotes = !this.#inQuotes;
        this.#recordOpen = true;
      } else if (byte === LINE_FEED && !this.#inQuotes) {
        const end = index + 1;
        if (this.#recordOpen && !this.#keeps(chunk.subarray(recordStart, end))) {
          // Everything kept before this record goes on; the record itself does not.
          if (recordStart > keepFrom) this.push(chunk.subarray(keepFrom, recordStart));
          keepFrom = end;
        } else if (this.#pending.length > 0) {
          // A kept record that began in an earlier chunk: its start was held back until now.
          for (const part of this.#pending) this.push(part);
        }
        this.#pending = [];
        this.#recordOpen = false;
        recordStart = end;
      } else if (byte !== CARRIAGE_RETURN || this.#inQuotes) {
        this.#recordOpen = true;
      }
    }
    if (recordStart > keepFrom) this.push(chunk.subarray(keepFrom, recordStart));
    if (recordStart < chunk.length) this.#pending.push(chunk.subarray(recordStart));
    callback();
  }

  override _flush(callback: TransformCallback): void {
    const last = this.#pending;
    this.#pending = [];
    if (last.length > 0) {
      const record = Buffer.concat(last);
      if (!this.#recordOpen || this.#keeps(record, true)) this.push(record);
    }
    callback();
  }

  /** Whether the record passes; the first record with content is the header, which always does. */
  #keeps(tail: Buffer, whole = false): boolean {
    const record = whole || this.#pending.length === 0 ? tail : Buffer.concat([...this.#pending, tail]);
    if (this.#userColumn === undefined) {
      this.#userColumn = this.#fieldsOf(record).findIndex(
        (name, index) => (index === 0 ? name.replace(BYTE_ORDER_MARK, '') : name) === USER_ID_COLUMN,
      );
      return true;
    }
    if (this.#userColumn >= 0 && this.#needles.some((needle) => record.includes(needle))) {
      const userId = this.#fieldsOf(record)[this.#userColumn];
      if (userId !== undefined && this.#userIds.has(userId)) {
        this.#removed++;
        return false;
      }
    }
    this.#kept++;
    return true;
  }

  #fieldsOf(record: Buffer): string[] {
    let fields: string[] = [];
    const parser = new CsvRecordParser(this.#delimiter, (found) => {
      fields = found.map((field) => field.toString('utf8'));
    });
    parser.push(record);
    parser.end();
    return fields;
  }
}
