import { MAX_BACKFILL_WINDOWS } from '../lib/exports/backfill/BackfillRecord';
import type { BackfillRequest } from '../lib/exports/backfill/backfillRequestSchema';
import { MAX_WINDOW_HOURS } from '../lib/exports/coverage/planWindows';
import { SPOT_ID_PATTERN } from '../lib/exports/record/spotId';
import { FUTURE_WINDOW_ALLOWANCE_SECONDS } from '../lib/exports/requests/exportRequestLimits';
import type { CommandContext } from './CliCommand';
import { booleanOption, stringOption } from './cliOptions';
import { configuredSpots } from './configuredSpots';
import { CliUsageError } from './errors';
import { instantOption } from './instantOption';

const MS_PER_SECOND = 1000;
const MS_PER_HOUR = 3_600_000;
const HOURS_PER_DAY = 24;
const WINDOW_LENGTH = /^(\d+)(h|d)?$/;
/** `--until now`, the default: the start of the current hour, so a range ends on its last whole hour. */
export const UNTIL_NOW = 'now';
export const DEFAULT_WINDOW = '730h';

/**
 * The body of a backfill from `--from`, `--until` (default now, cut to the whole hour) and
 * `--window` (`730h` by default; `24h`, `7d` or a number of hours) and `--refresh` (export covered
 * hours again too), checked as the API checks it.
 */
export function backfillBody(
  values: CommandContext['values'],
  nowMs: number,
  command: string,
): BackfillRequest {
  const fromText = stringOption(values, 'from');
  if (fromText === undefined) throw new CliUsageError('--from <time> is required', command);
  const from = instantOption('from', fromText, command);
  const untilText = stringOption(values, 'until') ?? UNTIL_NOW;
  const until =
    untilText === UNTIL_NOW
      ? rfc3339Seconds(Math.floor(nowMs / MS_PER_HOUR) * MS_PER_HOUR)
      : instantOption('until', untilText, command, `, or ${UNTIL_NOW}`);
  if (Date.parse(until) > nowMs + FUTURE_WINDOW_ALLOWANCE_SECONDS * MS_PER_SECOND) {
    throw new CliUsageError(
      `--until ${until} must not be in the future: comments that are not written yet cannot be exported`,
      command,
    );
  }
  if (Date.parse(from) >= Date.parse(until)) {
    throw new CliUsageError(`--from ${from} must be before --until ${until}`, command);
  }
  const windowHours = windowHoursOption(stringOption(values, 'window') ?? DEFAULT_WINDOW, command);
  const windows = Math.ceil((Date.parse(until) - Date.parse(from)) / (windowHours * MS_PER_HOUR));
  if (windows > MAX_BACKFILL_WINDOWS) {
    throw new CliUsageError(
      `the range needs ${windows} windows of ${windowHours} h, more than the ${MAX_BACKFILL_WINDOWS} one backfill plans: use a longer --window or split the range`,
      command,
    );
  }
  return { from, until, windowHours, ...(booleanOption(values, 'refresh') && { refresh: true }) };
}

/** `--window`: `730h`, `24h`, `7d` or a bare number of hours, 1 to 730 hours. */
export function windowHoursOption(text: string, command: string): number {
  const match = WINDOW_LENGTH.exec(text);
  const hours = match === null ? Number.NaN : Number(match[1]) * (match[2] === 'd' ? HOURS_PER_DAY : 1);
  if (!(Number.isSafeInteger(hours) && hours >= 1 && hours <= MAX_WINDOW_HOURS)) {
    throw new CliUsageError(
      `--window '${text}' must be 1h to ${MAX_WINDOW_HOURS}h (the upstream's longest range), e.g. 24h or 7d`,
      command,
    );
  }
  return hours;
}

/**
 * The spots to backfill: `--spot` (repeatable), the spots `--spots-from` a file configures, or
 * `$OPENWEB_SPOT_ID`; each named once.
 */
export function backfillSpots(context: CommandContext, command: string): string[] {
  const given = context.values.spot;
  const named = (Array.isArray(given) ? given : given === undefined ? [] : [given]).map(String);
  const file = stringOption(context.values, 'spots-from');
  const fromFile = file === undefined ? [] : configuredSpots(file, command);
  const fallback = context.io.env.OPENWEB_SPOT_ID || undefined;
  const spots = [...new Set([...named, ...fromFile])];
  if (spots.length === 0 && fallback !== undefined) spots.push(fallback);
  if (spots.length === 0) {
    throw new CliUsageError(
      '--spot <id> or --spots-from <file> is required (or set OPENWEB_SPOT_ID)',
      command,
    );
  }
  for (const spotId of spots) {
    if (!SPOT_ID_PATTERN.test(spotId)) {
      throw new CliUsageError(`--spot '${spotId}' must look like sp_<letters, digits, _ or ->`, command);
    }
  }
  return spots;
}

function rfc3339Seconds(ms: number): string {
  return new Date(Math.floor(ms / MS_PER_SECOND) * MS_PER_SECOND).toISOString().replace('.000Z', 'Z');
}
