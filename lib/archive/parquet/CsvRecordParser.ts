const QUOTE = 0x22;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const LITERAL_CARRIAGE_RETURN = Buffer.from([CARRIAGE_RETURN]);
const EMPTY_FIELD = Buffer.alloc(0);

/** Where the parser stands; "in quotes" means an odd number of quotes seen in the record so far. */
const State = {
  /** At the start of a field, outside quotes. */
  FIELD_START: 0,
  /** In a field that did not start with a quote, outside quotes. */
  UNQUOTED: 1,
  /** In a field that did not start with a quote, after an odd number of quotes: kept as they are. */
  UNQUOTED_IN_QUOTES: 2,
  /** In a quoted field. */
  QUOTED: 3,
  /** Just after a quote in a quoted field: `""` is a quote, anything else closed the field's quotes. */
  QUOTE_IN_QUOTED: 4,
  /** After a quoted field's closing quote, outside quotes. */
  AFTER_QUOTED: 5,
} as const;

type State = (typeof State)[keyof typeof State];

/**
 * Receives each record's fields, in order (the header is the first record), as their UTF-8 bytes:
 * views of the input where a field lies whole in one chunk, copies otherwise. Views keep their
 * chunk alive while they are held.
 */
export type CsvRecordHandler = (fields: Buffer[]) => void;

/**
 * Splits CSV bytes into records of fields, streamed chunk by chunk (RFC 4180: quoted
 * fields may hold the delimiter, quotes written `""` and line breaks; a record ends with CRLF or
 * LF). It finds exactly the records `CsvRecordCounter` counts: a quote anywhere toggles quoting,
 * a line break outside quotes ends a record that has any content, and a line of nothing (or of
 * carriage returns only) is no record. Input that is not RFC 4180 is read leniently and never
 * refused: a quote inside an unquoted field is kept as it is, and so is text after a closing quote.
 * Fields stay bytes, never decoded here: a character split between chunks is whole in its field,
 * and a field of one chunk costs no copy.
 */
export class CsvRecordParser {
  readonly #delimiter: number;
  readonly #onRecord: CsvRecordHandler;
  #state: State = State.FIELD_START;
  /** Whether the record has any content yet (the rule `CsvRecordCounter` counts by). */
  #recordOpen = false;
  /** A carriage return outside quotes: a line ending if a line feed follows, content otherwise. */
  #carriageReturnPending = false;
  #fields: Buffer[] = [];
  /** The current field's bytes seen before the current run (earlier chunks, or cut by quotes). */
  #parts: Buffer[] = [];
  #chunk: Buffer = Buffer.alloc(0);
  /** Start of the current run of field bytes in `#chunk`, or -1 when none is open. */
  #runStart = -1;
  #records = 0;

  /** @param delimiter one single-byte character: `,` `;` `|` or a tab */
  constructor(delimiter: string, onRecord: CsvRecordHandler) {
    if (delimiter.length !== 1 || delimiter.charCodeAt(0) > 0x7f || /["\r\n]/.test(delimiter)) {
      throw new RangeError(`a CSV delimiter is one ASCII character other than a quote or line break`);
    }
    this.#delimiter = delimiter.charCodeAt(0);
    this.#onRecord = onRecord;
  }

  /** Records found so far, the header included. */
  get records(): number {
    return this.#records;
  }

  /** Parses `chunk`, handing every record it completes to the handler. */
  push(chunk: Buffer): void {
    this.#chunk = chunk;
    this.#runStart = -1;
    const delimiter = this.#delimiter;
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index] as number;
      if (this.#carriageReturnPending) {
        this.#carriageReturnPending = false;
        if (byte !== LINE_FEED) {
          // A carriage return that ends no line is the field's content.
          this.#parts.push(LITERAL_CARRIAGE_RETURN);
          if (this.#state === State.FIELD_START) this.#state = State.UNQUOTED;
        }
      }
      switch (this.#state) {
        case State.QUOTED:
          if (byte === QUOTE) {
            this.#closeRun(index);
            this.#state = State.QUOTE_IN_QUOTED;
          } else if (this.#runStart < 0) {
            this.#runStart = index;
          }
          continue;
        case State.UNQUOTED_IN_QUOTES:
          if (byte === QUOTE) this.#state = State.UNQUOTED;
          if (this.#runStart < 0) this.#runStart = index;
          continue;
        case State.QUOTE_IN_QUOTED:
          if (byte === QUOTE) {
            // `""`: the second quote is the content.
            this.#runStart = index;
            this.#state = State.QUOTED;
            continue;
          }
          this.#state = State.AFTER_QUOTED;
          break;
        case State.FIELD_START:
          if (byte === QUOTE) {
            this.#recordOpen = true;
            this.#state = State.QUOTED;
            continue;
          }
          break;
      }
      // Outside quotes: FIELD_START, UNQUOTED or AFTER_QUOTED.
      if (byte === delimiter) {
        this.#recordOpen = true;
        this.#endField(index);
      } else if (byte === LINE_FEED) {
        this.#endRecord(index);
      } else if (byte === CARRIAGE_RETURN) {
        this.#closeRun(index);
        this.#carriageReturnPending = true;
      } else {
        this.#recordOpen = true;
        if (byte === QUOTE) this.#state = State.UNQUOTED_IN_QUOTES;
        else if (this.#state === State.FIELD_START) this.#state = State.UNQUOTED;
        if (this.#runStart < 0) this.#runStart = index;
      }
    }
    this.#closeRun(chunk.length);
  }

  /** Ends the input: a last record without a line break is handed over too. */
  end(): void {
    // A carriage return at the very end is taken as the last line's ending.
    this.#carriageReturnPending = false;
    this.#chunk = Buffer.alloc(0);
    this.#runStart = -1;
    this.#endRecord(0);
  }

  #closeRun(end: number): void {
    if (this.#runStart >= 0) {
      if (end > this.#runStart) this.#parts.push(this.#chunk.subarray(this.#runStart, end));
      this.#runStart = -1;
    }
  }

  #endField(end: number): void {
    let value: Buffer;
    if (this.#parts.length === 0) {
      value = this.#runStart < 0 ? EMPTY_FIELD : this.#chunk.subarray(this.#runStart, end);
    } else {
      this.#closeRun(end);
      value = this.#parts.length === 1 ? (this.#parts[0] as Buffer) : Buffer.concat(this.#parts);
      this.#parts = [];
    }
    this.#runStart = -1;
    this.#fields.push(value);
    this.#state = State.FIELD_START;
  }

  #endRecord(end: number): void {
    if (this.#recordOpen) {
      this.#endField(end);
      this.#records++;
      const fields = this.#fields;
      this.#fields = [];
      this.#onRecord(fields);
    } else {
      this.#fields = [];
      this.#parts = [];
      this.#runStart = -1;
    }
    this.#recordOpen = false;
    this.#state = State.FIELD_START;
  }
}
