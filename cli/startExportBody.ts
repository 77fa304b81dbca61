import {
  CSV_DELIMITERS,
  FUTURE_WINDOW_ALLOWANCE_SECONDS,
  MAX_RECORDS_IN_FILE,
} from '../lib/exports/requests/exportRequestLimits';
import { exportRequestSchema } from '../lib/exports/requests/exportRequestSchema';
import { isoDurationSeconds } from '../lib/exports/time/isoDurationSeconds';
import { fieldProblemsOf } from '../lib/http/invalidRequest';
import type { CliOptionValues } from './CliCommand';
import { integerOption, stringOption } from './cliOptions';
import type { StartExportBody } from './ExportsApiClient';
import { CliUsageError } from './errors';
import { instantOption } from './instantOption';

const COMMAND = 'start';
const MS_PER_SECOND = 1000;
// Names for delimiters a shell makes awkward to type.
const DELIMITER_ALIASES: Readonly<Record<string, string>> = { tab: '\t', '\\t': '\t' };

/**
 * The body of a start request from `--from/--until`, `--last` or `--conversation` (exactly one)
 * and the file options, checked with the API's own rules and messages before anything is sent
 * (the window's end against this machine's clock, with the API's allowance for clock skew).
 */
export function startExportBody(values: CliOptionValues, spotId: string, nowMs: number): StartExportBody {
  const body = bodyFromOptions(values, nowMs);
  const parsed = exportRequestSchema(spotId).safeParse(body);
  if (!parsed.success) {
    const [problem] = fieldProblemsOf(parsed.error, 'body');
    throw new CliUsageError(
      optionProblem(problem?.field, problem?.message ?? 'is not valid', values),
      COMMAND,
    );
  }
  if ('until' in body && Date.parse(body.until) > nowMs + FUTURE_WINDOW_ALLOWANCE_SECONDS * MS_PER_SECOND) {
    throw new CliUsageError(
      `--until ${body.until} must not be in the future (it is ${rfc3339Seconds(nowMs)} here; the API allows ` +
        `${FUTURE_WINDOW_ALLOWANCE_SECONDS} s of clock skew): comments that are not written yet cannot be exported`,
      COMMAND,
    );
  }
  return body;
}

/** The option a field of the request body comes from. */
const OPTION_OF_FIELD: Readonly<Record<string, string>> = {
  'body.from': '--from',
  'body.until': '--until',
  'body.conversationId': '--conversation',
  'body.delimiter': '--delimiter',
  'body.maxRecordsInFile': '--max-records-in-file',
};

/** The API's field problem in the CLI's words: `--conversation 'x' must be sp_demo_<postId>`. */
function optionProblem(field: string | undefined, message: string, values: CliOptionValues): string {
  const last = stringOption(values, 'last');
  const option =
    field === 'body.until' && last !== undefined ? '--last' : (OPTION_OF_FIELD[field ?? ''] ?? '--from');
  const value = stringOption(values, option.slice(2));
  const subject = value === undefined ? option : `${option} '${value}'`;
  return message.startsWith('must') ? `${subject} ${message}` : `${subject}: ${message}`;
}

function bodyFromOptions(values: CliOptionValues, nowMs: number): StartExportBody {
  const from = stringOption(values, 'from');
  const until = stringOption(values, 'until');
  const last = stringOption(values, 'last');
  const conversationId = stringOption(values, 'conversation');
  if ((from === undefined) !== (until === undefined)) {
    throw new CliUsageError('--from and --until go together', COMMAND);
  }
  const chosen = [from !== undefined, last !== undefined, conversationId !== undefined].filter(
    Boolean,
  ).length;
  if (chosen !== 1) {
    throw new CliUsageError(
      'give exactly one of --from <time> --until <time>, --last <duration> or --conversation <id>',
      COMMAND,
    );
  }
  const fileOptions = exportFileOptions(values);
  if (conversationId !== undefined) {
    if (conversationId === '') throw new CliUsageError('--conversation must not be empty', COMMAND);
    return { conversationId, ...fileOptions };
  }
  const range = last === undefined ? explicitRange(from ?? '', until ?? '') : lastRange(last, nowMs);
  return { ...range, ...fileOptions };
}

function explicitRange(fromText: string, untilText: string): { from: string; until: string } {
  const from = instantOption('from', fromText, COMMAND);
  const until = instantOption('until', untilText, COMMAND);
  if (Date.parse(from) >= Date.parse(until)) {
    throw new CliUsageError(`--until ${until} must be after --from ${from}`, COMMAND);
  }
  return { from, until };
}

/** The window of the given length that ends now (to the second). */
function lastRange(durationText: string, nowMs: number): { from: string; until: string } {
  const seconds = isoDurationSeconds(durationText);
  if (seconds === undefined || seconds <= 0) {
    throw new CliUsageError(
      `--last '${durationText}' must be an ISO 8601 duration in weeks, days, hours, minutes or seconds, e.g. P1D, PT6H, P1DT12H`,
      COMMAND,
    );
  }
  const untilMs = Math.floor(nowMs / MS_PER_SECOND) * MS_PER_SECOND;
  return { from: rfc3339Seconds(untilMs - seconds * MS_PER_SECOND), until: rfc3339Seconds(untilMs) };
}

function exportFileOptions(values: CliOptionValues): Pick<StartExportBody, 'delimiter' | 'maxRecordsInFile'> {
  const delimiterText = stringOption(values, 'delimiter');
  const maxRecordsInFile = integerOption(values, 'max-records-in-file', COMMAND, {
    min: 1,
    max: MAX_RECORDS_IN_FILE,
  });
  const options: Pick<StartExportBody, 'delimiter' | 'maxRecordsInFile'> = {};
  if (delimiterText !== undefined) {
    const delimiter = DELIMITER_ALIASES[delimiterText] ?? delimiterText;
    if (!(CSV_DELIMITERS as readonly string[]).includes(delimiter)) {
      throw new CliUsageError(`--delimiter '${delimiterText}' must be one of , ; | or tab`, COMMAND);
    }
    options.delimiter = delimiter;
  }
  if (maxRecordsInFile !== undefined) options.maxRecordsInFile = maxRecordsInFile;
  return options;
}

function rfc3339Seconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
