import { isValidExportId } from '../lib/exports/record/exportId';
import { SPOT_ID_PATTERN } from '../lib/exports/record/spotId';
import { CLI_NAME } from '../lib/settings/localRuntimeLayout';
import type { CliOptionsConfig, CliOptionValues, CommandContext, FollowUpCommand } from './CliCommand';
import { CliUsageError } from './errors';
import {
  DEFAULT_WATCH_INTERVAL_SECONDS,
  DEFAULT_WATCH_RECONNECT_ATTEMPTS,
  MIN_WATCH_INTERVAL_SECONDS,
} from './watchExport';

/** Options every command accepts, before or after the command name. */
export const GLOBAL_OPTIONS = {
  api: { type: 'string' },
  // Repeatable: commands about one spot refuse a second one rather than keep the last.
  spot: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  sigv4: { type: 'boolean' },
  region: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies CliOptionsConfig;

export function stringOption(values: CliOptionValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function booleanOption(values: CliOptionValues, name: string): boolean {
  return values[name] === true;
}

/** Every `--spot` given, in order, without repeats. */
export function spotOptions(values: CliOptionValues): string[] {
  const value = values.spot;
  const given = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return [...new Set(given.filter((spot): spot is string => typeof spot === 'string'))];
}

/** `--spot`, else `$OPENWEB_SPOT_ID`; required by every command about one spot, which refuses two. */
export function requireSpotId(context: CommandContext, command: string): string {
  const given = spotOptions(context.values);
  if (given.length > 1) {
    throw new CliUsageError(
      `takes one spot, but --spot was given ${given.length} times (${given.join(', ')})`,
      command,
    );
  }
  const spotId = given[0] ?? (context.io.env.OPENWEB_SPOT_ID || undefined);
  if (spotId === undefined) {
    throw new CliUsageError('--spot <id> is required (or set OPENWEB_SPOT_ID)', command);
  }
  return checkedSpotId(spotId, command);
}

/**
 * The spots a command about one or more spots acts on: each `--spot`, else every spot of the
 * fleet with `allSpots`, else `$OPENWEB_SPOT_ID`. Never silently one of several.
 */
export function requireSpotIds(
  context: CommandContext,
  command: string,
  allSpotsOption: string,
): { spotIds: string[]; allSpots: boolean } {
  const given = spotOptions(context.values);
  const allSpots = booleanOption(context.values, allSpotsOption);
  if (allSpots && given.length > 0) {
    throw new CliUsageError(`--${allSpotsOption} and --spot name the spots twice: give one of them`, command);
  }
  if (allSpots) return { spotIds: [], allSpots };
  if (given.length === 0) return { spotIds: [requireSpotId(context, command)], allSpots };
  return { spotIds: given.map((spotId) => checkedSpotId(spotId, command)), allSpots };
}

function checkedSpotId(spotId: string, command: string): string {
  if (!SPOT_ID_PATTERN.test(spotId)) {
    throw new CliUsageError(`--spot '${spotId}' must look like sp_<letters, digits, _ or ->`, command);
  }
  return spotId;
}

/**
 * The one `<exportId>` argument of status, watch, abort and download, checked as the API checks
 * it (which answers a malformed id with a plain 404): ids are lower case, and one typed in upper
 * case is named in lower case.
 */
export function requireExportId(context: CommandContext, command: string): string {
  const [exportId, ...extra] = context.positionals;
  if (exportId === undefined || exportId === '') {
    throw new CliUsageError('the export id is missing', command);
  }
  if (extra.length > 0) throw new CliUsageError(`unexpected argument '${extra[0]}'`, command);
  const typed: string = exportId;
  if (!isValidExportId(exportId)) {
    const lowerCase = typed.toLowerCase();
    throw new CliUsageError(
      isValidExportId(lowerCase)
        ? `the export id '${typed}' must be lower case: ${lowerCase}`
        : `the export id '${typed}' must look like ex_ and 26 lower-case letters and digits, e.g. ${EXAMPLE_EXPORT_ID}`,
      command,
    );
  }
  return exportId;
}

const EXAMPLE_EXPORT_ID = 'ex_01kak3f4v2qz7m9d8c5b4a3e2f';

export function rejectPositionals(context: CommandContext, command: string): void {
  const [first] = context.positionals;
  if (first !== undefined) throw new CliUsageError(`unexpected argument '${first}'`, command);
}

export function integerOption(
  values: CliOptionValues,
  name: string,
  command: string,
  range: { min: number; max?: number },
): number | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  const bounds = range.max === undefined ? `at least ${range.min}` : `from ${range.min} to ${range.max}`;
  if (!Number.isSafeInteger(value) || value < range.min || (range.max !== undefined && value > range.max)) {
    throw new CliUsageError(`--${name} '${text}' must be a whole number ${bounds}`, command);
  }
  return value;
}

/** `--interval-seconds`: how often a watch polls, never faster than the API refreshes. */
export function intervalSecondsOption(values: CliOptionValues, command: string): number {
  const text = stringOption(values, 'interval-seconds');
  if (text === undefined) return DEFAULT_WATCH_INTERVAL_SECONDS;
  const value = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= MIN_WATCH_INTERVAL_SECONDS)) {
    throw new CliUsageError(
      `--interval-seconds '${text}' must be a number of seconds, at least ${MIN_WATCH_INTERVAL_SECONDS}`,
      command,
    );
  }
  return value;
}

/** Bounds `--reconnect-attempts`; at the 30 s cap, 1000 attempts is over 8 hours. */
export const MAX_WATCH_RECONNECT_ATTEMPTS = 1000;

/** `--reconnect-attempts`: failed status checks in a row a watch retries before it gives up. */
export function reconnectAttemptsOption(values: CliOptionValues, command: string): number {
  return (
    integerOption(values, 'reconnect-attempts', command, { min: 0, max: MAX_WATCH_RECONNECT_ATTEMPTS }) ??
    DEFAULT_WATCH_RECONNECT_ATTEMPTS
  );
}

/**
 * A printed follow-up command, with the global options of this command line that the next one
 * needs to reach the same API the same way (`--api`, `--sigv4`, `--region`): pasted as it is, it
 * talks to the API this one did. Options set through the environment carry over by themselves.
 */
export function followUpCommandFor(values: CliOptionValues): FollowUpCommand {
  const api = stringOption(values, 'api');
  const region = stringOption(values, 'region');
  const kept = [
    ...(api === undefined ? [] : [`--api ${api}`]),
    ...(booleanOption(values, 'sigv4') ? ['--sigv4'] : []),
    ...(region === undefined ? [] : [`--region ${region}`]),
  ];
  return (words) => [CLI_NAME, words, ...kept].join(' ');
}
