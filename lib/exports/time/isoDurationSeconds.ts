const SECONDS_PER_MINUTE = 60;
const SECONDS_PER_HOUR = 60 * SECONDS_PER_MINUTE;
const SECONDS_PER_DAY = 24 * SECONDS_PER_HOUR;
const SECONDS_PER_WEEK = 7 * SECONDS_PER_DAY;

// Years and calendar months have no fixed length, so only weeks, days and clock time are accepted.
const FIXED_LENGTH_ISO_DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

/**
 * Seconds in an ISO-8601 duration of fixed length (`P1D`, `PT6H`, `P1DT12H`, `PT30M`, `P1W`);
 * `undefined` for anything else, including `P`, `PT`, fractions and months or years.
 */
export function isoDurationSeconds(text: string): number | undefined {
  const match = FIXED_LENGTH_ISO_DURATION.exec(text);
  if (match === null || text === 'P') return undefined;
  const [weeks = 0, days = 0, hours = 0, minutes = 0, seconds = 0] = match
    .slice(1)
    .map((part) => Number(part ?? 0));
  return (
    weeks * SECONDS_PER_WEEK +
    days * SECONDS_PER_DAY +
    hours * SECONDS_PER_HOUR +
    minutes * SECONDS_PER_MINUTE +
    seconds
  );
}
