import { Transform, type TransformCallback } from 'node:stream';

const QUOTE = 0x22;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Passes CSV bytes through and counts its records (RFC 4180: a line break inside a quoted
 * field does not end a record, and `""` inside quotes is an escaped quote, which toggling on
 * every quote handles). Works on raw bytes: in UTF-8 neither `"` nor a line feed occurs
 * inside a multi-byte character, so no decoding is needed and memory stays flat.
 */
export class CsvRecordCounter extends Transform {
  #inQuotes = false;
  /** Whether the current record has any content yet (a trailing line break ends no record). */
  #recordOpen = false;
  #records = 0;

  /** Records seen, the header included; final once the stream has ended. */
  get records(): number {
    return this.#records;
  }

  /** Data rows: every record but the header. */
  get rows(): number {
    return Math.max(0, this.#records - 1);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index] as number;
      if (byte === QUOTE) {
        this.#inQuotes = !this.#inQuotes;
        this.#recordOpen = true;
      } else if (byte === LINE_FEED && !this.#inQuotes) {
        if (this.#recordOpen) this.#records++;
        this.#recordOpen = false;
      } else if (byte !== CARRIAGE_RETURN || this.#inQuotes) {
        this.#recordOpen = true;
      }
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.#recordOpen) this.#records++;
    this.#recordOpen = false;
    callback();
  }
}
