import type { CommandContext } from './CliCommand';
import { stringOption } from './cliOptions';
import { CliUsageError } from './errors';

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** RFC 3339 to the second: `Z` (UTC) or an offset from it, `+02:00`, `-05:30`. */
const RFC3339_SECONDS = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(Z|([+-])(\d{2}):(\d{2}))$/;
const MAX_OFFSET_HOURS = 23;
const MAX_OFFSET_MINUTES = 59;
const MS_PER_MINUTE = 60_000;
const MINUTES_PER_HOUR = 60;

/**
 * An option's instant as the API takes it, in UTC to the second (`2026-11-19T22:00:00Z`). The
 * option may be in UTC, carry an offset (`2026-11-20T00:00:00+02:00`: the same instant), or be a
 * bare date (its midnight UTC). `alsoAccepted` ends the message of a bad value (`, or now`).
 * @throws CliUsageError naming the option and the forms it takes
 */
export function instantOption(name: string, text: string, command: string, alsoAccepted = ''): string {
  const ms = instantMs(CALENDAR_DATE.test(text) ? `${text}T00:00:00Z` : text);
  if (ms === undefined) {
    throw new CliUsageError(
      `--${name} '${text}' must be a UTC time like 2026-01-31T00:00:00Z, a time with its offset ` +
        `like 2026-01-31T02:00:00+02:00, or a date like 2026-01-31 (midnight UTC)${alsoAccepted}`,
      command,
    );
  }
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/**
 * For each of the options given with an offset, the line that says which UTC instant it means,
 * so the window the API records is never a surprise: `--from 2026-11-20T00:00:00+02:00 is
 * 2026-11-19T22:00:00Z (UTC)`. Call it once the options have been checked.
 */
export function offsetInstantNotes(values: CommandContext['values'], names: readonly string[]): string[] {
  const notes: string[] = [];
  for (const name of names) {
    const text = stringOption(values, name);
    const match = text === undefined ? null : RFC3339_SECONDS.exec(text);
    if (text === undefined || match === null || match[2] === 'Z') continue;
    notes.push(`--${name} ${text} is ${instantOption(name, text, '')} (UTC)`);
  }
  return notes;
}

/** The instant as epoch ms when the text is RFC 3339 to the second and a real time; else undefined. */
function instantMs(text: string): number | undefined {
  const match = RFC3339_SECONDS.exec(text);
  if (match === null) return undefined;
  const [, local, zone, sign, hours, minutes] = match as unknown as [
    string,
    string,
    string,
    string?,
    string?,
    string?,
  ];
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    if (Number(hours) > MAX_OFFSET_HOURS || Number(minutes) > MAX_OFFSET_MINUTES) return undefined;
    offsetMinutes = (sign === '-' ? -1 : 1) * (Number(hours) * MINUTES_PER_HOUR + Number(minutes));
  }
  // Read as UTC, then checked field by field: a 31 February or a 25th hour is refused, not rolled over.
  const localMs = Date.parse(`${local}Z`);
  if (Number.isNaN(localMs) || new Date(localMs).toISOString().slice(0, 19) !== local) return undefined;
  return localMs - offsetMinutes * MS_PER_MINUTE;
}
