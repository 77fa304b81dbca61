/** The upstream caps a date-range export at one month. */
export const MAX_EXPORT_RANGE_HOURS = 730;
export const MAX_RECORDS_IN_FILE = 100_000;
export const CSV_DELIMITERS = [',', ';', '|', '\t'] as const;
export const DEFAULT_CSV_DELIMITER = ',';

const MS_PER_HOUR = 60 * 60 * 1000;
const RFC3339_UTC_SECONDS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/** A create-export body the upstream accepts, in the simulator's terms. */
export type CreateExportRequest = {
  delimiter: string;
  maxRecordsInFile: number;
} & (
  | { variant: 'dateRange'; fromMs: number; untilMs: number }
  | { variant: 'conversation'; conversationId: string; postId: string }
);

export type CreateExportValidation =
  | { ok: true; request: CreateExportRequest }
  | { ok: false; message: string };

/** `YYYY-MM-DDTHH:MM:SSZ` exactly, and a date that exists; anything else is undefined. */
export function parseRfc3339Utc(value: unknown): number | undefined {
  if (typeof value !== 'string') {
    return undefined;
  }
  const match = RFC3339_UTC_SECONDS.exec(value);
  if (!match) {
    return undefined;
  }
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const epochMs = Date.UTC(year, month - 1, day, hour, minute, second);
  const roundTrip = new Date(epochMs);
  // Date.UTC rolls 2024-02-30 over into March; the upstream rejects such dates.
  const exists =
    roundTrip.getUTCFullYear() === year &&
    roundTrip.getUTCMonth() === month - 1 &&
    roundTrip.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60;
  return exists ? epochMs : undefined;
}

/** Applies the upstream's 400 rules to a `POST /v4/export` body sent for `spotId`. */
export function validateCreateExportRequest(body: unknown, spotId: string): CreateExportValidation {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return invalid('Request body must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  const hasRange = fields.from !== undefined || fields.until !== undefined;
  const hasConversation = fields.conversation_id !== undefined;
  if (hasRange === hasConversation) {
    return invalid('Provide either from and until, or conversation_id');
  }

  const delimiter = fields.delimiter ?? DEFAULT_CSV_DELIMITER;
  if (!CSV_DELIMITERS.some((allowed) => allowed === delimiter)) {
    return invalid(
      `delimiter must be one of ${CSV_DELIMITERS.map((allowed) => JSON.stringify(allowed)).join(', ')}`,
    );
  }
  const maxRecordsInFile = fields.max_records_in_file ?? MAX_RECORDS_IN_FILE;
  if (!Number.isInteger(maxRecordsInFile) || (maxRecordsInFile as number) < 1) {
    return invalid('max_records_in_file must be a positive integer');
  }
  if ((maxRecordsInFile as number) > MAX_RECORDS_IN_FILE) {
    return invalid(`max_records_in_file must not exceed ${MAX_RECORDS_IN_FILE}`);
  }
  const common = { delimiter: delimiter as string, maxRecordsInFile: maxRecordsInFile as number };

  if (hasConversation) {
    const conversationId = fields.conversation_id;
    const prefix = `${spotId}_`;
    if (typeof conversationId !== 'string' || !conversationId.startsWith(prefix)) {
      return invalid(`conversation_id must be "${prefix}<postId>"`);
    }
    const postId = conversationId.slice(prefix.length);
    if (postId === '') {
      return invalid(`conversation_id must be "${prefix}<postId>"`);
    }
    return { ok: true, request: { ...common, variant: 'conversation', conversationId, postId } };
  }

  const fromMs = parseRfc3339Utc(fields.from);
  const untilMs = parseRfc3339Utc(fields.until);
  if (fromMs === undefined || untilMs === undefined) {
    return invalid('from and until must both be RFC 3339 date-times like 2024-01-31T23:59:59Z');
  }
  if (fromMs >= untilMs) {
    return invalid('from must be before until');
  }
  if (untilMs - fromMs > MAX_EXPORT_RANGE_HOURS * MS_PER_HOUR) {
    return invalid(`The range must not exceed ${MAX_EXPORT_RANGE_HOURS} hours`);
  }
  return { ok: true, request: { ...common, variant: 'dateRange', fromMs, untilMs } };
}

function invalid(message: string): CreateExportValidation {
  return { ok: false, message };
}
